import type { ChatMessage } from '../../llm/types.js';

/**
 * The user-role message that stands in for the summarised middle of a conversation. It opens with a
 * fixed marker so the model reads it as a recap (not as something the user just typed), and so the
 * next compression can find it and update it instead of summarising a summary.
 */

export const SUMMARY_MARKER = '[Summary of earlier conversation';

export function summaryMessage(summary: string, summarizedMessages: number): Extract<ChatMessage, { role: 'user' }> {
  const header =
    `${SUMMARY_MARKER}: ${summarizedMessages} earlier message${summarizedMessages === 1 ? ' was' : 's were'} condensed by Hearth to fit the context window. ` +
    'The original messages are still in the session history (session_search can find them). Continue the work from here.]';
  return { role: 'user', content: `${header}\n\n${summary.trim()}` };
}

export function isSummaryMessage(message: ChatMessage): boolean {
  return message.role === 'user' && message.content.startsWith(SUMMARY_MARKER);
}

/** The summary body of a summary message (without the marker line). */
export function summaryBody(message: ChatMessage): string {
  const newline = message.content.indexOf('\n');
  return newline === -1 ? '' : message.content.slice(newline + 1).trim();
}
