import type { RouteHandlers, RouteOutput } from '../../shared/contract.js';
import type { SessionRecord, StoredMessage } from '../store/types.js';
import type { AppContext } from './context.js';
import { AppError } from './errors.js';
import { SearchSnippets } from '../store/search-snippets.js';

export type SessionRoutes = 'sessions.list' | 'sessions.search' | 'sessions.open' | 'sessions.rename' | 'sessions.delete' | 'sessions.clearFailed' | 'sessions.branch';

type SessionSummary = RouteOutput<'sessions.list'>[number];
type DisplayMessage = RouteOutput<'sessions.open'>['messages'][number];

/** Sessions as the UI lists, searches, opens, renames, deletes and branches them. */
export function sessionHandlers(ctx: AppContext): Pick<RouteHandlers, SessionRoutes> {
  const { store, host } = ctx.engine.sessions;
  const snippets = new SearchSnippets(store.db);
  const requireSession = (id: string): SessionRecord => {
    const session = store.getSession(id);
    if (session === null) throw new AppError('not_found', `No session with id ${id}.`);
    return session;
  };
  return {
    'sessions.list': async (input) => store.listSessions({ limit: input.limit, offset: input.offset }).map(toSummary),
    'sessions.search': async (input) => {
      const titles = new Map<string, string | null>();
      const titleOf = (id: string) => {
        if (!titles.has(id)) titles.set(id, store.getSession(id)?.title ?? null);
        return titles.get(id) ?? null;
      };
      return store.search(input.query, { limit: input.limit }).map((hit) => ({
        sessionId: hit.sessionId,
        sessionTitle: titleOf(hit.sessionId),
        messageId: hit.messageId,
        role: hit.role,
        snippet: snippets.forMessage(hit.messageId, input.query),
        createdAt: hit.createdAt,
      }));
    },
    'sessions.open': async (input) => {
      const session = requireSession(input.sessionId);
      return { session: toSummary(session), messages: store.getMessages(session.id).map(toDisplayMessage) };
    },
    'sessions.rename': async (input) => {
      requireSession(input.sessionId);
      store.setTitle(input.sessionId, input.title);
      return { ok: true as const };
    },
    'sessions.delete': async (input) => {
      requireSession(input.sessionId);
      // Its turn is still writing messages; deleting underneath it would fail that turn half-way.
      if (host.isRunning(input.sessionId)) throw new AppError('conflict', 'This session is running a turn: interrupt it or wait for it to end, then delete it.');
      store.deleteSession(input.sessionId);
      return { ok: true as const };
    },
    'sessions.clearFailed': async () => {
      let deleted = 0;
      for (const session of store.listFailedWithoutReply()) {
        if (host.isRunning(session.id)) continue;
        store.deleteSession(session.id);
        deleted += 1;
      }
      return { deleted };
    },
    'sessions.branch': async (input) => {
      const parent = requireSession(input.sessionId);
      const branch = store.branchSession({
        sessionId: parent.id,
        source: ctx.source,
        ...(input.messageId === undefined ? {} : { upToMessageId: input.messageId }),
        ...(parent.title === null ? {} : { title: `${parent.title} (branch)` }),
      });
      return { sessionId: branch.id };
    },
  };
}

export function toSummary(session: SessionRecord): SessionSummary {
  return {
    id: session.id,
    title: session.title,
    source: session.source,
    model: session.model,
    parentSessionId: session.parentSessionId,
    startedAt: session.startedAt,
    updatedAt: session.updatedAt,
    messageCount: session.messageCount,
    inputTokens: session.inputTokens,
    outputTokens: session.outputTokens,
    lastError: session.lastError,
    hasReply: session.hasReply,
  };
}

export function toDisplayMessage(message: StoredMessage): DisplayMessage {
  return {
    id: message.id,
    role: message.role,
    content: message.content,
    reasoning: message.reasoning,
    toolCalls: message.toolCalls ?? [],
    toolCallId: message.toolCallId,
    toolName: message.toolName,
    outcome: message.outcome,
    createdAt: message.createdAt,
  };
}
