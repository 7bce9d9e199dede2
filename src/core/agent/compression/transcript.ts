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
/** A message shortened to fit the budget keeps at least this much of its text. */
const MIN_MESSAGE_CHARS = 80;
/** Estimated cuts are checked against the real count this many times before the transcript is cut hard. */
const FIT_ROUNDS = 4;

/**
 * What a transcript left out of the user's and the model's own words to fit the summary request
 * (tool output abbreviation is by design and not counted: the summary needs what a tool did, not its bytes).
 */
export interface TranscriptCuts {
  /** Messages whose text was shortened (their middle left out). */
  messages: number;
  /** Characters of message text left out, including any hard cut of the whole transcript. */
  charsOmitted: number;
}

export interface Transcript {
  text: string;
  cuts: TranscriptCuts;
}

export const NO_CUTS: TranscriptCuts = Object.freeze({ messages: 0, charsOmitted: 0 });

/**
 * One line-group per message; an earlier summary is left out (it is sent as the summary to update).
 * User and assistant text is capped at `charLimit` (default: whole), tool output and arguments always.
 */
export function renderEntry(message: ChatMessage, charLimit = Number.POSITIVE_INFINITY): string {
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

/**
 * The transcript of `messages` within `maxTokens` (reference tokenizer). Messages are sent whole
 * when they fit; otherwise one character cap is applied to the longest texts only, the largest cap
 * that fits, so a long message loses only as much of its middle as the budget demands (a fixed
 * 6,000-character cap used to cut messages even when the summariser had room for them). What was
 * cut is returned, so the user can be told and the summary can say so.
 */
export function renderTranscript(messages: readonly ChatMessage[], maxTokens = Number.POSITIVE_INFINITY): Transcript {
  const entries = messages.filter((m) => renderEntry(m) !== '');
  const whole = join(entries, Number.POSITIVE_INFINITY);
  const wholeTokens = countReferenceTokens(whole);
  if (wholeTokens <= maxTokens) return { text: whole, cuts: NO_CUTS };

  const texts = entries.map(cuttableText);
  const textTokens = texts.map((t) => (t === '' ? 0 : countReferenceTokens(t)));
  const fixedTokens = wholeTokens - textTokens.reduce((a, b) => a + b, 0);
  const longest = Math.max(MIN_MESSAGE_CHARS, ...texts.map((t) => t.length));
  // Tokens of the text part under a cap, assuming a message's tokens are spread evenly over its characters.
  const estimate = (cap: number) => fixedTokens + texts.reduce((sum, t, i) => sum + (t.length <= cap ? textTokens[i]! : (textTokens[i]! * cap) / t.length), 0);

  let target = maxTokens;
  let text = whole;
  let cap = longest;
  for (let round = 0; round < FIT_ROUNDS; round++) {
    cap = largestCap(estimate, target, MIN_MESSAGE_CHARS, longest);
    text = join(entries, cap);
    const tokens = countReferenceTokens(text);
    if (tokens <= maxTokens) return { text, cuts: cutsAt(texts, cap, 0) };
    if (cap <= MIN_MESSAGE_CHARS) break;
    target = Math.floor((target * maxTokens) / tokens) - 1;
  }
  // Still over (many messages at the smallest size): keep the start and the end, which carry the goal and the latest state.
  const tokens = countReferenceTokens(text);
  const hardCut = abbreviate(text, Math.floor((text.length * maxTokens) / tokens / 1.1));
  return { text: hardCut, cuts: cutsAt(texts, cap, Math.max(0, text.length - hardCut.length)) };
}

/** Adds the cuts of several transcripts (one per summary call). */
export function addCuts(a: TranscriptCuts, b: TranscriptCuts): TranscriptCuts {
  return { messages: a.messages + b.messages, charsOmitted: a.charsOmitted + b.charsOmitted };
}

/** The text `renderEntry` caps by `charLimit` (user and assistant words); '' for entries it never cuts. */
function cuttableText(message: ChatMessage): string {
  if (message.role === 'tool' || (message.role === 'user' && isProtectedMessage(message))) return '';
  return message.content.trim();
}

/** Binary search for the largest character cap whose estimated transcript fits `target` tokens. */
function largestCap(estimate: (cap: number) => number, target: number, low: number, high: number): number {
  if (estimate(high) <= target) return high;
  let lo = low;
  let hi = high;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (estimate(mid) <= target) lo = mid;
    else hi = mid;
  }
  return lo;
}

function cutsAt(texts: readonly string[], cap: number, extraChars: number): TranscriptCuts {
  let messages = 0;
  let charsOmitted = extraChars;
  for (const t of texts) {
    if (t.length <= cap) continue;
    messages += 1;
    charsOmitted += t.length - keptChars(cap);
  }
  return { messages, charsOmitted };
}

/** Characters of a message's own text `abbreviate` keeps under `limit` (head 70 %, tail 20 %). */
function keptChars(limit: number): number {
  return Math.floor(limit * 0.7) + Math.floor(limit * 0.2);
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
