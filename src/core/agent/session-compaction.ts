import type { AgentEvent } from '../../shared/events.js';
import { isHearthError } from '../errors.js';
import type { LearningLoop, SessionView } from '../learning/learning-loop.js';
import type { ChatMessage, ChatModel } from '../llm/types.js';
import type { SessionRecord, SessionStore } from '../store/types.js';
import type { ToolRegistry } from '../tools/registry.js';
import { runTurn } from './loop.js';
import {
  compressContext,
  conversationThreshold,
  estimateTokens,
  historyTokens,
  leftOutNotice,
  needsCompression,
  pruneOldestTurns,
  pruneToolOutputs,
  thresholdTokens,
  type CompressionConfig,
  type CompressionResult,
} from './compression/index.js';

export interface CompactableSession {
  record: SessionRecord;
  systemPrompt: string;
}

export interface CompactionOutcome {
  history: ChatMessage[];
  /** The child session the conversation continues in; null when the turns were kept in place. */
  child: SessionRecord | null;
}

/** After a failed or unhelpful compression, wait for this many new messages before trying again. */
const RETRY_AFTER_MESSAGES = 4;
/**
 * Summary tries per compression attempt (the first and two retries). A summariser that keeps failing
 * would otherwise be asked again every few messages for the rest of the session.
 */
export const MAX_SUMMARY_TRIES = 3;

/**
 * One compression attempt: from the prompt passing the threshold until a summary (or, on overflow,
 * pruning) shrinks it. The flush review runs once per attempt: a retry of the summary sees mostly the
 * turns the flush already reviewed, and each flush is a full model call over the whole conversation.
 */
interface Attempt {
  flushed: boolean;
  failures: number;
  /** Conversation length at the last failure: a retry waits until it has grown. */
  failedAt: number;
}

type Compressed = Extract<CompressionResult, { ok: true }>;

/**
 * Decides when a live session's context is compressed and carries it out (issue 3, PARITY §6): a
 * memory flush review first, then `compressContext`, then a child session linked to its parent that
 * holds the new context, so a resume continues from it. When summarising fails, every turn is kept,
 * the user gets a warning, and the summary is retried a bounded number of times as the conversation
 * grows. When the provider then rejects the prompt as too long, `recoverOverflow` leaves the oldest
 * turns out of the model's view (never out of the store) instead of failing every later turn.
 */
export class SessionCompactor {
  private readonly attempts = new Map<string, Attempt>();

  constructor(
    private readonly deps: {
      store: SessionStore;
      model: ChatModel;
      tools: ToolRegistry;
      config: CompressionConfig;
      learning?: LearningLoop;
      workspace: string;
      approvals: SessionView['approvals'];
    },
  ) {}

  /** Compress when the next prompt would pass the threshold; `force` (/compress) skips that check. */
  async maybeCompact(
    session: CompactableSession,
    conversation: readonly ChatMessage[],
    signal: AbortSignal,
    emit: (event: AgentEvent) => void,
    options: { force?: boolean; focus?: string } = {},
  ): Promise<CompactionOutcome | null> {
    const { config, model, tools } = this.deps;
    const contextLength = model.contextLength;
    if (!config.enabled || contextLength === undefined) return null;
    const id = session.record.id;
    const attempt = this.attempts.get(id) ?? { flushed: false, failures: 0, failedAt: 0 };
    if (!options.force) {
      if (attempt.failures >= MAX_SUMMARY_TRIES || (attempt.failures > 0 && conversation.length < attempt.failedAt + RETRY_AFTER_MESSAGES)) return null;
      const schemas = tools.schemas();
      const promptTokens = estimateTokens(session.systemPrompt, conversation, schemas);
      const threshold = conversationThreshold(config.threshold, estimateTokens(session.systemPrompt, [], schemas), contextLength);
      if (!needsCompression({ promptTokens, contextLength, threshold })) return null;
    }
    this.attempts.set(id, attempt);

    emit({
      type: 'notice',
      level: 'info',
      message:
        attempt.failures === 0
          ? 'The conversation is near the model\'s context limit: saving what matters, then compressing.'
          : `Summarising the earlier conversation again (try ${attempt.failures + 1} of ${MAX_SUMMARY_TRIES}).`,
    });
    if (!attempt.flushed) {
      await this.flush(session, conversation, signal, emit);
      attempt.flushed = true;
    }
    const result = await this.summarise(session, conversation, signal, options.focus);
    if (!result.ok) {
      attempt.failures += 1;
      attempt.failedAt = conversation.length;
      emit({ type: 'notice', level: 'warning', message: `${result.warning} ${retryNote(attempt.failures)}` });
      return result.prunedToolOutputs > 0 ? { history: result.history, child: null } : null;
    }
    return this.continueCompressed(session, result, emit);
  }

  /**
   * The provider rejected the prompt as too long (`model_context_overflow`); `round` counts the
   * rejections of this one model call. A summary is tried first when this attempt has not seen one fail
   * (the provider counts more tokens than the estimate, so the threshold never fired); without the flush
   * review, which would send the same oversized conversation. Otherwise, or when it fails, the oldest
   * turns are left out, each round keeping half as much. Null when nothing can be left out.
   */
  async recoverOverflow(
    session: CompactableSession,
    conversation: readonly ChatMessage[],
    round: number,
    signal: AbortSignal,
    emit: (event: AgentEvent) => void,
  ): Promise<CompactionOutcome | null> {
    const { config, model, tools } = this.deps;
    const id = session.record.id;
    const attempt = this.attempts.get(id);
    if (round === 0 && config.enabled && model.contextLength !== undefined && (attempt === undefined || attempt.failures === 0)) {
      emit({ type: 'notice', level: 'info', message: `${model.id} rejected the conversation as too long for its context: summarising the earlier part.` });
      const result = await this.summarise(session, conversation, signal);
      if (result.ok) return this.continueCompressed(session, result, emit);
      emit({ type: 'notice', level: 'warning', message: result.warning });
    }

    // Old tool outputs go first (their text stays in the store), so fewer whole turns have to.
    const base = pruneToolOutputs(conversation, { keepLastN: config.protect_last_n }).history;
    const pruned = pruneOldestTurns(base, this.pruneBudget(session, base, round));
    if (pruned === null) {
      emit({
        type: 'notice',
        level: 'error',
        message: `${model.id} rejected the conversation as too long for its context, and only the latest exchange is left in it: that alone is too long. Shorten the message, start a new session, or use a model with a larger context.`,
      });
      return null;
    }
    const schemas = tools.schemas();
    const parent = session.record;
    const child = this.continueInChild(parent, pruned);
    this.attempts.delete(id);
    emit({
      type: 'compressed',
      parentSessionId: parent.id,
      sessionId: child.id,
      summarizedMessages: 0,
      prunedToolOutputs: 0,
      tokensBefore: estimateTokens(session.systemPrompt, conversation, schemas),
      tokensAfter: estimateTokens(session.systemPrompt, pruned.history, schemas),
    });
    emit({ type: 'notice', level: 'warning', message: leftOutNotice(pruned.leftOut, model.id) });
    return { history: pruned.history, child };
  }

  private summarise(session: CompactableSession, conversation: readonly ChatMessage[], signal: AbortSignal, focus?: string): Promise<CompressionResult> {
    const { config, model, tools } = this.deps;
    return compressContext({
      model,
      systemPrompt: session.systemPrompt,
      history: conversation,
      contextLength: model.contextLength as number,
      config,
      toolSchemas: tools.schemas(),
      signal,
      ...(focus === undefined ? {} : { focus }),
    });
  }

  private continueCompressed(session: CompactableSession, result: Compressed, emit: (event: AgentEvent) => void): CompactionOutcome {
    if (result.warning !== undefined) emit({ type: 'notice', level: 'warning', message: result.warning });
    if (result.shortened.messages > 0) emit({ type: 'notice', level: 'warning', message: shortenedNotice(result) });
    const parent = session.record;
    const child = this.continueInChild(parent, result);
    this.attempts.delete(parent.id);
    emit({
      type: 'compressed',
      parentSessionId: parent.id,
      sessionId: child.id,
      summarizedMessages: result.summarizedMessages,
      prunedToolOutputs: result.prunedToolOutputs,
      tokensBefore: result.tokensBefore,
      tokensAfter: result.tokensAfter,
    });
    return { history: result.history, child };
  }

  /** The child session that holds the new context; the parent keeps every original message. */
  private continueInChild(parent: SessionRecord, result: { history: readonly ChatMessage[] }): SessionRecord {
    const { store, model } = this.deps;
    const child = store.createSession({
      source: parent.source,
      model: model.id,
      parentSessionId: parent.id,
      ...(parent.title === null ? {} : { title: parent.title }),
    });
    store.appendContinuation(child.id, parent.id, result.history);
    return store.getSession(child.id) ?? child;
  }

  /** Tokens the kept turns may cost: half the room under the threshold (or of what the conversation costs), halved each round. */
  private pruneBudget(session: CompactableSession, conversation: readonly ChatMessage[], round: number): number {
    const { config, model, tools } = this.deps;
    let room = historyTokens(conversation);
    const contextLength = model.contextLength;
    if (contextLength !== undefined) {
      const fixed = estimateTokens(session.systemPrompt, [], tools.schemas());
      room = Math.min(room, Math.max(0, thresholdTokens(contextLength, conversationThreshold(config.threshold, fixed, contextLength)) - fixed));
    }
    return Math.floor(room / 2 ** (round + 1));
  }

  /** The memory flush turn: failures are reported, never fatal (compression must still happen). */
  private async flush(session: CompactableSession, conversation: readonly ChatMessage[], signal: AbortSignal, emit: (event: AgentEvent) => void): Promise<void> {
    const learning = this.deps.learning;
    if (learning === undefined) return;
    const { model, tools, workspace, approvals } = this.deps;
    try {
      await learning.flush({ sessionId: session.record.id, model, systemPrompt: session.systemPrompt, history: [...conversation], tools, approvals, workspace, runTurn }, signal);
    } catch (err) {
      if (isHearthError(err, 'aborted')) throw err;
      emit({ type: 'notice', level: 'warning', message: `Saving memories before compression failed: ${err instanceof Error ? err.message : String(err)}` });
    }
  }
}

function retryNote(failures: number): string {
  if (failures < MAX_SUMMARY_TRIES) return `Hearth tries again once the conversation has grown (try ${failures} of ${MAX_SUMMARY_TRIES} failed).`;
  return (
    `Hearth will not try again on its own (${MAX_SUMMARY_TRIES} tries failed); /compress tries now. If the conversation outgrows the ` +
    "model's context, the oldest turns are left out of the model's view (they stay in the session history)."
  );
}

function shortenedNotice(result: Compressed): string {
  const { messages, charsOmitted } = result.shortened;
  return (
    `To fit the summary request, ${messages} long message${messages === 1 ? ' was' : 's were'} shortened before summarising ` +
    `(${charsOmitted.toLocaleString('en-US')} characters from the middle left out), so the summary may miss that detail. ` +
    'The messages themselves are kept whole in the session history.'
  );
}
