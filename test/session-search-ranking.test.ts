import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractQueryDates } from '../src/core/search/query-dates.js';
import { parseQuery } from '../src/core/search/query-terms.js';
import { SessionSearch } from '../src/core/search/session-search.js';
import type { SqliteSessionStore } from '../src/core/store/session-store.js';
import { createTempStore, type TempStore } from './fixtures/temp-store.js';

/** The ranking signals beyond plain bm25 that lift LoCoMo recall (bench/locomo.ts), each on a tiny real store. */
let temp: TempStore;
let store: SqliteSessionStore;
let search: SessionSearch;
beforeEach(() => {
  temp = createTempStore('hearth-ranking-');
  store = temp.open();
  search = new SessionSearch(store);
});
afterEach(() => temp.cleanup());

function session(lines: string[], day?: Date): number[] {
  const { id } = store.createSession({ source: 'api', model: 'x' });
  const ids = store.appendMessages(id, lines.map((content) => ({ role: 'user' as const, content }))).map((m) => m.id);
  if (day) store.db.prepare('UPDATE messages SET created_at = ? WHERE session_id = ?').run(day.getTime(), id);
  return ids;
}
const rankOf = async (query: string, id: number | undefined) => (await search.rankMessages(query, 20)).findIndex((hit) => hit.messageId === id);

describe('query parsing', () => {
  it('drops question scaffolding but keeps content words, and adds other forms of irregular verbs', () => {
    const parsed = parseQuery('What kind of pottery did Melanie make?');
    expect(parsed.words).toEqual(['pottery', 'melanie', 'make']);
    expect(parsed.terms).toContainEqual({ text: 'made', weight: expect.any(Number) });
  });

  it('searches function words rather than nothing when a query has only those', () => {
    expect(parseQuery('what did we do').words).toEqual(['what', 'did', 'we', 'do']);
  });

  it('reads dates in the usual spellings as local-time ranges and takes them out of the text query', () => {
    const day = extractQueryDates('What painting did she show on October 13, 2023?');
    expect(day.ranges).toEqual([{ from: new Date(2023, 9, 13).getTime(), to: new Date(2023, 9, 14).getTime() }]);
    expect(day.rest).not.toMatch(/2023|13/);
    expect(extractQueryDates('on 1 February, 2023').ranges[0]?.from).toBe(new Date(2023, 1, 1).getTime());
    expect(extractQueryDates('in August 2023').ranges[0]).toEqual({ from: new Date(2023, 7, 1).getTime(), to: new Date(2023, 8, 1).getTime() });
    expect(extractQueryDates('on 2024-02-30 or 13 Smarch 2023').ranges.length).toBeLessThanOrEqual(1);
  });
});

describe('ranking signals', () => {
  it('ranks the reply after a message naming the topic (the answer often shares no word with the question)', async () => {
    const ids = session([...Array.from({ length: 6 }, (_, i) => `chit chat ${i}`), 'What did you buy at the flea market?', 'An old brass lamp for the studio.', 'Nice.', 'See you soon.']);
    session(Array.from({ length: 8 }, (_, i) => `unrelated line ${i}`));
    // Would catch: neighbour propagation missing — the answer has no query word at all, so bm25 alone never returns it.
    const rank = await rankOf('What did he buy at the flea market?', ids[7]);
    expect(rank).toBeGreaterThanOrEqual(0);
    expect(rank).toBeLessThanOrEqual(1); // only the message naming the topic may come first
  });

  it('boosts messages written by the person the query names', async () => {
    // Both names open half the messages, so bm25 gives the names no weight: only the author boost can tell them apart.
    const ids = session([
      'Caroline: We adopted a puppy!',
      'Melanie: A friend of mine adopted a puppy once, from a shelter near the lake, years ago now.',
      'Caroline: Nice weather today.',
      'Melanie: Lovely indeed.',
    ]);
    expect((await search.rankMessages('Which puppy did Melanie adopt?', 1))[0]?.messageId).toBe(ids[1]);
    expect((await search.rankMessages('Which puppy did Caroline adopt?', 1))[0]?.messageId).toBe(ids[0]);
  });

  it('prefers messages from a date the query names over better word matches from other days', async () => {
    const other = session(['I painted a sunset, a big sunset painting with sunset colours.'], new Date(2023, 2, 1, 12));
    const onDay = session(['Here is the painting I finished.'], new Date(2023, 9, 13, 15));
    expect(await rankOf('What painting did she share on October 13, 2023?', onDay[0])).toBe(0);
    expect(await rankOf('What sunset painting did she share?', other[0])).toBe(0);
  });

  it('finds an answer in another tense through irregular verb forms', async () => {
    const ids = session(['I felt tiny under the stars.', 'The night was clear.']);
    session(['The stars, the stars, so many stars tonight.', 'It was fine.']);
    expect((await search.rankMessages('How did she feel about the stars?', 1))[0]?.messageId).toBe(ids[0]);
  });
});
