import type { Db } from '../store/database.js';
import { MessageEvent, type CursorStore, type Platform } from './types.js';

/**
 * The gateway's durable state in the encrypted store (tables of store version 11): adapter cursors, the inbox that
 * de-duplicates platform messages and carries unanswered ones over a restart, and the chat → session map.
 * Every method is one statement (or one transaction) that has committed when it returns.
 */
export class GatewayStore {
  private readonly statements;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.statements = {
      getCursor: db.prepare<[string, string], { value: string }>('SELECT value FROM gateway_cursors WHERE platform = ? AND key = ?'),
      setCursor: db.prepare(
        'INSERT INTO gateway_cursors (platform, key, value, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (platform, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
      ),
      admit: db.prepare("INSERT INTO gateway_inbox (platform, message_id, state, event, received_at, updated_at) VALUES (?, ?, 'pending', ?, ?, ?) ON CONFLICT DO NOTHING"),
      setState: db.prepare<[string, number, string, string]>('UPDATE gateway_inbox SET state = ?, updated_at = ? WHERE platform = ? AND message_id = ?'),
      finish: db.prepare<[number, string, string]>("UPDATE gateway_inbox SET state = 'done', event = NULL, updated_at = ? WHERE platform = ? AND message_id = ?"),
      open: db.prepare<[], { platform: string; message_id: string; state: 'pending' | 'running'; event: string | null }>(
        "SELECT platform, message_id, state, event FROM gateway_inbox WHERE state <> 'done' ORDER BY received_at, rowid",
      ),
      prune: db.prepare<[number]>("DELETE FROM gateway_inbox WHERE state = 'done' AND updated_at < ?"),
      getSession: db.prepare<[string], { session_id: string }>('SELECT session_id FROM gateway_sessions WHERE session_key = ?'),
      setSession: db.prepare(
        'INSERT INTO gateway_sessions (session_key, session_id, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (session_key) DO UPDATE SET session_id = excluded.session_id, updated_at = excluded.updated_at',
      ),
      dropSession: db.prepare<[string]>('DELETE FROM gateway_sessions WHERE session_key = ?'),
      sessionKeys: db.prepare<[], { session_key: string }>('SELECT session_key FROM gateway_sessions ORDER BY updated_at DESC'),
    };
  }

  /** The cursor store handed to one platform's adapter. */
  cursors(platform: Platform): CursorStore {
    return {
      get: (key) => this.statements.getCursor.get(platform, key)?.value,
      set: (key, value) => void this.statements.setCursor.run(platform, key, value, this.now()),
    };
  }

  /**
   * Takes a message in. False when this platform message id was taken in before (a redelivery): the caller
   * drops it. The event is kept until `finish`, so a restart can pick the message up again.
   */
  admit(event: MessageEvent): boolean {
    const now = this.now();
    return this.statements.admit.run(event.platform, event.messageId, JSON.stringify(event), now, now).changes === 1;
  }

  /** The message's turn has started: after a restart it is reported as cut off, not run a second time. */
  markRunning(event: Pick<MessageEvent, 'platform' | 'messageId'>): void {
    this.statements.setState.run('running', this.now(), event.platform, event.messageId);
  }

  finish(event: Pick<MessageEvent, 'platform' | 'messageId'>): void {
    this.statements.finish.run(this.now(), event.platform, event.messageId);
  }

  /**
   * Messages taken in but not finished when the last gateway stopped, oldest first. A row whose event no longer
   * parses (a schema change, a damaged row) is returned as `invalid` so the caller reports and finishes it.
   */
  unfinished(): ({ state: 'pending' | 'running'; event: MessageEvent } | { state: 'invalid'; platform: string; messageId: string; reason: string })[] {
    return this.statements.open.all().map((row) => {
      const parsed = row.event === null ? null : MessageEvent.safeParse(safeJson(row.event));
      if (parsed === null || !parsed.success) {
        return { state: 'invalid' as const, platform: row.platform, messageId: row.message_id, reason: parsed === null ? 'no event stored' : parsed.error.message };
      }
      return { state: row.state, event: parsed.data };
    });
  }

  /** Forgets the ids of messages finished before `before` (epoch ms): platforms do not redeliver that late. */
  pruneFinished(before: number): number {
    return this.statements.prune.run(before).changes;
  }

  sessionFor(sessionKey: string): string | undefined {
    return this.statements.getSession.get(sessionKey)?.session_id;
  }

  setSession(sessionKey: string, sessionId: string): void {
    const now = this.now();
    this.statements.setSession.run(sessionKey, sessionId, now, now);
  }

  dropSession(sessionKey: string): void {
    this.statements.dropSession.run(sessionKey);
  }

  /** Every chat session key the gateway has, most recently used first. */
  sessionKeys(): string[] {
    return this.statements.sessionKeys.all().map((r) => r.session_key);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    return { unparsable: String(err) };
  }
}
