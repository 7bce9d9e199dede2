import { HearthError } from '../errors.js';
import type { Db } from '../store/database.js';

export type PendingKind = 'memory' | 'skill' | 'user_model';

export interface PendingWrite {
  id: number;
  kind: PendingKind;
  sessionId: string | null;
  /** The tool arguments the write would have run with. */
  payload: unknown;
  /** One line for the user: "memory add (user): Prefers tabs". */
  summary: string;
  createdAt: number;
}

interface Row {
  id: number;
  kind: PendingKind;
  session_id: string | null;
  payload: string;
  summary: string;
  created_at: number;
}

/**
 * Memory and skill writes staged for the user's approval (`memory.write_approval`,
 * `skills.write_approval`): the agent's tool call is recorded instead of applied, and applying it
 * later runs the very same operation. Guards against the self-modification chain users reported
 * (PARITY §20, hermes-agent#84293) when the user wants every change to pass by them.
 */
export class PendingWrites {
  private readonly statements;

  constructor(db: Db) {
    this.statements = {
      insert: db.prepare<[string, string | null, string, string, number], { id: number }>(
        'INSERT INTO pending_writes (kind, session_id, payload, summary, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
      ),
      list: db.prepare<[], Row>('SELECT id, kind, session_id, payload, summary, created_at FROM pending_writes ORDER BY id'),
      get: db.prepare<[number], Row>('SELECT id, kind, session_id, payload, summary, created_at FROM pending_writes WHERE id = ?'),
      remove: db.prepare<[number]>('DELETE FROM pending_writes WHERE id = ?'),
    };
  }

  stage(input: { kind: PendingKind; sessionId: string | null; payload: unknown; summary: string }): PendingWrite {
    const createdAt = Date.now();
    const row = this.statements.insert.get(input.kind, input.sessionId, JSON.stringify(input.payload), input.summary, createdAt);
    if (row === undefined) throw new HearthError('db_io', 'Staging the write returned no id.');
    return { id: row.id, kind: input.kind, sessionId: input.sessionId, payload: input.payload, summary: input.summary, createdAt };
  }

  list(): PendingWrite[] {
    return this.statements.list.all().map(toPending);
  }

  /**
   * Applies a staged write with `apply` and removes it only when that succeeded, so a write that now
   * fails (the memory filled up meanwhile) stays staged and the error reaches the user.
   */
  async approve(id: number, apply: (write: PendingWrite) => Promise<void> | void): Promise<PendingWrite> {
    const write = this.get(id);
    await apply(write);
    this.statements.remove.run(id);
    return write;
  }

  reject(id: number): PendingWrite {
    const write = this.get(id);
    this.statements.remove.run(id);
    return write;
  }

  private get(id: number): PendingWrite {
    const row = this.statements.get.get(id);
    if (row === undefined) throw new HearthError('usage', `No staged write with id ${id}. \`hearth pending list\` shows them.`);
    return toPending(row);
  }
}

function toPending(row: Row): PendingWrite {
  return { id: row.id, kind: row.kind, sessionId: row.session_id, payload: JSON.parse(row.payload) as unknown, summary: row.summary, createdAt: row.created_at };
}
