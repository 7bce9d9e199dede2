import { countOf } from '../../shared/plural.js';
import type { DiscoveryHit, MessageLine, SessionInfo, SessionSearchResult } from './session-search.js';

/**
 * Session-search results as compact text for a model's context. Bounded: each message is cut to a
 * line budget, and the whole answer to MAX_RESULT_CHARS, with a note saying how to see what was cut
 * (a smaller limit, or scrolling around a message).
 */
export const MAX_RESULT_CHARS = 8_000;
const MESSAGE_CHARS = { hit: 400, context: 200, bookend: 160 } as const;

export function renderSearchResult(result: SessionSearchResult): string {
  switch (result.kind) {
    case 'discovery':
      return bound(renderDiscovery(result.query, result.hits));
    case 'scroll':
      return bound(renderScroll(result.session, result.aroundMessageId, result.messages));
    case 'browse':
      return bound(renderBrowse(result.sessions));
  }
}

function renderDiscovery(query: string, hits: DiscoveryHit[]): string {
  if (hits.length === 0) return `No past messages match ${JSON.stringify(query)}. Try other words, or call with no arguments to list recent sessions.`;
  const parts = [`${countOf(hits.length, 'match', 'matches')} for ${JSON.stringify(query)}, best first. Message ids are #n.`];
  hits.forEach((hit, index) => {
    const lines = [`\n## ${index + 1}. ${sessionHeading(hit.session)}`];
    if (hit.bookends.first.length > 0) lines.push('start:', ...hit.bookends.first.map((line) => messageLine(line, MESSAGE_CHARS.bookend)));
    lines.push('match:', ...hit.window.map((line) => messageLine(line, line.id === hit.messageId ? MESSAGE_CHARS.hit : MESSAGE_CHARS.context, line.id === hit.messageId)));
    if (hit.bookends.last.length > 0) lines.push('end:', ...hit.bookends.last.map((line) => messageLine(line, MESSAGE_CHARS.bookend)));
    parts.push(lines.join('\n'));
  });
  parts.push('\nRead more of a session: session_search with session_id and around_message_id.');
  return parts.join('\n');
}

function renderScroll(session: SessionInfo, aroundMessageId: number, messages: MessageLine[]): string {
  const lines = messages.map((line) => messageLine(line, MESSAGE_CHARS.hit, line.id === aroundMessageId));
  const first = messages[0]?.id;
  const last = messages.at(-1)?.id;
  return [`${sessionHeading(session)}`, `messages #${first}–#${last} around #${aroundMessageId}:`, ...lines].join('\n');
}

function renderBrowse(sessions: (SessionInfo & { preview: string | null })[]): string {
  if (sessions.length === 0) return 'No past sessions yet.';
  const lines = sessions.map((session) => {
    const preview = session.preview === null ? '' : ` — ${oneLine(session.preview, 100)}`;
    return `- ${sessionHeading(session)}${preview}`;
  });
  return [`${countOf(sessions.length, 'most recent session', 'most recent sessions')}:`, ...lines, 'Search them with session_search {query}.'].join('\n');
}

function sessionHeading(session: SessionInfo): string {
  const title = session.title ? `"${oneLine(session.title, 80)}"` : '(untitled)';
  return `${title} · session ${session.id} · ${formatDate(session.startedAt)} · ${countOf(session.messageCount, 'message', 'messages')}`;
}

function messageLine(line: MessageLine, chars: number, marked = false): string {
  return `${marked ? '>' : ' '} #${line.id} ${formatDate(line.createdAt)} ${line.role}: ${oneLine(line.content, chars)}`;
}

/** Whitespace collapsed, cut at `chars` with an ellipsis. */
function oneLine(text: string, chars: number): string {
  const flat = text.replace(/\s+/gu, ' ').trim();
  if (flat.length === 0) return '(no text)';
  return flat.length <= chars ? flat : `${flat.slice(0, chars - 1)}…`;
}

/** `2025-01-31 14:25`, local time: what a user would say when asking "what did we do on the 31st". */
function formatDate(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function bound(text: string): string {
  if (text.length <= MAX_RESULT_CHARS) return text;
  const note = '\n[… cut to fit: ask for fewer results (limit), or scroll around one message for more.]';
  return text.slice(0, MAX_RESULT_CHARS - note.length) + note;
}
