import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/core/store/database.js';
import { checkFtsIntegrity } from '../src/core/store/fts-schema.js';
import type { SqliteSessionStore } from '../src/core/store/session-store.js';
import { createTempStore, type TempStore } from './fixtures/temp-store.js';

let temp: TempStore;
let store: SqliteSessionStore;
let sessionId: string;
beforeEach(() => {
  temp = createTempStore('hearth-fts-');
  store = temp.open();
  sessionId = store.createSession({ source: 'cli', model: 'x' }).id;
});
afterEach(() => {
  temp.cleanup();
});

const say = (content: string) => store.appendMessage(sessionId, { role: 'user', content }).id;
const foundIds = (query: string) => store.search(query).map((hit) => hit.messageId);

function rawDb(): Db {
  return openDatabase({ path: temp.path, key: temp.key });
}

describe('search: stemmed English', () => {
  it('finds inflected forms of the query word and ranks the hit with a marked snippet', () => {
    const deployed = say('We deployed the billing service to production yesterday.');
    const deploy = say('The deploy script failed with exit code 2.');
    const other = say('Recipe: fold the egg whites gently into the batter.');
    const ids = foundIds('deploying');
    expect(ids).toContain(deployed);
    expect(ids).toContain(deploy);
    expect(ids).not.toContain(other);
    const hit = store.search('deploying').find((h) => h.messageId === deployed);
    expect(hit?.snippet).toContain('[deployed]');
    expect(hit?.score).toBeGreaterThan(0);
    expect(hit).toMatchObject({ sessionId, role: 'user' });
  });

  // Catches a snippet taken from the wrong message: with the rowid bound as a REAL, FTS5 ignored the rowid
  // filter and every hit showed the snippet of the first matching message.
  it('gives each hit the snippet of its own message', () => {
    const first = say('The kettle in the kitchen whistles loudly.');
    const second = say('Descale the kettle with citric acid monthly.');
    const hits = store.search('kettle');
    expect(hits.find((h) => h.messageId === first)?.snippet).toContain('whistles');
    expect(hits.find((h) => h.messageId === second)?.snippet).toContain('citric');
    expect(hits.find((h) => h.messageId === second)?.snippet).not.toContain('whistles');
  });

  it('requires every word, and falls back to any word only when nothing has them all', () => {
    const both = say('the nginx config needs a reload');
    const one = say('nginx is running');
    expect(foundIds('nginx reload')).toEqual([both]);
    expect(foundIds('nginx teapot').sort()).toEqual([both, one].sort());
  });

  it('indexes tool names and tool-call arguments, not only message text', () => {
    const call = store.appendMessage(sessionId, {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'write_file', arguments: JSON.stringify({ path: '/etc/nginx/sites-enabled/hearth.conf' }) }],
    }).id;
    const result = store.appendMessage(sessionId, { role: 'tool', content: 'ok', toolCallId: 'c1', toolName: 'terminal' }).id;
    expect(foundIds('write_file')).toContain(call);
    expect(foundIds('sites-enabled')).toContain(call);
    expect(foundIds('terminal')).toContain(result);
  });
});

describe('search: CJK and substrings (trigram index)', () => {
  it('finds Chinese text with a 4-character and a 2-character query', () => {
    const migration = say('今天完成了数据迁移，服务器运行正常。');
    const weather = say('明天北京天气晴朗，适合出门散步。');
    expect(foundIds('数据迁移')).toEqual([migration]);
    expect(foundIds('迁移')).toEqual([migration]);
    expect(foundIds('天气')).toEqual([weather]);
    expect(store.search('数据迁移')[0]?.snippet).toContain('[数据迁移]');
    expect(store.search('迁移')[0]?.snippet).toContain('[迁移]');
  });

  it('combines a short CJK term with a longer one', () => {
    const both = say('服务器的数据迁移已完成');
    say('服务器重启了');
    expect(foundIds('服务器 迁移')).toEqual([both]);
  });

  it('finds a substring inside a word ("gres" in "postgres")', () => {
    const pg = say('Switched the app from sqlite to postgres last week.');
    const progress = say('Progress report: nothing new.');
    say('Green light from the release team.');
    expect(foundIds('gres').sort()).toEqual([pg, progress].sort());
    expect(store.search('gres').find((hit) => hit.messageId === pg)?.snippet).toContain('post[gres]');
  });
});

describe('search: user syntax is never FTS syntax', () => {
  it.each(['"', 'AND', '*', '(', ')', 'NEAR(', 'content:', '"unterminated', 'a OR', '-x', '^start', "'", '\\', '%', '_', '{', 'deploy"', '😀', '', '   ', 'x'.repeat(5000)])(
    'query %j does not throw',
    (query) => {
      say('deploy AND release notes (draft) for content: review');
      expect(() => store.search(query)).not.toThrow();
    },
  );

  it('treats operators and wildcards as plain words', () => {
    const id = say('deploy AND release notes (draft)');
    say('unrelated text');
    expect(foundIds('deploy*')).toEqual([id]);
    expect(foundIds('(draft)')).toEqual([id]);
    expect(foundIds('AND')).toEqual([id]);
    expect(foundIds('100%')).toEqual([]);
  });

  it('respects the limit', () => {
    for (let i = 0; i < 30; i++) say(`kubernetes note ${i}`);
    expect(store.search('kubernetes', { limit: 7 })).toHaveLength(7);
    expect(store.search('kubernetes')).toHaveLength(20);
  });
});

describe('search: bounded ranking window', () => {
  it('ranks exactly by bm25 when matches fit the window, and only the newest matches when they do not', () => {
    const windowed = temp.open({ rankWindow: 3 });
    const sid = windowed.createSession({ source: 'cli', model: 'x' }).id;
    const add = (content: string) => windowed.appendMessage(sid, { role: 'user', content }).id;
    const oldBest = add('falcon falcon falcon falcon');
    const weak1 = add('falcon and many other words that dilute the relevance of this message a lot');
    const strong = add('falcon falcon');
    const weak2 = add('falcon plus several more words in here that dilute it');
    // 4 matches > window 3: the oldest (best) one falls outside; the rest come back best first.
    expect(windowed.search('falcon', { limit: 3 }).map((h) => h.messageId)).toEqual([strong, weak2, weak1]);
    // With a window that holds every match, the ranking is exact bm25 over all of them.
    const exact = temp.open({ rankWindow: 100 });
    expect(exact.search('falcon').map((h) => h.messageId).slice(0, 2)).toEqual([oldBest, strong]);
  });
});

describe('FTS stays in sync with messages', () => {
  it('follows updates and deletes, and the integrity check passes', () => {
    const id = say('the old word is marmalade');
    const kept = say('marmalade stays here');
    const db = rawDb();
    db.prepare('UPDATE messages SET content = ? WHERE id = ?').run('the new word is quince, 数据迁移', id);
    expect(foundIds('marmalade')).toEqual([kept]);
    expect(foundIds('quince')).toEqual([id]);
    expect(foundIds('迁移')).toEqual([id]);

    db.prepare('DELETE FROM messages WHERE id = ?').run(id);
    expect(foundIds('quince')).toEqual([]);
    expect(foundIds('数据迁移')).toEqual([]);
    expect(() => checkFtsIntegrity(db)).not.toThrow();
    db.close();
  });

  it('the integrity check detects an index that missed an update (so the test above can fail)', () => {
    const id = say('before the change');
    const db = rawDb();
    db.exec('DROP TRIGGER messages_fts_after_update');
    db.prepare('UPDATE messages SET content = ? WHERE id = ?').run('after the change', id);
    expect(() => checkFtsIntegrity(db)).toThrow();
    db.close();
  });
});
