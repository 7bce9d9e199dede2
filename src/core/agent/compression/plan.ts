import { HearthError } from '../../errors.js';
import type { ChatMessage } from '../../llm/types.js';
import { isProtectedMessage } from './protected-content.js';
import { isSummaryMessage } from './summary-message.js';
import { messageTokens } from './token-estimate.js';

/**
 * Where to cut a conversation for compression: a protected head (how it started), a protected tail
 * (the work in progress), and the middle that gets summarised.
 *
 * Cuts fall only between "units": a plain message, or an assistant message that calls tools together
 * with the tool results that follow it. Providers reject a tool result whose call is gone and a call
 * without its result, so a pair is never split: a boundary that would land inside one moves to the
 * end of it (head) or to its start (tail).
 */

export interface PlanOptions {
  /** Messages at the start kept verbatim (extended to the end of a tool-call unit). */
  protectFirstN: number;
  /** Messages at the end always kept verbatim, whatever they cost. */
  protectLastN: number;
  /** Beyond protectLastN, the tail keeps growing backwards while it stays within this many tokens. */
  tailTokenBudget: number;
  /** Token cost of one message (default: the reference-tokenizer estimate). */
  count?: (message: ChatMessage) => number;
}

export interface CompressionPlan {
  head: ChatMessage[];
  /** Everything between head and tail, in order: what the summary replaces. */
  middle: ChatMessage[];
  /**
   * Protected messages of the middle (activated skill content), to re-insert verbatim after the
   * summary. A skill_view result comes with an assistant message that carries only its call, so the
   * pair stays valid without dragging the other calls of that step along.
   */
  carried: ChatMessage[];
  tail: ChatMessage[];
  /** Index of the first middle message (= head length). */
  headEnd: number;
  /** Index of the first tail message. */
  tailStart: number;
}

interface Unit {
  start: number;
  /** Exclusive. */
  end: number;
}

export function planCompression(history: readonly ChatMessage[], options: PlanOptions): CompressionPlan {
  for (const key of ['protectFirstN', 'protectLastN', 'tailTokenBudget'] as const) {
    const value = options[key];
    if (!Number.isFinite(value) || value < 0) throw new HearthError('usage', `${key} must be 0 or more, got ${value}.`);
  }
  const count = options.count ?? messageTokens;
  const units = toUnits(history);

  // Head: the first protectFirstN messages, rounded up to whole units. An earlier summary never joins
  // the head: it is updated by the next summary, not kept beside it.
  let headUnits = 0;
  let headEnd = 0;
  const takeHeadUnit = (): boolean => {
    const unit = units[headUnits];
    if (unit === undefined || isSummaryMessage(history[unit.start] as ChatMessage)) return false;
    headEnd = unit.end;
    headUnits += 1;
    return true;
  };
  while (headEnd < options.protectFirstN && takeHeadUnit());
  // The summary is a user message; a head ending on a user message would put two in a row, and the
  // answer to that message belongs with it anyway.
  while (headEnd > 0 && history[headEnd - 1]?.role === 'user' && takeHeadUnit());

  // Tail: whole units from the end, at least protectLastN messages, then as many as the budget allows.
  let tailStart = history.length;
  let tailTokens = 0;
  for (let u = units.length - 1; u >= headUnits; u--) {
    const unit = units[u] as Unit;
    let cost = 0;
    for (let i = unit.start; i < unit.end; i++) cost += count(history[i] as ChatMessage);
    const kept = history.length - tailStart;
    if (kept > 0 && kept >= options.protectLastN && tailTokens + cost > options.tailTokenBudget) break;
    tailStart = unit.start;
    tailTokens += cost;
  }

  const middle = history.slice(headEnd, tailStart);
  const head = history.slice(0, headEnd);
  const tail = history.slice(tailStart);
  return {
    head,
    middle,
    carried: carriedMessages(middle, new Set([...head, ...tail].filter(isProtectedMessage).map((m) => m.content))),
    tail,
    headEnd,
    tailStart,
  };
}

/** Splits history into units that must stay together (tool results attach to the unit before them). */
function toUnits(history: readonly ChatMessage[]): Unit[] {
  const units: Unit[] = [];
  for (let i = 0; i < history.length; i++) {
    const last = units.at(-1);
    if (history[i]?.role === 'tool' && last !== undefined) last.end = i + 1;
    else units.push({ start: i, end: i + 1 });
  }
  return units;
}

/**
 * The protected messages of the middle. A skill loaded several times is carried once (its latest
 * copy), and not at all when the head or tail already holds the same text.
 */
function carriedMessages(middle: readonly ChatMessage[], keptElsewhere: ReadonlySet<string>): ChatMessage[] {
  const lastCopy = new Map<string, number>();
  middle.forEach((m, i) => {
    if (isProtectedMessage(m)) lastCopy.set(m.content, i);
  });
  const wanted = (m: ChatMessage, i: number) => isProtectedMessage(m) && lastCopy.get(m.content) === i && !keptElsewhere.has(m.content);
  const carried: ChatMessage[] = [];
  for (let i = 0; i < middle.length; i++) {
    const message = middle[i] as ChatMessage;
    if (message.role === 'user' && wanted(message, i)) carried.push(message);
    if (message.role !== 'assistant' || !message.toolCalls?.length) continue;
    const callIds = new Set(message.toolCalls.map((c) => c.id));
    const results: Extract<ChatMessage, { role: 'tool' }>[] = [];
    for (let j = i + 1; j < middle.length && middle[j]?.role === 'tool'; j++) {
      const result = middle[j] as Extract<ChatMessage, { role: 'tool' }>;
      if (wanted(result, j) && callIds.has(result.toolCallId)) results.push(result);
    }
    if (results.length === 0) continue;
    const ids = new Set(results.map((r) => r.toolCallId));
    carried.push({ role: 'assistant', content: '', toolCalls: message.toolCalls.filter((c) => ids.has(c.id)) }, ...results);
  }
  return carried;
}
