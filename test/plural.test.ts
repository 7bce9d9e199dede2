import { describe, expect, it } from 'vitest';
import { renderSearchResult } from '../src/core/search/render-results.js';
import { countOf, pluralForm } from '../src/shared/plural.js';

/** Counted nouns through Intl.PluralRules (decision 0018): one helper for the engine, the CLI and the renderer. */
describe('plural forms', () => {
  it('says "1 match" and "0 matches", "2 matches" in English (catches "1 matches")', () => {
    expect(countOf(1, 'match', 'matches')).toBe('1 match');
    expect(countOf(0, 'match', 'matches')).toBe('0 matches');
    expect(countOf(2, 'match', 'matches')).toBe('2 matches');
    // 1.5 is not "one" in English plural rules.
    expect(countOf(1.5, 'file', 'files')).toBe('1.5 files');
  });

  it('follows each language\'s own categories, and falls back to other when a form is missing', () => {
    const ru = { one: 'файл', few: 'файла', many: 'файлов', other: 'файла' };
    expect([1, 2, 5, 21].map((n) => pluralForm('ru', n, ru))).toEqual(['файл', 'файла', 'файлов', 'файл']);
    expect(pluralForm('zh-CN', 1, { one: 'never used', other: '个文件' })).toBe('个文件');
    expect(pluralForm('ru', 5, { one: 'файл', other: 'файлы' })).toBe('файлы');
  });

  it('is what session_search prints for one hit in a one-message session', () => {
    const at = Date.UTC(2026, 0, 5);
    const session = { id: 's1', title: 'Deploys', startedAt: at, updatedAt: at, messageCount: 1 };
    const text = renderSearchResult({
      kind: 'discovery',
      query: 'deploy',
      hits: [{ session, messageId: 1, score: 1, window: [{ id: 1, role: 'user', content: 'deploy on Friday', createdAt: at }], bookends: { first: [], last: [] } }],
    });
    expect(text).toMatch(/^1 match for "deploy"/);
    expect(text).toContain('· 1 message\n');
  });
});
