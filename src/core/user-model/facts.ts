import { z } from 'zod';
import { HearthError, errorMessage } from '../errors.js';
import type { Db } from '../store/database.js';
import { LearningState } from '../store/learning-state.js';

export const FACT_CATEGORIES = ['preference', 'work_pattern', 'expertise', 'instruction', 'background'] as const;
export type FactCategory = (typeof FACT_CATEGORIES)[number];

/** One thing Hearth believes about the user, with the messages that show it. */
export interface UserFact {
  id: number;
  category: FactCategory;
  /** Third person, one sentence: "The user prefers tabs over spaces." */
  statement: string;
  /** 0–1: how sure the reflection is (stated outright ≈ 0.9; inferred lower; repeated evidence raises it). */
  confidence: number;
  /** `superseded` facts were contradicted by a newer one; kept for history, never rendered. */
  status: 'active' | 'superseded';
  supersededBy: number | null;
  /** `messages.id` of the user messages that support the fact. */
  evidence: number[];
  createdAt: number;
  updatedAt: number;
}

export interface NewFact {
  category: FactCategory;
  statement: string;
  confidence: number;
  evidence: number[];
}

interface FactRow {
  id: number;
  category: FactCategory;
  statement: string;
  confidence: number;
  status: UserFact['status'];
  superseded_by: number | null;
  evidence: string;
  created_at: number;
  updated_at: number;
}

const Evidence = z.array(z.number().int());
const COLUMNS = 'id, category, statement, confidence, status, superseded_by, evidence, created_at, updated_at';
const CURSOR_KEY = 'user_model.reflection_cursor';

/**
 * The user model in the encrypted database: `user_facts`, plus the reflection cursor in
 * `learning_state` (the id of the last user message a reflection pass has read).
 */
export class UserFactStore {
  private readonly statements;

  private readonly state: LearningState;

  constructor(readonly db: Db) {
    this.state = new LearningState(db);
    this.statements = {
      list: db.prepare<[], FactRow>(`SELECT ${COLUMNS} FROM user_facts ORDER BY id`),
      listByStatus: db.prepare<[string], FactRow>(`SELECT ${COLUMNS} FROM user_facts WHERE status = ? ORDER BY id`),
      get: db.prepare<[number], FactRow>(`SELECT ${COLUMNS} FROM user_facts WHERE id = ?`),
      insert: db.prepare<[string, string, number, string, number, number], FactRow>(
        `INSERT INTO user_facts (category, statement, confidence, evidence, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
      ),
      reinforce: db.prepare<[number, string, number, number], FactRow>(
        `UPDATE user_facts SET confidence = ?, evidence = ?, updated_at = ? WHERE id = ? RETURNING ${COLUMNS}`,
      ),
      supersede: db.prepare<[number, number, number]>(`UPDATE user_facts SET status = 'superseded', superseded_by = ?, updated_at = ? WHERE id = ? AND status = 'active'`),
    };
  }

  list(status: UserFact['status'] | 'all' = 'all'): UserFact[] {
    const rows = status === 'all' ? this.statements.list.all() : this.statements.listByStatus.all(status);
    return rows.map(toFact);
  }

  active(): UserFact[] {
    return this.list('active');
  }

  get(id: number): UserFact | null {
    const row = this.statements.get.get(id);
    return row ? toFact(row) : null;
  }

  insert(fact: NewFact): UserFact {
    const now = Date.now();
    return toFact(required(this.statements.insert.get(fact.category, fact.statement, fact.confidence, JSON.stringify(unique(fact.evidence)), now, now)));
  }

  /** More evidence for a fact: confidence combines as independent evidence (noisy-or), capped at 0.99. */
  reinforce(id: number, more: { confidence: number; evidence: number[] }): UserFact {
    const fact = this.get(id);
    if (!fact) throw new HearthError('db_io', `User fact ${id} does not exist.`);
    const confidence = Math.min(0.99, 1 - (1 - fact.confidence) * (1 - more.confidence));
    const evidence = unique([...fact.evidence, ...more.evidence]);
    return toFact(required(this.statements.reinforce.get(Math.max(fact.confidence, confidence), JSON.stringify(evidence), Date.now(), id)));
  }

  /** Mark an active fact contradicted by `byId`. Returns false when it was not active. */
  supersede(id: number, byId: number): boolean {
    return this.statements.supersede.run(byId, Date.now(), id).changes > 0;
  }

  /** The id of the last user message reflected on (0 before the first pass). */
  cursor(): number {
    const value = this.state.get(CURSOR_KEY);
    const n = value === undefined ? 0 : Number(value);
    if (!Number.isInteger(n) || n < 0) throw new HearthError('db_io', `learning_state ${CURSOR_KEY} holds "${value}", not a message id.`);
    return n;
  }

  setCursor(messageId: number): void {
    this.state.set(CURSOR_KEY, String(messageId));
  }

  /** Run `fn` in one IMMEDIATE transaction: a reflection's facts and its cursor commit together. */
  transaction<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn).immediate();
    } catch (err) {
      if (err instanceof HearthError) throw err;
      throw new HearthError('db_io', `Cannot update the user model: ${errorMessage(err)}`, { cause: err });
    }
  }
}

function unique(ids: readonly number[]): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}

function required(row: FactRow | undefined): FactRow {
  if (!row) throw new HearthError('db_io', 'A user-model write returned no row.');
  return row;
}

function toFact(row: FactRow): UserFact {
  const evidence = Evidence.safeParse(safeJson(row.evidence));
  if (!evidence.success) throw new HearthError('db_io', `User fact ${row.id} has unreadable evidence: ${row.evidence.slice(0, 80)}`);
  return {
    id: row.id,
    category: row.category,
    statement: row.statement,
    confidence: row.confidence,
    status: row.status,
    supersededBy: row.superseded_by,
    evidence: evidence.data,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    // Reported by the schema check in toFact, which names the fact.
    return { invalidJson: errorMessage(err) };
  }
}
