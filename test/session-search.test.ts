import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HearthError } from '../src/core/errors.js';
import { MAX_RESULT_CHARS, renderSearchResult } from '../src/core/search/render-results.js';
import { SessionSearch } from '../src/core/search/session-search.js';
import type { SqliteSessionStore } from '../src/core/store/session-store.js';
import { createSessionSearchTool } from '../src/core/tools/session-search.js';
import { createTempStore, type TempStore } from './fixtures/temp-store.js';
import { runTool, toolContext } from './fixtures/tool-harness.js';

let temp: TempStore;
let store: SqliteSessionStore;
let search: SessionSearch;
beforeEach(() => {
  temp = createTempStore('hearth-session-search-');
  store = temp.open();
  search = new SessionSearch(store);
});
afterEach(() => temp.cleanup());

/** A session of alternating user/assistant messages; returns the session id and message ids. */
function conversation(title: string, lines: string[]): { id: string; ids: number[] } {
  const { id } = store.createSession({ source: 'cli', model: 'x', title });
  const ids = store.appendMessages(id, lines.map((content, i) => ({ role: i % 2 === 0 ? ('user' as const) : ('assistant' as const), content }))).map((m) => m.id);
  return { id, ids };
}

/** Messages are stamped at append time; tests that need history move them to a chosen day. */
function redate(sessionId: string, when: Date): void {
  store.db.prepare('UPDATE messages SET created_at = ? WHERE session_id = ?').run(when.getTime(), sessionId);
}

const filler = (n: number) => Array.from({ length: n }, (_, i) => `Small talk number ${i} about the weather and lunch plans.`);

describe('discovery', () => {
  it('ranks the session that discussed the topic first, with the messages around the hit and the session bookends', async () => {
    conversation('Recipes', ['How long do I bake sourdough?', 'About 40 minutes at 230°C.', ...filler(4)]);
    const db = conversation('Database work', [
      'Let us plan the week.',
      'Sure, what is first?',
      ...filler(4),
      'The postgres migration failed halfway, how do I undo it?',
      'Roll back with the down migration, then restore the snapshot taken before the migration.',
      ...filler(4),
      'Thanks, that fixed it.',
      'Glad it worked.',
    ]);
    conversation('Music', ['Any album recommendations?', 'Try Kind of Blue.', ...filler(2)]);

    const result = await search.discover('how did we undo the failed postgres migration?');
    const [top] = result.hits;
    // Would catch: ranking that ignores relevance, or a hit without its context.
    expect(top?.session.id).toBe(db.id);
    expect(top?.session.title).toBe('Database work');
    expect([db.ids[6], db.ids[7]]).toContain(top?.messageId);
    const windowIds = top?.window.map((line) => line.id) ?? [];
    expect(windowIds).toContain(db.ids[6]);
    expect(windowIds).toContain(db.ids[7]);
    expect(windowIds.length).toBeLessThanOrEqual(5);
    // Bookends: how the session began and ended, outside the window.
    expect(top?.bookends.first.map((line) => line.content)).toEqual(['Let us plan the week.', 'Sure, what is first?']);
    expect(top?.bookends.last.map((line) => line.content)).toEqual(['Thanks, that fixed it.', 'Glad it worked.']);
    const text = renderSearchResult(result);
    expect(text).toContain(`session ${db.id}`);
    expect(text).toContain('Roll back with the down migration');
  });

  it('orders equally relevant hits newest first (recency breaks the tie, not insertion order)', async () => {
    // The older conversation is inserted last, so it has the higher message ids: an id tie-break would put it first.
    const recent = conversation('recent', ['We chose the teal colour scheme for the dashboard.']);
    const older = conversation('older', ['We chose the teal colour scheme for the dashboard.']);
    redate(recent.id, new Date(2025, 4, 20));
    redate(older.id, new Date(2024, 0, 5));
    const hits = (await search.discover('teal colour scheme')).hits;
    expect(hits.map((hit) => hit.session.id)).toEqual([recent.id, older.id]);
  });

  it('finds CJK text and substrings through the trigram index, and two-character CJK words', async () => {
    const cjk = conversation('中文', ['我们昨天讨论了数据库迁移的问题', '好的']);
    const sub = conversation('infra', ['The postgres replica lags behind.', 'Check the WAL sender.']);
    conversation('other', ['Nothing related here at all.', 'Indeed.']);
    expect((await search.discover('数据库迁移')).hits[0]?.messageId).toBe(cjk.ids[0]);
    expect((await search.discover('迁移')).hits[0]?.messageId).toBe(cjk.ids[0]);
    // "gres" is no word the stemmed index knows: only the trigram index finds it inside "postgres".
    expect((await search.discover('gres')).hits[0]?.messageId).toBe(sub.ids[0]);
  });

  it('fuses semantic neighbours by rank, so a message with no shared word can surface', async () => {
    const lexical = conversation('lexical', ['The invoice total was wrong.', 'I will fix the invoice.']);
    const semanticOnly = conversation('semantic', ['Billing statement figures did not add up.', 'Corrected.']);
    const semantic = async (_query: string, k: number) => [{ messageId: semanticOnly.ids[0] ?? 0, score: 0.9 }].slice(0, k);
    const fused = new SessionSearch(store, { semantic });
    const ids = (await fused.rankMessages('invoice total', 10)).map((hit) => hit.messageId);
    expect(ids).toContain(semanticOnly.ids[0]);
    expect(ids).toContain(lexical.ids[0]);
    // Without the semantic input the lexical ranking cannot see it: the fusion is what adds it.
    expect((await search.rankMessages('invoice total', 10)).map((hit) => hit.messageId)).not.toContain(semanticOnly.ids[0]);
  });
});

describe('scroll and browse', () => {
  it('scrolls around a message within its session only', () => {
    const a = conversation('a', Array.from({ length: 30 }, (_, i) => `line ${i}`));
    conversation('b', ['other session']);
    const around = a.ids[15] ?? 0;
    const result = search.scroll(a.id, around, 3);
    expect(result.messages.map((line) => line.content)).toEqual(['line 12', 'line 13', 'line 14', 'line 15', 'line 16', 'line 17', 'line 18']);
    // At the session edge the window is cut, never filled from another session.
    expect(search.scroll(a.id, a.ids[29] ?? 0, 3).messages.map((line) => line.content)).toEqual(['line 26', 'line 27', 'line 28', 'line 29']);
    expect(renderSearchResult(result)).toContain(`> #${around}`);
  });

  it('browses the most recently updated sessions with title, date, message count and an opening line', () => {
    conversation('first', ['What is a monad?', 'A monoid in the category of endofunctors.']);
    const second = conversation('second', ['Plan my trip to Kyoto.', 'Sure.', 'Thanks']);
    const result = search.browse(10);
    expect(result.sessions[0]).toMatchObject({ id: second.id, title: 'second', messageCount: 3, preview: 'Plan my trip to Kyoto.' });
    expect(result.sessions.map((s) => s.title)).toEqual(['second', 'first']);
    expect(renderSearchResult(result)).toContain('"second"');
  });
});

describe('session_search tool', () => {
  const ctx = toolContext({ workspace: '/tmp' });
  const tool = () => createSessionSearchTool({ search });

  it('infers the shape from the arguments', async () => {
    const s = conversation('Trip', ['Book the train to Lyon.', 'Booked for Friday.']);
    expect((await runTool(tool(), {}, ctx)).content).toContain('most recent session');
    expect((await runTool(tool(), { query: 'train Lyon' }, ctx)).content).toContain('Booked for Friday.');
    const scrolled = await runTool(tool(), { session_id: s.id, around_message_id: s.ids[1] }, ctx);
    expect(scrolled.isError).toBeUndefined();
    expect(scrolled.content).toContain(`> #${s.ids[1]}`);
  });

  it('answers contradictory or incomplete arguments with an error the model can act on', async () => {
    const s = conversation('x', ['hello there', 'hi']);
    const both = await runTool(tool(), { query: 'hello', session_id: s.id, around_message_id: s.ids[0] }, ctx);
    expect(both).toMatchObject({ isError: true });
    expect(both.content).toMatch(/either query .* or session_id/);
    const half = await runTool(tool(), { session_id: s.id }, ctx);
    expect(half).toMatchObject({ isError: true });
    expect(half.content).toContain('around_message_id');
    const missing = await runTool(tool(), { session_id: 'no-such-session', around_message_id: 1 }, ctx);
    expect(missing).toMatchObject({ isError: true, content: expect.stringContaining('No session no-such-session') });
    const elsewhere = conversation('y', ['elsewhere']);
    const wrong = await runTool(tool(), { session_id: s.id, around_message_id: elsewhere.ids[0] }, ctx);
    expect(wrong.content).toContain('is not in session');
    await expect(search.run({ query: '   ' })).rejects.toBeInstanceOf(HearthError);
  });

  it('keeps its output bounded however long the matching messages are', async () => {
    for (let i = 0; i < 12; i++) conversation(`long ${i}`, Array.from({ length: 8 }, () => `kubernetes ingress ${'x'.repeat(5_000)}`));
    const result = await runTool(tool(), { query: 'kubernetes ingress', limit: 10 }, ctx);
    expect(result.content.length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
    expect(result.content).toContain('kubernetes ingress');
  });
});
