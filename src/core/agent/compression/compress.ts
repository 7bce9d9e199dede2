import type { HearthConfig } from '../../config/schema.js';
import { abortError, errorMessage, isHearthError } from '../../errors.js';
import { countReferenceTokens } from '../../llm/token-count.js';
import type { ChatMessage, ChatModel, ToolSchema } from '../../llm/types.js';
import { fillMissingToolResults } from '../history-repair.js';
import { toolPairingProblems } from './history-check.js';
import { planCompression, type CompressionPlan } from './plan.js';
import { pruneToolOutputs } from './prune.js';
import { buildSummaryRequest, summarizeMiddle } from './summarize.js';
import { isSummaryMessage, summaryBody, summaryMessage } from './summary-message.js';
import { conversationThreshold, estimateTokens, historyTokens, PER_MESSAGE_OVERHEAD, thresholdTokens } from './token-estimate.js';
import { addCuts, chunkForTranscript, NO_CUTS, type TranscriptCuts } from './transcript.js';

/**
 * Context compression (PARITY §6) for any window size, 4K included: prune old tool outputs, keep the
 * head and the tail, summarise the middle with the session's own model, and return the new history.
 *
 * It never drops turns silently. When the summary cannot be made (HTTP error, timeout, an answer
 * without the sections), the result is `ok: false` with every turn kept (only old tool outputs
 * shortened, their full text stays in the store) and a warning for the user. It touches no store and
 * emits nothing: the host creates the child session, persists and announces (`compressed` event).
 */

export type CompressionConfig = HearthConfig['compression'];

export interface CompressOptions {
  model: ChatModel;
  /** The session's system prompt (counted, never changed). */
  systemPrompt: string;
  /** The conversation without the system prompt. Not mutated. */
  history: readonly ChatMessage[];
  contextLength: number;
  config: CompressionConfig;
  /** The tool schemas sent with each call (they count against the window). */
  toolSchemas?: readonly ToolSchema[];
  /** The summary from the previous compression; found in the history when omitted. */
  previousSummary?: string;
  /** A topic to keep in detail (`/compress focus <topic>`). */
  focus?: string;
  /** Interrupt: the summarising call stops and `HearthError('aborted')` is thrown (nothing changed). */
  signal: AbortSignal;
}

interface Measures {
  prunedToolOutputs: number;
  /** Estimated prompt tokens (reference tokenizer) before and after, system prompt and tools included. */
  tokensBefore: number;
  tokensAfter: number;
  /** Where compression triggers for this window; `fits` says whether the new prompt is under it. */
  thresholdTokens: number;
  fits: boolean;
}

export type CompressionResult =
  | (Measures & {
      ok: true;
      /** head + summary message + carried skill content + tail. */
      history: ChatMessage[];
      summary: string;
      /** Messages the summary replaced (not counting skill content carried over verbatim). */
      summarizedMessages: number;
      carriedMessages: number;
      /** Model calls used (more than one when the middle was larger than a small model's window). */
      summaryCalls: number;
      /** Long messages the summary request could not hold whole (the summary message says so; the host tells the user). */
      shortened: TranscriptCuts;
      usage: { inputTokens: number; outputTokens: number };
      /** Set when even the compressed prompt is over the threshold. */
      warning?: string;
    })
  | (Measures & {
      ok: false;
      reason: 'summary_failed' | 'nothing_to_summarize';
      /** Every turn of the input, in order; only old tool outputs are shortened. */
      history: ChatMessage[];
      warning: string;
      error?: { code: string; message: string };
    });

/** Above this many chunks, chunks are merged and each transcript shrunk: a bounded number of calls. */
const MAX_SUMMARY_CALLS = 8;
/** Token counts are cl100k estimates; leave room for the model's own tokenizer counting more. */
const TOKENIZER_MARGIN = 0.9;
const MIN_TRANSCRIPT_TOKENS = 256;

export async function compressContext(options: CompressOptions): Promise<CompressionResult> {
  const { config, contextLength, systemPrompt } = options;
  const tools = options.toolSchemas ?? [];
  const threshold = thresholdTokens(contextLength, conversationThreshold(config.threshold, estimateTokens(systemPrompt, [], tools), contextLength));
  const tokensBefore = estimateTokens(systemPrompt, options.history, tools);
  const repaired = fillMissingToolResults(options.history).history;
  const pruned = pruneToolOutputs(repaired, { keepLastN: config.protect_last_n });
  const measure = (history: readonly ChatMessage[]) => {
    const tokensAfter = estimateTokens(systemPrompt, history, tools);
    return { prunedToolOutputs: pruned.pruned, tokensBefore, tokensAfter, thresholdTokens: threshold, fits: tokensAfter < threshold };
  };
  const keepAll = (reason: 'summary_failed' | 'nothing_to_summarize', cause: string, error?: { code: string; message: string }): CompressionResult => {
    const measures = measure(pruned.history);
    return { ok: false, reason, history: pruned.history, warning: keptWarning(cause, pruned.pruned, measures, contextLength), ...measures, ...(error === undefined ? {} : { error }) };
  };

  const plan = planCompression(pruned.history, {
    protectFirstN: config.protect_first_n,
    protectLastN: config.protect_last_n,
    tailTokenBudget: Math.floor(threshold * config.target_ratio),
  });
  const toSummarize = plan.middle.filter((m) => !isSummaryMessage(m));
  if (toSummarize.length === 0) return keepAll('nothing_to_summarize', 'there are no earlier messages to summarise outside the protected start and end');
  const previousSummary = options.previousSummary ?? earlierSummary(plan.middle);

  const maxTokens = summaryTokenBudget(contextLength, historyTokens(plan.middle));
  const reserved = Math.max(maxTokens, previousSummary === undefined ? 0 : countReferenceTokens(previousSummary));
  const transcriptTokens = Math.floor(contextLength * TOKENIZER_MARGIN) - maxTokens - reserved - requestOverheadTokens(maxTokens, options.focus);
  if (transcriptTokens < MIN_TRANSCRIPT_TOKENS) {
    const message = `A ${contextLength}-token context leaves no room for a summary request; use a model with a larger context.`;
    return keepAll('summary_failed', message, { code: 'model_context_overflow', message });
  }

  let summary = previousSummary;
  let shortened = NO_CUTS;
  const usage = { inputTokens: 0, outputTokens: 0 };
  const chunks = mergeChunks(chunkForTranscript(toSummarize, transcriptTokens), MAX_SUMMARY_CALLS);
  for (const chunk of chunks) {
    try {
      const result = await summarizeMiddle({
        model: options.model,
        middle: chunk,
        ...(summary === undefined ? {} : { previousSummary: summary }),
        ...(options.focus === undefined ? {} : { focus: options.focus }),
        signal: options.signal,
        maxTokens,
        transcriptTokens,
      });
      summary = result.summary;
      shortened = addCuts(shortened, result.cuts);
      usage.inputTokens += result.usage?.inputTokens ?? 0;
      usage.outputTokens += result.usage?.outputTokens ?? 0;
    } catch (err) {
      if (options.signal.aborted || isHearthError(err, 'aborted')) throw abortError(options.signal);
      const error = { code: isHearthError(err) ? err.code : 'internal', message: errorMessage(err) };
      return keepAll('summary_failed', `the summary request failed: ${error.message}`, error);
    }
  }

  // Carried skill content is kept, not summarised; the assistant messages carried with it are rebuilt copies.
  const summarizedMessages = plan.middle.length - plan.carried.filter((m) => m.role !== 'assistant').length;
  const history = assemble(plan, summary as string, summarizedMessages, shortened);
  const problems = toolPairingProblems(history);
  if (problems.length > toolPairingProblems(pruned.history).length) {
    // A planning bug must cost a compression, never a provider rejection or a lost turn.
    const message = `compression produced an invalid conversation (${problems.join('; ')})`;
    return keepAll('summary_failed', message, { code: 'internal', message });
  }
  const measures = measure(history);
  return {
    ok: true,
    history,
    summary: summary as string,
    summarizedMessages,
    carriedMessages: plan.carried.length,
    summaryCalls: chunks.length,
    shortened,
    usage,
    ...measures,
    ...(measures.fits ? {} : { warning: overWarning(measures, contextLength) }),
  };
}

/** Summary length: 20% of what it replaces, at least 2K (or 15% of a small window), at most min(10% of the window, 12K). */
export function summaryTokenBudget(contextLength: number, middleTokens: number): number {
  const low = Math.min(2_000, Math.floor(contextLength * 0.15));
  const high = Math.min(12_000, Math.max(low, Math.floor(contextLength * 0.1)));
  return Math.max(low, Math.min(high, Math.round(middleTokens * 0.2)));
}

function assemble(plan: CompressionPlan, summary: string, summarized: number, shortened: TranscriptCuts): ChatMessage[] {
  return [...plan.head, summaryMessage(summary, Math.max(1, summarized), shortened), ...plan.carried, ...plan.tail];
}

/**
 * The summary request without its transcript, measured rather than guessed: system prompt, the
 * previous-summary framing (its text is reserved separately), the focus line and the headings.
 */
function requestOverheadTokens(maxTokens: number, focus: string | undefined): number {
  const request = buildSummaryRequest({ middle: [], previousSummary: '-', maxTokens, ...(focus === undefined ? {} : { focus }) });
  return request.messages.reduce((sum, m) => sum + PER_MESSAGE_OVERHEAD + countReferenceTokens(m.content), 0);
}

function earlierSummary(middle: readonly ChatMessage[]): string | undefined {
  const bodies = middle.filter(isSummaryMessage).map(summaryBody).filter((b) => b !== '');
  return bodies.length === 0 ? undefined : bodies.join('\n\n');
}

/** Consecutive chunks joined so there are at most `limit` (each transcript then shrinks to fit). */
function mergeChunks<T>(chunks: T[][], limit: number): T[][] {
  if (chunks.length <= limit) return chunks;
  const size = Math.ceil(chunks.length / limit);
  const merged: T[][] = [];
  for (let i = 0; i < chunks.length; i += size) merged.push(chunks.slice(i, i + size).flat());
  return merged;
}

function keptWarning(cause: string, prunedCount: number, measures: Measures, contextLength: number): string {
  const pruned = prunedCount > 0 ? ` ${prunedCount} old tool output${prunedCount === 1 ? ' was' : 's were'} shortened (the full text stays in the session history).` : '';
  const fit = measures.fits ? '' : ` ${overWarning(measures, contextLength)}`;
  return `Hearth could not summarise the earlier conversation (${cause}); the turns were kept and nothing was dropped.${pruned}${fit}`;
}

function overWarning(measures: Measures, contextLength: number): string {
  return (
    `The conversation still takes about ${measures.tokensAfter.toLocaleString('en-US')} tokens, over the compression threshold of ` +
    `${measures.thresholdTokens.toLocaleString('en-US')} for this ${contextLength.toLocaleString('en-US')}-token context, and may not fit: ` +
    'start a new session, or use a model with a larger context.'
  );
}
