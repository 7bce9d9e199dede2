import type { ChatMessage } from '../../llm/types.js';
import type { TranscriptCuts } from './transcript.js';

/**
 * The user-role message that stands in for the summarised middle of a conversation. It opens with a
 * fixed marker so the model reads it as a recap (not as something the user just typed), and so the
 * next compression can find it and update it instead of summarising a summary.
 */

export const SUMMARY_MARKER = '[Summary of earlier conversation';

/**
 * `shortened`: long messages whose middle the summary request left out (the budget had no room for
 * them whole); the header says so, so the model knows the summary may lack their detail and where to find it.
 */
export function summaryMessage(summary: string, summarizedMessages: number, shortened: TranscriptCuts = { messages: 0, charsOmitted: 0 }): Extract<ChatMessage, { role: 'user' }> {
  const cut =
    shortened.messages === 0
      ? ''
      : `Before summarising, ${shortened.messages} long message${shortened.messages === 1 ? ' was' : 's were'} shortened to fit the summary request ` +
        `(${shortened.charsOmitted.toLocaleString('en-US')} characters of ${shortened.messages === 1 ? 'its' : 'their'} middle left out), so this summary may lack that detail. `;
  const header =
    `${SUMMARY_MARKER}: ${summarizedMessages} earlier message${summarizedMessages === 1 ? ' was' : 's were'} condensed by Hearth to fit the context window. ` +
    cut +
    'The original messages are still in the session history (session_search can find them). Continue the work from here.]';
  // Hearth's words in a user-role message: stored as such, so the learning loop never reads them as the user's.
  return { role: 'user', content: `${header}\n\n${summary.trim()}`, origin: 'hearth' };
}

export function isSummaryMessage(message: ChatMessage): boolean {
  return message.role === 'user' && message.content.startsWith(SUMMARY_MARKER);
}

/** The summary body of a summary message (without the marker line). */
export function summaryBody(message: ChatMessage): string {
  const newline = message.content.indexOf('\n');
  return newline === -1 ? '' : message.content.slice(newline + 1).trim();
}
