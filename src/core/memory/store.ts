import { HearthError, errorMessage } from '../errors.js';
import type { InjectionFinding } from '../safety/injection/scan.js';
import type { Db } from '../store/database.js';
import { DEFAULT_MEMORY_LIMITS, type MemoryLimits, type MemoryTarget } from './budget.js';
import { planMemoryWrite, type MemoryOperation, type MemoryPlan } from './memory-plan.js';
import { measure, type MemoryEntry, type MemoryUsage } from './usage.js';

interface EntryRow {
  id: number;
  target: MemoryTarget;
  content: string;
  created_at: number;
  updated_at: number;
}

export interface MemoryWriteOutcome {
  action: 'added' | 'replaced' | 'removed' | 'unchanged';
  target: MemoryTarget;
  /** The entry written, removed, or (unchanged) the existing duplicate. */
  entry: MemoryEntry;
  /** Live state after the write: what a tool response shows (the prompt keeps its frozen snapshot). */
  entries: MemoryEntry[];
  usage: MemoryUsage;
  /** Scanner findings that did not block the write ("suspicious"). */
  warnings: InjectionFinding[];
}

export interface WriteOptions {
  /** This session's limit for the target (memoryBudget); defaults to the store's limits. */
  limit?: number;
}

/**
 * Curated memory in the encrypted database (`memory_entries`): the agent's notes (`memory`) and the
 * user profile (`user`), in insertion order. Every write is one committed transaction, checked first by
 * `planMemoryWrite`: scanned for injection, matched by a unique `old_text`, refused when it would overflow.
 * Nothing is ever dropped or deleted to make room.
 */
export class MemoryStore {
  private readonly statements;

  constructor(
    readonly db: Db,
    readonly limits: Readonly<MemoryLimits> = DEFAULT_MEMORY_LIMITS,
  ) {
    this.statements = {
      list: db.prepare<[MemoryTarget], EntryRow>('SELECT id, target, content, created_at, updated_at FROM memory_entries WHERE target = ? ORDER BY id'),
      insert: db.prepare<[MemoryTarget, string, number, number], EntryRow>(
        'INSERT INTO memory_entries (target, content, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id, target, content, created_at, updated_at',
      ),
      update: db.prepare<[string, number, number], EntryRow>(
        'UPDATE memory_entries SET content = ?, updated_at = ? WHERE id = ? RETURNING id, target, content, created_at, updated_at',
      ),
      remove: db.prepare<[number]>('DELETE FROM memory_entries WHERE id = ?'),
      clear: db.prepare<[MemoryTarget]>('DELETE FROM memory_entries WHERE target = ?'),
    };
  }

  read(target: MemoryTarget): MemoryEntry[] {
    return this.statements.list.all(target).map(toEntry);
  }

  usage(target: MemoryTarget, limit = this.limits[target]): MemoryUsage {
    return measure(
      this.read(target).map((e) => e.content),
      limit,
    );
  }

  /** Both targets' contents, for the frozen prompt snapshot taken at session start. */
  snapshot(): Record<MemoryTarget, string[]> {
    return { memory: this.read('memory').map((e) => e.content), user: this.read('user').map((e) => e.content) };
  }

  add(target: MemoryTarget, content: string, options: WriteOptions = {}): MemoryWriteOutcome {
    return this.write({ action: 'add', target, content }, options);
  }

  replace(target: MemoryTarget, oldText: string, content: string, options: WriteOptions = {}): MemoryWriteOutcome {
    return this.write({ action: 'replace', target, oldText, content }, options);
  }

  remove(target: MemoryTarget, oldText: string): MemoryWriteOutcome {
    return this.write({ action: 'remove', target, oldText }, {});
  }

  /** What `op` would do, with every check a real write makes, without writing (used before staging). */
  check(op: MemoryOperation, options: WriteOptions = {}): MemoryPlan {
    return planMemoryWrite(op, this.read(op.target), options.limit ?? this.limits[op.target]);
  }

  /** Planning and applying share one IMMEDIATE transaction, so two writers cannot both fit into the last free space. */
  write(op: MemoryOperation, options: WriteOptions = {}): MemoryWriteOutcome {
    const limit = options.limit ?? this.limits[op.target];
    const run = this.db.transaction(() => this.apply(planMemoryWrite(op, this.read(op.target), limit)));
    const { plan, entry } = this.guard(`save to ${op.target}`, () => run.immediate());
    const entries = this.read(op.target);
    return {
      action: plan.kind === 'insert' ? 'added' : plan.kind === 'update' ? 'replaced' : plan.kind === 'delete' ? 'removed' : 'unchanged',
      target: op.target,
      entry,
      entries,
      usage: measure(
        entries.map((e) => e.content),
        limit,
      ),
      warnings: plan.kind === 'insert' || plan.kind === 'update' ? plan.warnings : [],
    };
  }

  /**
   * Make `contents` the target's entries, in that order, in one transaction. Entries whose text is
   * unchanged keep their creation time. Callers check every entry first (see memory-import.ts).
   */
  replaceAll(target: MemoryTarget, contents: readonly string[]): void {
    const run = this.db.transaction(() => {
      const created = new Map(this.read(target).map((e) => [e.content, e.createdAt]));
      this.statements.clear.run(target);
      const now = Date.now();
      for (const content of contents) this.statements.insert.get(target, content, created.get(content) ?? now, now);
    });
    this.guard(`rewrite the ${target} entries`, () => run.immediate());
  }

  private apply(plan: MemoryPlan): { plan: MemoryPlan; entry: MemoryEntry } {
    const now = Date.now();
    switch (plan.kind) {
      case 'insert':
        return { plan, entry: toEntry(required(this.statements.insert.get(plan.target, plan.content, now, now))) };
      case 'update':
        return { plan, entry: toEntry(required(this.statements.update.get(plan.content, now, plan.entry.id))) };
      case 'delete':
        this.statements.remove.run(plan.entry.id);
        return { plan, entry: plan.entry };
      case 'unchanged':
        return { plan, entry: plan.entry };
    }
  }

  /** HearthErrors (refusals) pass through; a SQLite failure becomes `db_io` naming what was being done. */
  private guard<T>(action: string, fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (err instanceof HearthError) throw err;
      throw new HearthError('db_io', `Cannot ${action}: ${errorMessage(err)}`, { cause: err });
    }
  }
}

function required(row: EntryRow | undefined): EntryRow {
  if (!row) throw new HearthError('db_io', 'A memory write returned no row.');
  return row;
}

function toEntry(row: EntryRow): MemoryEntry {
  return { id: row.id, target: row.target, content: row.content, createdAt: row.created_at, updatedAt: row.updated_at };
}
