import { afterEach, describe, expect, it } from 'vitest';
import { describeRun, JOURNAL_KEEP, LearningJournal } from '../src/core/learning/journal.js';
import { createTempStore, type TempStore } from './fixtures/temp-store.js';

/** The learning journal on a real migrated store file: what it keeps, in what order, and what counts as failed. */
let temp: TempStore;
afterEach(() => temp.cleanup());

describe('learning journal', () => {
  it('records start and finish, lists newest first, and reports only failed or refused runs since a time', () => {
    temp = createTempStore();
    let clock = 1_000;
    const journal = new LearningJournal(temp.open().db, () => clock);
    const saved = journal.start('memory_review', 's1');
    expect(journal.get(saved)).toMatchObject({ outcome: null, endedAt: null }); // a run that dies mid-way still shows
    clock = 1_500;
    journal.finish(saved, { outcome: 'saved', saved: ['Memory updated'] });
    clock = 2_000;
    const refused = journal.start('skill_review', 's1');
    journal.finish(refused, { outcome: 'refused', refused: [{ tool: 'skill_manage', reason: 'no skill named deploy-docs' }] });
    clock = 3_000;
    const failed = journal.start('reflection', null);
    journal.finish(failed, { outcome: 'failed', error: 'model answered garbage', detail: { added: 0 } });

    expect(journal.recent().map((r) => r.id)).toEqual([failed, refused, saved]);
    expect(journal.get(saved)).toMatchObject({ startedAt: 1_000, endedAt: 1_500, saved: ['Memory updated'], refused: [], error: null });
    expect(journal.failedSince(0).map((r) => r.id)).toEqual([failed, refused]);
    expect(journal.failedSince(2_500).map((r) => r.id)).toEqual([failed]);
    // A run finishes once: a late second finish (a cancel racing the end) does not rewrite it.
    expect(journal.finish(saved, { outcome: 'failed', error: 'late' })).toBe(false);
    expect(journal.get(saved)?.outcome).toBe('saved');
    expect(describeRun(journal.get(refused)!)).toBe('skill review · refused · skill_manage refused: no skill named deploy-docs');
  });

  it(`keeps the newest ${JOURNAL_KEEP} runs`, () => {
    temp = createTempStore();
    const store = temp.open();
    const journal = new LearningJournal(store.db);
    store.db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${JOURNAL_KEEP}) INSERT INTO learning_runs (kind, started_at) SELECT 'flush', i FROM n`);
    const newest = journal.start('curator', null);
    const count = store.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM learning_runs').get()!.n;
    expect(count).toBe(JOURNAL_KEEP);
    expect(journal.get(1)).toBeNull();
    expect(journal.get(newest)).not.toBeNull();
  });
});
