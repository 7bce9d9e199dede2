// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { en } from '../../src/renderer/i18n/en.js';
import { dictionaries, translate } from '../../src/renderer/i18n/i18n.js';
import { zhCN } from '../../src/renderer/i18n/zh-CN.js';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

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
});
