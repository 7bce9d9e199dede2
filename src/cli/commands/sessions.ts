import { resolveHome } from '../../core/config/home.js';
import { HearthError } from '../../core/errors.js';
import { renderSearchResult } from '../../core/search/render-results.js';
import { SEARCH_LIMITS, SessionSearch } from '../../core/search/session-search.js';
import { openStore } from '../../core/store/open-store.js';
import type { SessionRecord, StoredMessage } from '../../core/store/types.js';
import { parseCommandArgs } from '../args.js';
import type { CliIO } from '../io.js';

export const sessionsHelp = `Usage:
  hearth sessions list [--limit N] [--json]      recent sessions, newest first
  hearth sessions show <id> [--json]             one session's messages
  hearth sessions search "<query>" [--limit N] [--json]   ranked search over every session (what session_search shows the agent)`;

export async function sessionsCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('sessions', argv, { json: { type: 'boolean' }, limit: { type: 'string' } });
  if (values.help) {
    io.out(`${sessionsHelp}\n`);
    return 0;
  }
  const [action, arg] = positionals;
  const limit = parseLimit(values.limit);
  const json = values.json === true;
  // The store alone, not the light composition: reading config.yaml (yaml, the schema) would cost this command
  // about 45 ms of start-up for nothing it uses (bench/cli-startup.ts).
  const store = openStore(resolveHome(io.env), { env: io.env });
  try {
    switch (action) {
      case 'list': {
        const sessions = store.listSessions({ limit: limit ?? 20 });
        if (json) io.out(`${JSON.stringify(sessions)}\n`);
        else io.out(sessions.length ? sessions.map(formatSessionLine).join('\n') + '\n' : 'No sessions yet.\n');
        return 0;
      }
      case 'show': {
        if (!arg) throw new HearthError('usage', 'hearth sessions show needs a session id (see `hearth sessions list`).');
        const session = store.getSession(arg);
        if (!session) throw new HearthError('session_not_found', `No session with id ${arg}. List them with \`hearth sessions list\`.`);
        const messages = store.getMessages(arg);
        if (json) io.out(`${JSON.stringify({ session, messages })}\n`);
        else io.out(`${formatSessionLine(session)}\n\n${messages.map(formatMessage).join('\n\n')}\n`);
        return 0;
      }
      case 'search': {
        if (!arg?.trim()) throw new HearthError('usage', 'hearth sessions search needs a query, e.g. hearth sessions search "docker compose"');
        // The same ranking and result shape the session_search tool gives the model.
        const result = await new SessionSearch(store).discover(arg, Math.min(limit ?? SEARCH_LIMITS.defaultHits, SEARCH_LIMITS.maxHits));
        if (json) io.out(`${JSON.stringify(result.hits)}\n`);
        else io.out(result.hits.length ? `${renderSearchResult(result)}\n` : 'No matches.\n');
        return 0;
      }
      default:
        throw new HearthError('usage', `Unknown sessions action "${action ?? ''}".\n${sessionsHelp}`);
    }
  } finally {
    store.close();
  }
}

function parseLimit(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0) throw new HearthError('usage', `--limit must be a positive integer (got "${text}").`);
  return n;
}

function formatSessionLine(s: SessionRecord): string {
  const when = new Date(s.updatedAt).toISOString().replace('T', ' ').slice(0, 16);
  const failed = s.lastError === null ? '' : `  [failed: ${s.lastError.replace(/\s+/g, ' ').slice(0, 80)}]`;
  return `${s.id}  ${when}  ${s.source.padEnd(7)} ${String(s.messageCount).padStart(4)} msgs  ${s.model}${s.title ? `  "${s.title}"` : ''}${failed}`;
}

function formatMessage(m: StoredMessage): string {
  const calls = m.toolCalls?.map((c) => `  → ${c.name}(${c.arguments})`).join('\n');
  // A tool row says how the call ended (denied, timed out, failed…), so a refused command never reads as if it ran.
  const outcome = m.outcome === null ? '' : ` ${m.outcome.status.replace('_', ' ')}${m.outcome.note === undefined ? '' : ` [approval: ${m.outcome.note}]`}`;
  const head = m.role === 'tool' ? `[tool ${m.toolName ?? ''}${outcome}]` : `[${m.role}]`;
  return [head, m.content, calls].filter(Boolean).join('\n');
}
