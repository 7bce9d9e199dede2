import { HearthError, errorMessage } from '../errors.js';
import type { InjectionFinding } from '../safety/injection/scan.js';
import type { Db } from '../store/database.js';
import { DEFAULT_MEMORY_LIMITS, type MemoryLimits, type MemoryTarget } from './budget.js';
import { CHANGE_COLUMNS, quoteLine, toChange, type ChangeRow, type MemoryChange } from './changes.js';
import { planMemoryWrite, targetLabel, type MemoryOperation, type MemoryPlan } from './memory-plan.js';
import { actsForUser, AGENT_WRITER, protectsNewEntries, type MemoryAuthor, type MemoryVia, type MemoryWriter } from './provenance.js';
import { measure, type MemoryEntry, type MemoryUsage } from './usage.js';

interface EntryRow {
  id: number;
  target: MemoryTarget;
  content: string;
  created_at: number;
  updated_at: number;
  author: MemoryAuthor | null;
  via: MemoryVia;
  protected: number;
}

const ENTRY_COLUMNS = 'id, target, content, created_at, updated_at, author, via, protected';

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
  /** The agent's removal or replacement, recorded so the user can undo it; absent for adds and the user's own writes. */
  change?: MemoryChange;
  /** A replacement: the text that was there before. */
  previous?: string;
}

export interface WriteOptions {
  /** This session's limit for the target (memoryBudget); defaults to the store's limits. */
  limit?: number;
  /** Who writes; default the agent, so only callers that really act for the user get the user's rights. */
  by?: MemoryWriter;
}

/**
 * Curated memory in the encrypted database (`memory_entries`): the agent's notes (`memory`) and the
 * user profile (`user`), in insertion order. Every write is one committed transaction, checked first by
 * `planMemoryWrite`: scanned for injection, matched by a unique `old_text`, refused when it would overflow.
 * Nothing is ever dropped or deleted to make room. Entries the user wrote or confirmed are protected: the
 * agent's writes may not replace or remove them (`memory_protected`), and every removal or replacement
 * the agent does make is journalled in `memory_changes` for undo.
 */
export class MemoryStore {
  private readonly statements;

  constructor(
    readonly db: Db,
    readonly limits: Readonly<MemoryLimits> = DEFAULT_MEMORY_LIMITS,
  ) {
    this.statements = {
      list: db.prepare<[MemoryTarget], EntryRow>(`SELECT ${ENTRY_COLUMNS} FROM memory_entries WHERE target = ? ORDER BY id`),
      get: db.prepare<[number], EntryRow>(`SELECT ${ENTRY_COLUMNS} FROM memory_entries WHERE id = ?`),
      insert: db.prepare<[MemoryTarget, string, number, number, MemoryAuthor | null, MemoryVia, number], EntryRow>(
        `INSERT INTO memory_entries (target, content, created_at, updated_at, author, via, protected) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${ENTRY_COLUMNS}`,
      ),
      insertWithId: db.prepare<[number, MemoryTarget, string, number, number, MemoryAuthor | null, MemoryVia, number]>(
        'INSERT INTO memory_entries (id, target, content, created_at, updated_at, author, via, protected) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      update: db.prepare<[string, number, MemoryAuthor | null, MemoryVia, number, number], EntryRow>(
        `UPDATE memory_entries SET content = ?, updated_at = ?, author = ?, via = ?, protected = ? WHERE id = ? RETURNING ${ENTRY_COLUMNS}`,
      ),
      setProtected: db.prepare<[number, number, number]>('UPDATE memory_entries SET protected = ?, updated_at = ? WHERE id = ?'),
      remove: db.prepare<[number]>('DELETE FROM memory_entries WHERE id = ?'),
      clear: db.prepare<[MemoryTarget]>('DELETE FROM memory_entries WHERE target = ?'),
      recordChange: db.prepare<[number, MemoryTarget, string, string, string | null, MemoryAuthor | null, MemoryVia, number, number, string | null, number], ChangeRow>(
        `INSERT INTO memory_changes (entry_id, target, action, old_content, new_content, old_author, old_via, old_protected, old_created_at, session_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${CHANGE_COLUMNS}`,
      ),
      getChange: db.prepare<[number], ChangeRow>(`SELECT ${CHANGE_COLUMNS} FROM memory_changes WHERE id = ?`),
      listChanges: db.prepare<[number], ChangeRow>(`SELECT ${CHANGE_COLUMNS} FROM memory_changes ORDER BY id DESC LIMIT ?`),
      markUndone: db.prepare<[number, number]>('UPDATE memory_changes SET undone_at = ? WHERE id = ?'),
    };
  }

  read(target: MemoryTarget): MemoryEntry[] {
    return this.statements.list.all(target).map(toEntry);
  }

  /** One entry by its id (the id `hearth memory show` and the app show). */
  get(id: number): MemoryEntry {
    const row = this.statements.get.get(id);
    if (row === undefined) throw new HearthError('memory_no_match', `No memory entry has id ${id}. \`hearth memory show\` lists them with their ids.`);
    return toEntry(row);
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

  remove(target: MemoryTarget, oldText: string, options: Pick<WriteOptions, 'by'> = {}): MemoryWriteOutcome {
    return this.write({ action: 'remove', target, oldText }, options);
  }

  /** What `op` would do, with every check a real write makes, without writing (used before staging). */
  check(op: MemoryOperation, options: WriteOptions = {}): MemoryPlan {
    return planMemoryWrite(op, this.read(op.target), options.limit ?? this.limits[op.target]);
  }

  /** Planning and applying share one IMMEDIATE transaction, so two writers cannot both fit into the last free space. */
  write(op: MemoryOperation, options: WriteOptions = {}): MemoryWriteOutcome {
    const limit = options.limit ?? this.limits[op.target];
    const by = options.by ?? AGENT_WRITER;
    const run = this.db.transaction(() => this.apply(planMemoryWrite(op, this.read(op.target), limit), by));
    const { plan, entry, change } = this.guard(`save to ${op.target}`, () => run.immediate());
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
      ...(change === undefined ? {} : { change }),
      ...(plan.kind === 'update' ? { previous: plan.entry.content } : {}),
    };
  }

  /** The user marks an entry as a standing rule or confirms it (true), or lets the agent consolidate it again (false). */
  setProtected(id: number, value: boolean): MemoryEntry {
    const run = this.db.transaction(() => {
      this.get(id);
      this.statements.setProtected.run(value ? 1 : 0, Date.now(), id);
      return this.get(id);
    });
    return this.guard(value ? 'protect the entry' : 'unprotect the entry', () => run.immediate());
  }

  /** The agent's recent removals and replacements, newest first. */
  changes(limit = 50): MemoryChange[] {
    return this.statements.listChanges.all(limit).map(toChange);
  }

  change(id: number): MemoryChange {
    const row = this.statements.getChange.get(id);
    if (row === undefined) throw new HearthError('memory_change_not_found', `No memory change has id ${id}. \`hearth memory changes\` lists the agent's recent ones.`);
    return toChange(row);
  }

  /**
   * Puts back what the agent removed or replaced. A removed entry returns under its old id (so in its old
   * place) with its old author; either way the entry comes back protected, since undoing is the user saying
   * it matters. Allowed over the limit: the user chose this entry, and a target over its limit can only shrink
   * (the snapshot asks the agent to consolidate). Refused when the entry was changed again since, naming it.
   */
  undo(id: number): { change: MemoryChange; entry: MemoryEntry } {
    const run = this.db.transaction(() => {
      const change = this.change(id);
      if (change.undoneAt !== null) throw new HearthError('memory_undo_conflict', `Memory change #${id} was already undone.`);
      const now = Date.now();
      const { old } = change;
      if (change.action === 'removed') {
        const back = this.read(change.target).find((e) => e.content === change.oldContent);
        if (back === undefined) {
          const free = this.statements.get.get(change.entryId) === undefined;
          if (free) this.statements.insertWithId.run(change.entryId, change.target, change.oldContent, old.createdAt, now, old.author, old.via, 1);
          else this.statements.insert.get(change.target, change.oldContent, old.createdAt, now, old.author, old.via, 1);
        } else this.statements.setProtected.run(1, now, back.id);
      } else {
        const current = this.statements.get.get(change.entryId);
        if (current === undefined || current.content !== change.newContent) {
          const state = current === undefined ? 'has been removed since' : `now reads '${quoteLine(current.content)}'`;
          throw new HearthError(
            'memory_undo_conflict',
            `Cannot undo memory change #${id}: the ${targetLabel(change.target)} entry ${state}. Add '${quoteLine(change.oldContent)}' again yourself if you still want it.`,
          );
        }
        this.statements.update.get(change.oldContent, now, old.author, old.via, 1, change.entryId);
      }
      this.statements.markUndone.run(now, id);
      const entry = this.read(change.target).find((e) => e.content === change.oldContent);
      if (entry === undefined) throw new HearthError('db_io', `Undoing memory change #${id} left no entry behind.`);
      return { change: { ...change, undoneAt: now }, entry };
    });
    return this.guard('undo the memory change', () => run.immediate());
  }

  /**
   * Make `contents` the target's entries, in that order, in one transaction. Entries whose text is
   * unchanged keep their creation time and who wrote them; new text is `by`'s. Callers check every entry
   * first (see memory-import.ts). Only the user rewrites a whole target (`hearth memory edit`, import).
   */
  replaceAll(target: MemoryTarget, contents: readonly string[], by: MemoryWriter): void {
    const run = this.db.transaction(() => {
      const kept = new Map(this.read(target).map((e) => [e.content, e]));
      this.statements.clear.run(target);
      const now = Date.now();
      for (const content of contents) {
        const old = kept.get(content);
        if (old) this.statements.insert.get(target, content, old.createdAt, now, old.author, old.via, old.protected ? 1 : 0);
        else this.statements.insert.get(target, content, now, now, by.author, by.via, protectsNewEntries(by) ? 1 : 0);
      }
    });
    this.guard(`rewrite the ${target} entries`, () => run.immediate());
  }

  private apply(plan: MemoryPlan, by: MemoryWriter): { plan: MemoryPlan; entry: MemoryEntry; change?: MemoryChange } {
    const now = Date.now();
    if ((plan.kind === 'update' || plan.kind === 'delete') && plan.entry.protected && !actsForUser(by)) throw protectedError(plan);
    const mark = protectsNewEntries(by) ? 1 : 0;
    switch (plan.kind) {
      case 'insert':
        return { plan, entry: toEntry(required(this.statements.insert.get(plan.target, plan.content, now, now, by.author, by.via, mark))) };
      case 'update': {
        // The user's edit makes the text theirs (and protected); the agent's keeps the entry unprotected.
        const entry = toEntry(required(this.statements.update.get(plan.content, now, by.author, by.via, mark, plan.entry.id)));
        return { plan, entry, ...this.journal(plan, by, 'replaced', plan.content, now) };
      }
      case 'delete':
        this.statements.remove.run(plan.entry.id);
        return { plan, entry: plan.entry, ...this.journal(plan, by, 'removed', null, now) };
      case 'unchanged':
        return { plan, entry: plan.entry };
    }
  }

  /** The agent's removals and replacements are journalled; the user's own are not (they need no undo by us). */
  private journal(plan: Extract<MemoryPlan, { entry: MemoryEntry }>, by: MemoryWriter, action: 'removed' | 'replaced', newContent: string | null, now: number): { change?: MemoryChange } {
    if (actsForUser(by)) return {};
    const e = plan.entry;
    const row = this.statements.recordChange.get(e.id, e.target, action, e.content, newContent, e.author, e.via, e.protected ? 1 : 0, e.createdAt, by.sessionId ?? null, now);
    return row === undefined ? {} : { change: toChange(row) };
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

function protectedError(plan: Extract<MemoryPlan, { entry: MemoryEntry }>): HearthError {
  const label = targetLabel(plan.target);
  return new HearthError(
    'memory_protected',
    `The ${label} entry '${quoteLine(plan.entry.content)}' is protected: the user wrote or confirmed it, or marked it as a standing rule, so only the user can ${plan.kind === 'delete' ? 'remove' : 'change'} it.`,
    { details: { target: plan.target, entryId: plan.entry.id, content: plan.entry.content } },
  );
}

function required(row: EntryRow | undefined): EntryRow {
  if (!row) throw new HearthError('db_io', 'A memory write returned no row.');
  return row;
}

function toEntry(row: EntryRow): MemoryEntry {
  return {
    id: row.id,
    target: row.target,
    content: row.content,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    author: row.author,
    via: row.via,
    protected: row.protected === 1,
  };
}
