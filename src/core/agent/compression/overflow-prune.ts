import type { ChatMessage } from '../../llm/types.js';
import { planCompression } from './plan.js';
import { isSummaryMessage, SUMMARY_MARKER, summaryBody } from './summary-message.js';
import { messageTokens } from './token-estimate.js';

/**
 * The last resort when the provider rejects the prompt as too long and no summary could be made:
 * the oldest turns leave the model's view, whole (the compression plan's units keep every tool call
 * with its results), until the rest fits the budget. Nothing is deleted: the caller continues in a
 * child session, so the parent keeps every message and session_search still finds them. What was left
 * out is said twice: in a note at the start of the new context (for the model) and to the user.
 */

/** Opens the note that stands in for the left-out turns when there was no earlier summary to carry. */
export const LEFT_OUT_MARKER = '[Hearth left out';

/** Characters of a left-out message quoted to say which part of the conversation went. */
const QUOTE_CHARS = 60;

export interface LeftOut {
  /** Messages left out of the model's view (kept in the store). */
  messages: number;
  /** Of those, messages the user typed (not tool results, answers or Hearth's own notes). */
  userMessages: number;
  /** The first words of the first and last left-out user message ('' when there was none). */
  first: string;
  last: string;
}

export interface OverflowPrune {
  /** The note, then the kept turns in order. */
  history: ChatMessage[];
  /** The left-out messages, in order. */
  dropped: ChatMessage[];
  leftOut: LeftOut;
}

/**
 * Drops the oldest whole turns of `history` until the kept part costs at most `budgetTokens`; the
 * latest unit (the work in progress) always stays. An earlier summary among the dropped messages is
 * carried in the note, so what earlier compressions saved is not lost with it. Null when nothing can
 * be dropped (the latest unit alone is all there is).
 */
export function pruneOldestTurns(history: readonly ChatMessage[], budgetTokens: number): OverflowPrune | null {
  const plan = (budget: number) => planCompression(history, { protectFirstN: 0, protectLastN: 1, tailTokenBudget: Math.max(0, budget) });
  let { middle: dropped, tail: kept } = plan(budgetTokens);
  if (dropped.length === 0) return null;
  const summary = dropped.filter(isSummaryMessage).map(summaryBody).filter((b) => b !== '').at(-1);
  if (summary !== undefined) ({ middle: dropped, tail: kept } = plan(budgetTokens - messageTokens({ role: 'user', content: summary })));
  const leftOut = describe(dropped);
  return { history: [leftOutNote(leftOut, summary), ...kept], dropped, leftOut };
}

/** The same facts as the note, for the user. */
export function leftOutNotice(leftOut: LeftOut, modelId: string): string {
  return (
    `The conversation no longer fit the context window of ${modelId} and could not be summarised, so Hearth left the oldest ` +
    `${plural(leftOut.messages, 'message')} out of the model's view${span(leftOut, 'your')}. Nothing was deleted: they stay in the ` +
    'session history (the earlier session of this conversation), where session_search and the session list find them.'
  );
}

function leftOutNote(leftOut: LeftOut, summary: string | undefined): Extract<ChatMessage, { role: 'user' }> {
  const what =
    `${plural(leftOut.messages, 'earlier message')}${span(leftOut, 'the user\'s')} because the conversation no longer fit the context window ` +
    'and could not be summarised. They are still in the session history: session_search can find them. Continue the work from here.]';
  // Hearth's words in a user-role message: never read as the user's.
  if (summary === undefined) return { role: 'user', content: `${LEFT_OUT_MARKER} ${what}`, origin: 'hearth' };
  // Still a summary message (same marker), so the next compression updates it instead of summarising it.
  return { role: 'user', content: `${SUMMARY_MARKER} from before a gap: Hearth then left out ${what}\n\n${summary}`, origin: 'hearth' };
}

function describe(dropped: readonly ChatMessage[]): LeftOut {
  const typed = dropped.filter((m) => m.role === 'user' && m.origin !== 'hearth' && !isSummaryMessage(m) && !m.content.startsWith(LEFT_OUT_MARKER));
  return { messages: dropped.length, userMessages: typed.length, first: quote(typed[0]), last: quote(typed.at(-1)) };
}

function span(leftOut: LeftOut, whose: string): string {
  if (leftOut.userMessages === 0) return '';
  const range = leftOut.userMessages === 1 ? `"${leftOut.first}"` : `from "${leftOut.first}" to "${leftOut.last}"`;
  return ` (${leftOut.userMessages.toLocaleString('en-US')} of ${whose} messages among them: ${range})`;
}

function quote(message: ChatMessage | undefined): string {
  if (message === undefined) return '';
  const flat = message.content.replace(/\s+/g, ' ').trim();
  return flat.length <= QUOTE_CHARS ? flat : `${flat.slice(0, QUOTE_CHARS - 1)}…`;
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}
