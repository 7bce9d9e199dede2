import type { Database } from 'better-sqlite3-multiple-ciphers';
import type { ApprovalRecord } from './policy.js';

/** One row of the approval audit log, as `hearth approvals log` shows it. */
export interface AuditEntry {
  at: number;
  sessionId: string;
  kind: string;
  origin: string;
  command: string;
  verdict: string;
  reasons: string[];
  approved: boolean;
  decision: string;
  judged: string | null;
}

interface AuditRow {
  at: number;
  session_id: string;
  kind: string;
  origin: string;
  command: string;
  verdict: string;
  reasons: string;
  approved: number;
  decision: string;
  judged: string | null;
}

/**
 * Every approval decision, kept in the encrypted store (table `approval_log`): what ran unasked and why,
 * what the user approved or denied, what a timeout refused. Safe commands are recorded too, so the log
 * answers "what did the agent run?" as well as "what did I allow?".
 */
export class ApprovalAuditLog {
  private readonly insert;
  private readonly recent;
  private readonly trim;

  constructor(db: Database, private readonly redact: (text: string) => string = (text) => text) {
    this.insert = db.prepare(
      'INSERT INTO approval_log (at, session_id, kind, origin, command, verdict, reasons, approved, decision, judged) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.recent = db.prepare<[number], AuditRow>('SELECT * FROM approval_log ORDER BY at DESC, id DESC LIMIT ?');
    this.trim = db.prepare<[number]>('DELETE FROM approval_log WHERE id <= (SELECT id FROM approval_log ORDER BY id DESC LIMIT 1 OFFSET ?)');
  }

  /**
   * Keeps the newest `keep` records (the engine trims at start): a safe command is logged too, so years of use
   * would otherwise grow the table without bound. Returns how many were dropped.
   */
  prune(keep: number): number {
    return this.trim.run(keep).changes;
  }

  record(record: ApprovalRecord): void {
    const { outcome } = record;
    this.insert.run(
      record.at,
      record.sessionId,
      record.kind,
      record.origin,
      this.redact(record.command),
      outcome.classification.verdict,
      JSON.stringify(outcome.classification.reasons),
      outcome.approved ? 1 : 0,
      outcome.reason,
      record.judged === undefined ? null : this.redact(record.judged),
    );
  }

  /** Newest first. */
  list(limit = 50): AuditEntry[] {
    return this.recent.all(limit).map((row) => ({
      at: row.at,
      sessionId: row.session_id,
      kind: row.kind,
      origin: row.origin,
      command: row.command,
      verdict: row.verdict,
      reasons: JSON.parse(row.reasons) as string[],
      approved: row.approved === 1,
      decision: row.decision,
      judged: row.judged,
    }));
  }
}
