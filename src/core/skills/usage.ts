import type { Db } from '../store/database.js';

/** Who wrote a skill. Only agent-created skills may be deleted by the agent or archived by the curator. */
export type SkillCreator = 'agent' | 'user';

/** One skill's telemetry (the `skill_usage` table, migration v2). Times are epoch milliseconds. */
export interface SkillUsage {
  name: string;
  createdBy: SkillCreator;
  viewCount: number;
  useCount: number;
  patchCount: number;
  createdAt: number | null;
  /** Last view or use: the schema has one "activity" column, and a view is the model loading the skill to work with it. */
  lastUsedAt: number | null;
  lastPatchedAt: number | null;
  archivedAt: number | null;
  pinned: boolean;
}

interface UsageRow {
  name: string;
  created_by: SkillCreator;
  view_count: number;
  use_count: number;
  patch_count: number;
  created_at: number | null;
  last_used_at: number | null;
  last_patched_at: number | null;
  archived_at: number | null;
  pinned: number;
}

/**
 * Usage stats per skill name. A skill with no row counts as user-created with no activity, so nothing the
 * agent did not make itself can ever be archived or deleted on the strength of missing telemetry.
 */
export class SkillUsageStore {
  private readonly statements: ReturnType<typeof prepareStatements>;
  private readonly transaction: (change: () => void) => void;

  constructor(
    db: Db,
    private readonly clock: () => number = Date.now,
  ) {
    this.statements = prepareStatements(db);
    this.transaction = db.transaction((change: () => void) => change());
  }

  recordView(name: string, at = this.clock()): void {
    this.update(name, () => this.statements.view.run(at, name));
  }

  recordUse(name: string, at = this.clock()): void {
    this.update(name, () => this.statements.use.run(at, name));
  }

  recordPatch(name: string, at = this.clock()): void {
    this.update(name, () => this.statements.patch.run(at, name));
  }

  markCreated(name: string, by: SkillCreator, at = this.clock()): void {
    this.statements.created.run(name, by, at);
  }

  archive(name: string, at = this.clock()): void {
    this.update(name, () => this.statements.archive.run(at, name));
  }

  restore(name: string, at = this.clock()): void {
    this.update(name, () => this.statements.restore.run(at, name));
  }

  pin(name: string, pinned = true): void {
    this.update(name, () => this.statements.pin.run(pinned ? 1 : 0, name));
  }

  get(name: string): SkillUsage | null {
    const row = this.statements.get.get(name);
    return row === undefined ? null : fromRow(row);
  }

  all(): SkillUsage[] {
    return this.statements.all.all().map(fromRow);
  }

  /** Every row keyed by name: the shape ranking and catalog ordering take. */
  byName(): Map<string, SkillUsage> {
    return new Map(this.all().map((u) => [u.name, u]));
  }

  private update(name: string, change: () => void): void {
    this.transaction(() => {
      this.statements.ensure.run(name);
      change();
    });
  }
}

function prepareStatements(db: Db) {
  return {
    // Counter updates first make sure a row exists: usage may be recorded for a skill the user dropped in by hand.
    ensure: db.prepare<[string]>('INSERT INTO skill_usage (name) VALUES (?) ON CONFLICT(name) DO NOTHING'),
    view: db.prepare<[number, string]>('UPDATE skill_usage SET view_count = view_count + 1, last_used_at = ? WHERE name = ?'),
    use: db.prepare<[number, string]>('UPDATE skill_usage SET use_count = use_count + 1, last_used_at = ? WHERE name = ?'),
    patch: db.prepare<[number, string]>('UPDATE skill_usage SET patch_count = patch_count + 1, last_patched_at = ? WHERE name = ?'),
    // A (re)created skill starts fresh: old counters belonged to a skill that was archived or replaced.
    created: db.prepare<[string, SkillCreator, number]>(
      `INSERT INTO skill_usage (name, created_by, created_at) VALUES (?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET created_by = excluded.created_by, created_at = excluded.created_at,
         view_count = 0, use_count = 0, patch_count = 0, last_used_at = NULL, last_patched_at = NULL, archived_at = NULL`,
    ),
    archive: db.prepare<[number, string]>('UPDATE skill_usage SET archived_at = ? WHERE name = ?'),
    // Restoring counts as activity, or the curator would archive the skill again on its next run.
    restore: db.prepare<[number, string]>('UPDATE skill_usage SET archived_at = NULL, last_used_at = ? WHERE name = ?'),
    pin: db.prepare<[number, string]>('UPDATE skill_usage SET pinned = ? WHERE name = ?'),
    get: db.prepare<[string], UsageRow>('SELECT * FROM skill_usage WHERE name = ?'),
    all: db.prepare<[], UsageRow>('SELECT * FROM skill_usage ORDER BY name'),
  };
}

function fromRow(row: UsageRow): SkillUsage {
  return {
    name: row.name,
    createdBy: row.created_by,
    viewCount: row.view_count,
    useCount: row.use_count,
    patchCount: row.patch_count,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    lastPatchedAt: row.last_patched_at,
    archivedAt: row.archived_at,
    pinned: row.pinned === 1,
  };
}
