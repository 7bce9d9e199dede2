import { HearthError } from '../errors.js';
import type { Db } from '../store/database.js';
import { LearningRun, type LearningRunKind, type LearningRunOutcome, type RefusedWrite } from '../../shared/learning-journal.js';

export { LearningRun, LearningRunKind, LearningRunOutcome, RefusedWrite } from '../../shared/learning-journal.js';

export interface RunFinish {
  outcome: LearningRunOutcome;
  saved?: readonly string[];
  refused?: readonly RefusedWrite[];
  error?: string | null;
  detail?: Record<string, number>;
}

interface Row {
  id: number;
  kind: string;
  session_id: string | null;
  started_at: number;
  ended_at: number | null;
  outcome: string | null;
  saved: string;
  refused: string;
  error: string | null;
  detail: string | null;
}

const COLUMNS = 'id, kind, session_id, started_at, ended_at, outcome, saved, refused, error, detail';

/** How many runs the journal keeps; older ones are pruned as new ones start (a year of busy use). */
export const JOURNAL_KEEP = 5_000;

/**
 * The learning journal (`learning_runs`, issue 11): every background run is recorded when it starts and
 * completed when it ends, whether or not a surface is watching, so a failure seen by nobody still leaves a trace
 * for `hearth learning log`, the app and `hearth doctor`.
 */
export class LearningJournal {
  private readonly statements;

  constructor(db: Db, private readonly now: () => number = Date.now) {
    this.statements = {
      insert: db.prepare<[string, string | null, number], { id: number }>('INSERT INTO learning_runs (kind, session_id, started_at) VALUES (?, ?, ?) RETURNING id'),
      finish: db.prepare<[number, string, string, string, string | null, string | null, number]>(
        'UPDATE learning_runs SET ended_at = ?, outcome = ?, saved = ?, refused = ?, error = ?, detail = ? WHERE id = ? AND ended_at IS NULL',
      ),
      get: db.prepare<[number], Row>(`SELECT ${COLUMNS} FROM learning_runs WHERE id = ?`),
      recent: db.prepare<[number], Row>(`SELECT ${COLUMNS} FROM learning_runs ORDER BY started_at DESC, id DESC LIMIT ?`),
      failedSince: db.prepare<[number], Row>(
        `SELECT ${COLUMNS} FROM learning_runs WHERE started_at >= ? AND outcome IN ('failed', 'refused') ORDER BY started_at DESC, id DESC`,
      ),
      prune: db.prepare<[number]>('DELETE FROM learning_runs WHERE id <= (SELECT id FROM learning_runs ORDER BY id DESC LIMIT 1 OFFSET ?)'),
    };
  }

  /** Records that a run started; returns its id for `finish`. */
  start(kind: LearningRunKind, sessionId: string | null): number {
    const row = this.statements.insert.get(kind, sessionId, this.now());
    if (row === undefined) throw new HearthError('db_io', 'Recording a learning run returned no id.');
    this.statements.prune.run(JOURNAL_KEEP);
    return row.id;
  }

  /** Completes a started run. A run finishes once: a second call changes nothing and returns false. */
  finish(id: number, result: RunFinish): boolean {
    const info = this.statements.finish.run(
      this.now(),
      result.outcome,
      JSON.stringify(result.saved ?? []),
      JSON.stringify(result.refused ?? []),
      result.error ?? null,
      result.detail === undefined ? null : JSON.stringify(result.detail),
      id,
    );
    return info.changes > 0;
  }

  get(id: number): LearningRun | null {
    const row = this.statements.get.get(id);
    return row === undefined ? null : toRun(row);
  }

  /** Newest first. */
  recent(limit = 50): LearningRun[] {
    return this.statements.recent.all(Math.max(1, Math.floor(limit))).map(toRun);
  }

  /** Runs that failed or whose writes were all refused, started at or after `since` (epoch ms), newest first. */
  failedSince(since: number): LearningRun[] {
    return this.statements.failedSince.all(since).map(toRun);
  }
}

function toRun(row: Row): LearningRun {
  // Parsed through the schema: a row written by a newer Hearth with a kind this one does not know fails loudly.
  return LearningRun.parse({
    id: row.id,
    kind: row.kind,
    sessionId: row.session_id,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    outcome: row.outcome,
    saved: JSON.parse(row.saved) as unknown,
    refused: JSON.parse(row.refused) as unknown,
    error: row.error,
    detail: row.detail === null ? null : (JSON.parse(row.detail) as unknown),
  });
}

/** One line for a person: "✗ skill review · refused · skill_manage refused: …". */
export function describeRun(run: LearningRun): string {
  const kind = run.kind.replace('_', ' ');
  const outcome = run.outcome ?? 'running';
  const why =
    run.error !== null
      ? run.error
      : run.refused.length > 0
        ? run.refused.map((r) => `${r.tool} refused: ${r.reason}`).join('; ')
        : run.saved.length > 0
          ? run.saved.join('; ')
          : run.detail !== null
            ? Object.entries(run.detail).map(([k, v]) => `${v} ${k}`).join(', ')
            : '';
  return `${kind} · ${outcome}${why === '' ? '' : ` · ${why}`}`;
}
