/**
 * Learned "when to use" phrasings per skill version (trigger-phrasings.ts), kept in `skill_triggers` (store
 * migration 9) under the hash of the skill's text: an edit gives the skill a new hash and new phrasings, an
 * unchanged skill is never asked about twice (not across restarts either), and a failed attempt is kept with
 * its reason, reported, and retried on a later refresh. The ranker reads them as one more field (relevance.ts).
 */
import { errorMessage } from '../errors.js';
import type { ChatModel } from '../llm/types.js';
import type { Db } from '../store/database.js';
import { generateSkillTriggers, skillTriggerHash, type TriggerResult } from './trigger-phrasings.js';
import type { Skill } from './types.js';
import { countOf } from '../../shared/plural.js';

export interface StoredTriggers {
  hash: string;
  name: string;
  model: string;
  /** Null when the latest attempt failed. */
  triggers: string[] | null;
  error: string | null;
  /** Attempts on this hash so far (1 after the first). */
  attempts: number;
  updatedAt: number;
}

export interface SkillTriggerStore {
  get(hash: string): StoredTriggers | undefined;
  put(row: StoredTriggers): void;
  /** Every row of a skill name, for `hearth skills show` and pruning. */
  byName(name: string): StoredTriggers[];
  delete(hash: string): void;
}

interface TriggerRow {
  content_hash: string;
  skill_name: string;
  model: string;
  triggers: string | null;
  error: string | null;
  attempts: number;
  updated_at: number;
}

function fromRow(row: TriggerRow): StoredTriggers {
  let triggers: string[] | null = null;
  if (row.triggers !== null) {
    try {
      const parsed: unknown = JSON.parse(row.triggers);
      triggers = Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : null;
    } catch {
      // A damaged row counts as no phrasings: the skill still ranks on its own text, and the next refresh retries.
      triggers = null;
    }
  }
  return { hash: row.content_hash, name: row.skill_name, model: row.model, triggers, error: row.error ?? (triggers === null && row.triggers !== null ? 'the stored phrasings are damaged' : null), attempts: row.attempts, updatedAt: row.updated_at };
}

export class SqliteSkillTriggers implements SkillTriggerStore {
  constructor(private readonly db: Db) {}

  get(hash: string): StoredTriggers | undefined {
    const row = this.db.prepare<[string], TriggerRow>('SELECT * FROM skill_triggers WHERE content_hash = ?').get(hash);
    return row === undefined ? undefined : fromRow(row);
  }

  put(row: StoredTriggers): void {
    this.db
      .prepare('INSERT OR REPLACE INTO skill_triggers (content_hash, skill_name, model, triggers, error, attempts, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(row.hash, row.name, row.model, row.triggers === null ? null : JSON.stringify(row.triggers), row.error, row.attempts, row.updatedAt);
  }

  byName(name: string): StoredTriggers[] {
    return this.db.prepare<[string], TriggerRow>('SELECT * FROM skill_triggers WHERE skill_name = ? ORDER BY updated_at DESC').all(name).map(fromRow);
  }

  delete(hash: string): void {
    this.db.prepare('DELETE FROM skill_triggers WHERE content_hash = ?').run(hash);
  }
}

/** Phrasings for one process only (the benchmark). */
export class MemorySkillTriggers implements SkillTriggerStore {
  private readonly rows = new Map<string, StoredTriggers>();

  get(hash: string): StoredTriggers | undefined {
    return this.rows.get(hash);
  }

  put(row: StoredTriggers): void {
    this.rows.set(row.hash, row);
  }

  byName(name: string): StoredTriggers[] {
    return [...this.rows.values()].filter((r) => r.name === name).sort((a, b) => b.updatedAt - a.updatedAt);
  }

  delete(hash: string): void {
    this.rows.delete(hash);
  }
}

export interface TriggerRefresh {
  /** Skills that got new phrasings in this refresh. */
  learned: string[];
  failed: { name: string; error: string }[];
  /** Skills left for a later refresh because the model call failed (set only then). */
  notAsked?: number;
}

/** One warning per refresh, however many skills failed: a missing model must not print a line per skill. */
function failureWarning(report: TriggerRefresh, attemptsOf: (name: string) => number): string {
  const [first, ...others] = report.failed;
  if (first === undefined) return '';
  const later = report.notAsked ? `; ${countOf(report.notAsked, 'more skill', 'more skills')} will be asked about later` : '';
  if (others.length === 0) {
    return `Could not learn when to use the skill '${first.name}' (attempt ${attemptsOf(first.name)}; it ranks on its own text and is tried again later): ${first.error}${later}`;
  }
  const named = report.failed.slice(0, 3).map((f) => `'${f.name}': ${f.error}`);
  const more = report.failed.length > 3 ? `; and ${report.failed.length - 3} more` : '';
  return `Could not learn when to use ${report.failed.length} skills (they rank on their own text and are tried again later): ${named.join('; ')}${more}${later}`;
}

export interface SkillTriggerLearnerOptions {
  model: ChatModel;
  store: SkillTriggerStore;
  /** Told about each failed attempt; the skill keeps ranking on its own text. */
  warn(message: string): void;
  /** A failed skill is asked again only after this long (default 10 minutes), not on every library reload. */
  retryAfterMs?: number;
  timeoutMs?: number;
  /**
   * Wait this long before the first call of a refresh (default 20 s). The refresh starts when the library is
   * scanned, which is when the user is waiting for a reply (engine start, a skill just written mid-turn); the
   * phrasings can wait, the reply should not queue behind them on a local model.
   */
  startDelayMs?: number;
  now?: () => number;
}

const DEFAULT_RETRY_AFTER_MS = 10 * 60_000;
const DEFAULT_START_DELAY_MS = 20_000;

/** Keeps the library's phrasings up to date in the background, one model call at a time. */
export class SkillTriggerLearner {
  private queue: Promise<unknown> = Promise.resolve();
  private latest: readonly Skill[] = [];
  private readonly closing = new AbortController();
  private storeWarned = false;

  constructor(private readonly options: SkillTriggerLearnerOptions) {}

  /**
   * The stored phrasings of this version of `skill`, or none (not learned yet, the latest attempt failed, or the
   * store cannot be read: then the skill ranks on its own text, and the user is told once).
   */
  triggersFor(skill: Skill): string[] {
    try {
      return this.options.store.get(skillTriggerHash(skill))?.triggers ?? [];
    } catch (err) {
      if (!this.storeWarned && !this.closing.signal.aborted) this.options.warn(`Learned skill phrasings cannot be read, skills rank on their own text: ${errorMessage(err)}`);
      this.storeWarned = true;
      return [];
    }
  }

  /** The stored row of this version of `skill` (for reports: learned, failed and why). */
  status(skill: Skill): StoredTriggers | undefined {
    return this.options.store.get(skillTriggerHash(skill));
  }

  /**
   * Ask the model about every offered skill whose current text has no phrasings yet (new, edited, or a failed
   * attempt due for a retry). Runs after the refresh before it; a refresh for a library replaced meanwhile is
   * skipped. Never rejects.
   */
  refresh(skills: readonly Skill[]): Promise<TriggerRefresh> {
    this.latest = skills;
    const run = this.queue.then(() =>
      this.latest !== skills
        ? { learned: [], failed: [] }
        : this.learn(skills).catch((err: unknown) => {
            // The store failing under a background refresh (a closed or full database) must not become an
            // unhandled rejection: it is told, and the next refresh tries again.
            if (!this.closing.signal.aborted) this.options.warn(`Learning when to use skills stopped: ${errorMessage(err)}`);
            return { learned: [], failed: [] };
          }),
    );
    this.queue = run;
    return run;
  }

  /** Stop asking (engine shutdown); resolves when the call in flight has stopped. */
  async close(): Promise<void> {
    this.closing.abort(new Error('the engine is closing'));
    await this.queue.catch(() => undefined);
  }

  private async learn(skills: readonly Skill[]): Promise<TriggerRefresh> {
    const { store, model } = this.options;
    const report: TriggerRefresh = { learned: [], failed: [] };
    const due = skills.filter((skill) => !skill.disableModelInvocation && this.isDue(store.get(skillTriggerHash(skill))));
    if (due.length === 0 || !(await this.delay(this.options.startDelayMs ?? DEFAULT_START_DELAY_MS))) return report;
    // A newer scan arrived while waiting: it is the one to learn from.
    if (this.latest !== skills) return report;
    for (const skill of due) {
      if (this.closing.signal.aborted) break;
      const hash = skillTriggerHash(skill);
      const stored = store.get(hash);
      if (!this.isDue(stored)) continue;
      let result: TriggerResult;
      try {
        result = await generateSkillTriggers(model, skill, this.closing.signal, this.options.timeoutMs);
      } catch (err) {
        if (this.closing.signal.aborted) break;
        result = { ok: false, error: errorMessage(err), failure: 'call' };
      }
      const attempts = (stored?.attempts ?? 0) + 1;
      store.put({ hash, name: skill.name, model: model.id, triggers: result.ok ? result.triggers : null, error: result.ok ? null : result.error, attempts, updatedAt: this.now() });
      if (result.ok) {
        report.learned.push(skill.name);
        // Older versions of this skill are never looked up again.
        for (const old of store.byName(skill.name)) if (old.hash !== hash) store.delete(old.hash);
      } else {
        report.failed.push({ name: skill.name, error: result.error });
        // A model that cannot be reached fails for every skill: the rest stay due for the next refresh, unasked.
        if (result.failure === 'call') {
          report.notAsked = due.length - due.indexOf(skill) - 1;
          break;
        }
      }
    }
    if (report.failed.length > 0) this.options.warn(failureWarning(report, (name) => store.byName(name)[0]?.attempts ?? 1));
    return report;
  }

  /** New or changed (no row for this text), or a failed attempt old enough to try again. */
  private isDue(stored: StoredTriggers | undefined): boolean {
    return stored === undefined || (stored.triggers === null && this.now() - stored.updatedAt >= (this.options.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS));
  }

  /** False when the learner closed while waiting. */
  private delay(ms: number): Promise<boolean> {
    const signal = this.closing.signal;
    if (signal.aborted) return Promise.resolve(false);
    if (ms <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (open: boolean): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve(open);
      };
      const onAbort = (): void => done(false);
      const timer = setTimeout(() => done(true), ms);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}
