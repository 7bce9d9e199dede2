import { HearthError } from '../../errors.js';
import type { ChatMessage, ToolCall } from '../../llm/types.js';
import { isProtectedMessage } from './protected-content.js';

/**
 * Step 1 of compression, and the cheapest: an old tool output (a file read twenty steps ago, a long
 * command log) is rarely needed word for word, and it is usually what fills a small context. It is
 * replaced by a one-line placeholder that says what it was and where the full text still is (the
 * session store keeps every message as it happened; only the model's view shrinks).
 */

/** Outputs up to this many characters are cheaper to keep than to explain away. */
export const PRUNE_MIN_CHARS = 200;
/** Longest rendering of the call's arguments inside a placeholder. */
const ARGUMENTS_PREVIEW_CHARS = 80;
export const PRUNED_PREFIX = '[Earlier tool output pruned to save context:';

export interface PruneOptions {
  /** The most recent messages are the work in progress: their outputs stay whole. */
  keepLastN: number;
  /** Outputs longer than this are pruned (default 200 characters). */
  minChars?: number;
}

export interface PruneResult {
  history: ChatMessage[];
  /** Tool outputs replaced by a placeholder. */
  pruned: number;
  charsRemoved: number;
}

/** Returns a new array; the input and its messages are left untouched. */
export function pruneToolOutputs(history: readonly ChatMessage[], options: PruneOptions): PruneResult {
  if (!Number.isInteger(options.keepLastN) || options.keepLastN < 0) {
    throw new HearthError('usage', `keepLastN must be a whole number of messages (0 or more), got ${options.keepLastN}.`);
  }
  const minChars = options.minChars ?? PRUNE_MIN_CHARS;
  const calls = new Map<string, ToolCall>();
  for (const message of history) {
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) calls.set(call.id, call);
  }
  const cutoff = history.length - options.keepLastN;
  let pruned = 0;
  let charsRemoved = 0;
  const out = history.map((message, index): ChatMessage => {
    if (index >= cutoff || message.role !== 'tool' || message.content.length <= minChars) return message;
    if (isProtectedMessage(message) || message.content.startsWith(PRUNED_PREFIX)) return message;
    const placeholder = prunePlaceholder(message, calls.get(message.toolCallId));
    pruned += 1;
    charsRemoved += message.content.length - placeholder.length;
    return { ...message, content: placeholder };
  });
  return { history: out, pruned, charsRemoved };
}

export function isPrunedOutput(message: ChatMessage): boolean {
  return message.role === 'tool' && message.content.startsWith(PRUNED_PREFIX);
}

function prunePlaceholder(result: Extract<ChatMessage, { role: 'tool' }>, call: ToolCall | undefined): string {
  const args = call === undefined ? '' : `(${preview(call.arguments)})`;
  const lines = result.content.split('\n').length;
  return (
    `${PRUNED_PREFIX} ${result.toolName}${args} returned ${result.content.length.toLocaleString('en-US')} characters ` +
    `(${lines.toLocaleString('en-US')} lines). The full output is kept in the session history: use session_search / scroll to see it, or run the tool again.]`
  );
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= ARGUMENTS_PREVIEW_CHARS ? flat : `${flat.slice(0, ARGUMENTS_PREVIEW_CHARS - 1)}…`;
}
