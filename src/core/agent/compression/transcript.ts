import { countReferenceTokens } from '../../llm/token-count.js';
import type { ChatMessage } from '../../llm/types.js';
import { isProtectedMessage } from './protected-content.js';
import { isPrunedOutput } from './prune.js';
import { isSummaryMessage } from './summary-message.js';

/**
 * The middle of a conversation rendered as plain text for the summarising call. It goes into one
 * user message, so the request has no tool calls to pair up; long tool results and arguments are
 * abbreviated (the summary needs what happened, not every byte a tool printed).
 */

const TOOL_RESULT_CHARS = 600;
const ARGUMENT_CHARS = 240;
const MESSAGE_CHARS = 6_000;
/** A rendering that is over budget shrinks by at most this many rounds before it is cut hard. */
const SHRINK_ROUNDS = 6;

/** One line-group per message; an earlier summary is left out (it is sent as the summary to update). */
export function renderEntry(message: ChatMessage, charLimit = MESSAGE_CHARS): string {
  switch (message.role) {
    case 'system':
      return `SYSTEM: ${abbreviate(message.content, charLimit)}`;
    case 'user':
      if (isSummaryMessage(message)) return '';
      if (isProtectedMessage(message)) return `USER: [activated a skill; its content is kept verbatim after this summary] ${abbreviate(message.content, 160)}`;
      return `USER: ${abbreviate(message.content, charLimit)}`;
    case 'assistant': {
      const lines = message.content.trim() === '' ? [] : [`ASSISTANT: ${abbreviate(message.content, charLimit)}`];
      for (const call of message.toolCalls ?? []) lines.push(`ASSISTANT called ${call.name}(${abbreviate(call.arguments, Math.min(ARGUMENT_CHARS, charLimit))})`);
      return lines.join('\n');
    }
    case 'tool': {
      const label = `TOOL RESULT (${message.toolName})`;
      if (isProtectedMessage(message)) return `${label}: [skill content, kept verbatim after this summary]`;
      if (isPrunedOutput(message)) return `${label}: ${message.content}`;
      return `${label}: ${abbreviate(message.content, Math.min(TOOL_RESULT_CHARS, charLimit))}`;
    }
  }
}

/** The transcript of `messages`, shrunk until it fits `maxTokens` (reference tokenizer). */
export function renderTranscript(messages: readonly ChatMessage[], maxTokens = Number.POSITIVE_INFINITY): string {
  let charLimit = MESSAGE_CHARS;
  let text = join(messages, charLimit);
  for (let round = 0; round < SHRINK_ROUNDS && countReferenceTokens(text) > maxTokens; round++) {
    charLimit = Math.max(80, Math.floor(charLimit / 2));
    text = join(messages, charLimit);
  }
  const tokens = countReferenceTokens(text);
  // Still over (many messages at the smallest size): keep the start and the end, which carry the goal and the latest state.
  return tokens > maxTokens ? abbreviate(text, Math.floor((text.length * maxTokens) / tokens / 1.1)) : text;
}

/**
 * Splits `messages` into consecutive groups whose transcripts each fit `maxTokens`, so a middle larger
 * than a small model's whole context can still be summarised, one group at a time.
 */
export function chunkForTranscript(messages: readonly ChatMessage[], maxTokens: number): ChatMessage[][] {
  const chunks: ChatMessage[][] = [];
  let current: ChatMessage[] = [];
  let used = 0;
  for (const message of messages) {
    const cost = countReferenceTokens(renderEntry(message)) + 2;
    if (current.length > 0 && used + cost > maxTokens) {
      chunks.push(current);
      current = [];
      used = 0;
    }
    current.push(message);
    used += cost;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

function join(messages: readonly ChatMessage[], charLimit: number): string {
  return messages
    .map((m) => renderEntry(m, charLimit))
    .filter((entry) => entry !== '')
    .join('\n\n');
}

/** Head and tail of `text` within `limit` characters, saying how much was left out. */
export function abbreviate(text: string, limit: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= limit) return trimmed;
  const head = trimmed.slice(0, Math.floor(limit * 0.7));
  const tail = trimmed.slice(trimmed.length - Math.floor(limit * 0.2));
  return `${head} […${trimmed.length - head.length - tail.length} chars omitted…] ${tail}`;
}
