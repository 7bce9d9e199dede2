import { HearthError } from '../../errors.js';
import type { ChatMessage, ChatModel, ChatRequest, Usage } from '../../llm/types.js';
import { streamResponse } from '../model-response.js';
import { renderTranscript, type TranscriptCuts } from './transcript.js';

/**
 * The summarising call: one request, no tools, the middle of the conversation as a transcript, and a
 * fixed set of sections (PARITY §6) so the agent finds the goal, constraints and state in the same
 * place every time. A re-compression sends the previous summary and asks for it to be updated, so
 * what was learnt early survives any number of compressions.
 */

export const SUMMARY_SECTIONS = ['Goal', 'Constraints & Preferences', 'Progress', 'Key Decisions', 'Relevant Files', 'Next Steps', 'Critical Context'] as const;

const TEMPLATE = [
  '## Goal',
  '## Constraints & Preferences',
  '## Progress',
  '### Done',
  '### In Progress',
  '### Blocked',
  '## Key Decisions',
  '## Relevant Files',
  '## Next Steps',
  '## Critical Context',
].join('\n');

export const SUMMARY_SYSTEM_PROMPT = [
  'You write the working summary that replaces the earlier part of a conversation between a user and an AI agent, so the agent can carry on without those messages.',
  'Write only the summary, in Markdown, using exactly these headings in this order:',
  TEMPLATE,
  'Be specific: keep file paths, commands, names, numbers, URLs and error messages exactly as written. Keep the user\'s preferences and instructions close to their own words.',
  'Write "None" under a heading that has nothing. Do not invent anything, do not call tools, do not answer or continue the conversation.',
].join('\n\n');

export interface SummarizeOptions {
  model: ChatModel;
  middle: readonly ChatMessage[];
  /** The summary from an earlier compression: it is updated, not started over. */
  previousSummary?: string;
  /** A topic the user asked to keep in detail (`/compress focus <topic>`). */
  focus?: string;
  signal: AbortSignal;
  /** Most tokens the summary may use. */
  maxTokens: number;
  /** Largest transcript to send, in reference tokens (the caller keeps the request inside the context). */
  transcriptTokens?: number;
}

export interface SummarizeResult {
  summary: string;
  usage: Usage | null;
  /** What the transcript left out of long messages to fit `transcriptTokens`. */
  cuts: TranscriptCuts;
}

/** The request, exported so its size can be measured before it is sent. */
export function buildSummaryRequest(options: Omit<SummarizeOptions, 'model' | 'signal'>): ChatRequest {
  return summaryRequest(options).request;
}

function summaryRequest(options: Omit<SummarizeOptions, 'model' | 'signal'>): { request: ChatRequest; cuts: TranscriptCuts } {
  const { text: transcript, cuts } = renderTranscript(options.middle, options.transcriptTokens);
  const parts: string[] = [];
  if (options.previousSummary !== undefined && options.previousSummary.trim() !== '') {
    parts.push(
      `This is the current summary of the conversation so far:\n\n<previous-summary>\n${options.previousSummary.trim()}\n</previous-summary>`,
      'The messages below came after it. UPDATE the summary with them rather than starting over: keep everything that is still true, ' +
        'move finished work from In Progress to Done, add new decisions, files and constraints, and drop only what the new messages make obsolete. ' +
        'Return the complete updated summary with every section.',
    );
  } else {
    parts.push('Summarise the conversation below.');
  }
  parts.push(`<transcript>\n${transcript}\n</transcript>`);
  if (options.focus !== undefined && options.focus.trim() !== '') parts.push(`Keep extra detail about: ${options.focus.trim()}`);
  parts.push(`Write the summary now, with the headings ${SUMMARY_SECTIONS.map((s) => `"## ${s}"`).join(', ')}.`);
  const request: ChatRequest = {
    messages: [
      { role: 'system', content: SUMMARY_SYSTEM_PROMPT },
      { role: 'user', content: parts.join('\n\n') },
    ],
    tools: [],
    toolChoice: 'none',
    maxTokens: options.maxTokens,
    temperature: 0.2,
  };
  return { request, cuts };
}

/** One model call. Throws a HearthError when the call fails or the answer is not a usable summary. */
export async function summarizeMiddle(options: SummarizeOptions): Promise<SummarizeResult> {
  if (!Number.isInteger(options.maxTokens) || options.maxTokens <= 0) {
    throw new HearthError('usage', `maxTokens must be a positive whole number, got ${options.maxTokens}.`);
  }
  const { request, cuts } = summaryRequest(options);
  // Nothing of the summary is streamed to the surface: the user sees the `compressed` event instead.
  const response = await streamResponse(options.model, request, options.signal, () => undefined);
  return { summary: validateSummary(response.text), usage: response.usage, cuts };
}

/** The summary without fences or preamble; a HearthError naming what is missing when it is unusable. */
export function validateSummary(raw: string): string {
  const text = raw.trim().replace(/^```(?:markdown|md)?\s*\n/i, '').replace(/\n```\s*$/, '').trim();
  if (text === '') throw new HearthError('model_bad_response', 'The model returned an empty summary.');
  const missing = SUMMARY_SECTIONS.filter((section) => headingIndex(text, section) === -1);
  if (missing.length > 0) {
    throw new HearthError('model_bad_response', `The model's summary is missing the section${missing.length === 1 ? '' : 's'} ${missing.join(', ')}.`, {
      details: { missing, preview: text.slice(0, 200) },
    });
  }
  // Drop a preamble such as "Here is the summary:" before the first heading.
  return text.slice(headingIndex(text, SUMMARY_SECTIONS[0])).trim();
}

/** Where a section heading starts: `## Goal`, `**Goal:**`, `Goal:` at the start of a line. */
function headingIndex(text: string, section: string): number {
  const name = section.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('&', '(?:&|and)');
  const pattern = new RegExp(`^[ \\t]*(?:#{1,4}[ \\t]*)?(?:\\*\\*)?${name}(?:\\*\\*)?[ \\t]*(?::|\\*\\*|$)`, 'im');
  return pattern.exec(text)?.index ?? -1;
}
