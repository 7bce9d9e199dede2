// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { en } from '../../src/renderer/i18n/en.js';
import { dictionaries, translate } from '../../src/renderer/i18n/i18n.js';
import { zhCN } from '../../src/renderer/i18n/zh-CN.js';

/** `{name}` and the name of a plural `{name, plural, …}`. */
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)(?:\}|, plural,)/g)].map((m) => m[1]).sort();

describe('i18n dictionaries', () => {
  it('English and Simplified Chinese have exactly the same keys', () => {
    // Catches a string added in one language only (the UI would show a raw key or undefined).
    expect(Object.keys(zhCN).sort()).toEqual(Object.keys(en).sort());
  });

  it('no string is empty in either language', () => {
    // Catches a placeholder "" left in a dictionary: a button with no label.
    for (const [language, dictionary] of Object.entries(dictionaries)) {
      for (const [key, text] of Object.entries(dictionary)) expect(text.trim(), `${language} ${key}`).not.toBe('');
    }
  });

  it('each translation uses the same {placeholders} as the English', () => {
    // Catches a translated string that drops or renames a value ("{count} matches" → "条匹配").
    for (const key of Object.keys(en) as (keyof typeof en)[]) expect(placeholders(zhCN[key]), key).toEqual(placeholders(en[key]));
  });

  it('the Chinese dictionary is actually Chinese, not copied English', () => {
    // Catches a "translation" that is the English file copied over.
    const same = (Object.keys(en) as (keyof typeof en)[]).filter((k) => en[k] === zhCN[k]);
    expect(same.length / Object.keys(en).length).toBeLessThan(0.1);
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    // Catches a missing value silently rendering as "" (or "undefined").
    expect(translate('en', 'sessions.results', { count: 3 })).toBe('3 matches');
    expect(translate('zh-CN', 'sessions.results', { count: 3 })).toBe('3 条匹配');
    expect(translate('en', 'sessions.results')).toBe('{count} matches');
  });

  it('picks the plural form by the language\'s rules (catches "1 matches")', () => {
    expect(translate('en', 'sessions.results', { count: 1 })).toBe('1 match');
    expect(translate('en', 'sessions.results', { count: 0 })).toBe('0 matches');
    expect(translate('en', 'safety.files', { count: 1 })).toBe('1 file changed');
    expect(translate('en', 'safety.restored', { restored: 1, removed: 2 })).toMatch(/^Restored 1 file and removed 2\./);
    expect(translate('en', 'sessions.meta', { count: 1, model: 'm', date: 'd' })).toBe('1 message · m · d');
    // Chinese has one form; its strings need no plural and keep their plain placeholder.
    expect(translate('zh-CN', 'sessions.results', { count: 1 })).toBe('1 条匹配');
  });

  it('writes every English count of things as a plural, so no new "{count} matches" slips in', () => {
    // A count of things followed by a plural English noun is a message that says "1 matches" for one. (Token
    // and character totals, {used} tokens, are never 1 in practice and may stay plain.)
    const bare = (Object.entries(en) as [string, string][]).filter(([, text]) => /\{(count|\w+Count|messages|restored|removed|files)\} [a-z]+s\b/.test(text));
    expect(bare).toEqual([]);
    expect(/\{(count|\w+Count|messages|restored|removed|files)\} [a-z]+s\b/.test('{count} matches')).toBe(true);
  });
});
