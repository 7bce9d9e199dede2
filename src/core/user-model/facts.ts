import { z } from 'zod';
import { HearthError, errorMessage } from '../errors.js';
import type { Db } from '../store/database.js';
import { LearningState } from '../store/learning-state.js';

export const FACT_CATEGORIES = ['preference', 'work_pattern', 'expertise', 'instruction', 'background'] as const;
export type FactCategory = (typeof FACT_CATEGORIES)[number];

/** A message a fact is drawn from: which session, which message, and the words that show it. */
export interface FactEvidence {
  messageId: number;
  /** null when the message's session was deleted before store version 7 recorded it. */
  sessionId: string | null;
  /** The start of the message as the reflection read it (whitespace collapsed); '' when unknown. */
  excerpt: string;
}

/** `superseded`: replaced by a newer fact; `rejected`: the user said it is wrong. Neither is rendered. */
export type FactStatus = 'active' | 'superseded' | 'rejected';

/** One thing Hearth believes about the user, with the messages that show it. */
export interface UserFact {
  id: number;
  category: FactCategory;
  /** Third person, one sentence: "The user prefers tabs over spaces." */
  statement: string;
  /** 0–1: how sure the reflection is (stated outright ≈ 0.9; inferred lower; repeated evidence raises it). */
  confidence: number;
  /** `superseded` facts were contradicted by a newer one, `rejected` ones by the user; kept for history, never rendered. */
  status: FactStatus;
  supersededBy: number | null;
  /** `reflection`: learned from the user's messages; `user`: written by the user (a correction). */
  source: 'reflection' | 'user';
  /** The user messages that support the fact. */
  evidence: FactEvidence[];
  createdAt: number;
  updatedAt: number;
}

export interface NewFact {
  category: FactCategory;
  statement: string;
  confidence: number;
  evidence: FactEvidence[];
  source?: UserFact['source'];
}

interface FactRow {
  id: number;
  category: FactCategory;
  statement: string;
  confidence: number;
  status: UserFact['status'];
  superseded_by: number | null;
  source: UserFact['source'];
  evidence: string;
  created_at: number;
  updated_at: number;
}

const Evidence = z.array(z.object({ message_id: z.number().int(), session_id: z.string().nullable(), excerpt: z.string() }));
const COLUMNS = 'id, category, statement, confidence, status, superseded_by, source, evidence, created_at, updated_at';
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
      insert: db.prepare<[string, string, number, string, string, number, number], FactRow>(
        `INSERT INTO user_facts (category, statement, confidence, source, evidence, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
      ),
      reinforce: db.prepare<[number, string, number, number], FactRow>(
        `UPDATE user_facts SET confidence = ?, evidence = ?, updated_at = ? WHERE id = ? RETURNING ${COLUMNS}`,
      ),
      supersede: db.prepare<[number, number, number]>(`UPDATE user_facts SET status = 'superseded', superseded_by = ?, updated_at = ? WHERE id = ? AND status = 'active'`),
      reject: db.prepare<[number, number]>(`UPDATE user_facts SET status = 'rejected', updated_at = ? WHERE id = ? AND status = 'active'`),
      unlink: db.prepare<[number]>(`UPDATE user_facts SET superseded_by = NULL WHERE superseded_by = ?`),
      remove: db.prepare<[number]>(`DELETE FROM user_facts WHERE id = ?`),
    };
  }

  list(status: FactStatus | 'all' = 'all'): UserFact[] {
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
    return toFact(required(this.statements.insert.get(fact.category, fact.statement, fact.confidence, fact.source ?? 'reflection', evidenceJson(fact.evidence), now, now)));
  }

  /** More evidence for a fact: confidence combines as independent evidence (noisy-or), capped at 0.99. */
  reinforce(id: number, more: { confidence: number; evidence: FactEvidence[] }): UserFact {
    const fact = this.get(id);
    if (!fact) throw new HearthError('db_io', `User fact ${id} does not exist.`);
    const confidence = Math.min(0.99, 1 - (1 - fact.confidence) * (1 - more.confidence));
    return toFact(required(this.statements.reinforce.get(Math.max(fact.confidence, confidence), evidenceJson([...fact.evidence, ...more.evidence]), Date.now(), id)));
  }

  /**
   * The user's own wording replaces a fact: a new active fact (source `user`, same category unless given,
   * the old fact's evidence kept) supersedes the old one, which stays in the history. Works on a fact of
   * any status, so a wrongly rejected fact can be restated.
   */
  correct(id: number, statement: string, options: { category?: FactCategory } = {}): UserFact {
    const text = statement.trim();
    if (text.length < 3 || text.length > 400) throw new HearthError('usage', `A fact is one sentence of 3 to 400 characters (got ${text.length}).`);
    return this.transaction(() => {
      const old = this.require(id);
      const now = Date.now();
      const fact = toFact(required(this.statements.insert.get(options.category ?? old.category, text, USER_CONFIDENCE, 'user', evidenceJson(old.evidence), now, now)));
      this.statements.supersede.run(fact.id, now, id);
      return fact;
    });
  }

  /** "This is wrong": the fact stops being used and the reflection may not learn it again. */
  reject(id: number): UserFact {
    const fact = this.require(id);
    if (fact.status !== 'active') throw new HearthError('usage', `User fact #${id} is ${fact.status}, not active: there is nothing to reject.`);
    this.statements.reject.run(Date.now(), id);
    return this.require(id);
  }

  /** Gone for good (facts it had replaced stay, without the link). */
  delete(id: number): UserFact {
    return this.transaction(() => {
      const fact = this.require(id);
      this.statements.unlink.run(id);
      this.statements.remove.run(id);
      return fact;
    });
  }

  private require(id: number): UserFact {
    const fact = this.get(id);
    if (!fact) throw new HearthError('usage', `There is no user fact #${id}. \`hearth memory user list\` shows them.`);
    return fact;
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

/** What the user states about themselves is as sure as the reflection ever gets. */
const USER_CONFIDENCE = 0.99;

/** One entry per message, in message order. */
function evidenceJson(evidence: readonly FactEvidence[]): string {
  const byId = new Map<number, FactEvidence>();
  for (const e of evidence) if (!byId.has(e.messageId)) byId.set(e.messageId, e);
  const sorted = [...byId.values()].sort((a, b) => a.messageId - b.messageId);
  return JSON.stringify(sorted.map((e) => ({ message_id: e.messageId, session_id: e.sessionId, excerpt: e.excerpt })));
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
    source: row.source,
    evidence: evidence.data.map((e) => ({ messageId: e.message_id, sessionId: e.session_id, excerpt: e.excerpt })),
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
