import { describe, expect, it } from 'vitest';
import { loadCorpus } from './fixtures/injection-corpus/load.js';
import { KeywordIndex, keywordGate } from '../src/core/safety/injection/keyword-index.js';
import { patternFacts } from '../src/core/safety/injection/rule-literals.js';
import { RuleWindows } from '../src/core/safety/injection/rule-windows.js';
import { allRules, MODEL_RULE, scanForInjection } from '../src/core/safety/injection/scan.js';

/**
 * Rules run on long texts only around the literals their patterns require (rule-windows.ts). These tests
 * pin the reading of the patterns and that a rule finds in a long document what it finds in a short one.
 */
const rulesOnly = (text: string) => scanForInjection(text, { source: 'context_file', ignoreRules: [MODEL_RULE] });
const ruleIds = (text: string) => [...new Set(rulesOnly(text).findings.map((f) => f.rule))].sort();

/** Plain prose no rule reads anything into, long enough that the text is scanned in windows. */
const FILLER = Array.from({ length: 120 }, (_, i) => `Line ${i} of the changelog: the parser got faster and the tables were renamed.`).join('\n');

describe('patternFacts', () => {
  it('reads the literals every match contains, preferring the rarest set', () => {
    // Catches: a reading that takes the leading words ("you", "be"), which occur everywhere.
    const persona = patternFacts(allRules().find((r) => r.id === 'persona_unbound')?.pattern as RegExp);
    expect(persona.literals?.set).toEqual(expect.arrayContaining(['restrictions', 'rules', 'limits']));
    expect(persona.literals?.set).not.toContain('you');
    // Across a top-level alternation: one literal per branch, so each branch is covered.
    expect([...(patternFacts(/\bcurl\s+-d|wget\s+--post/i).literals?.set ?? [])].sort()).toEqual(['--post', 'curl']);
  });

  it('has no literals when a branch requires none, and no short or common ones', () => {
    // Catches: a gate that a match without any of the literals could get past (an unsound window).
    expect(patternFacts(/foo\s+bar|\w+ed/i).literals).toBeNull();
    expect(patternFacts(/\bthe\s+\w+/i).literals).toBeNull();
    expect(patternFacts(/ab\s+cd/i).literals).toBeNull();
  });

  it('bounds matches, counting an unbounded repetition as SPAN characters, and locates anchors', () => {
    const facts = patternFacts(/^ab(?<=x{3})cd[^\n]{0,10}$/);
    expect(facts.maxLength).toBe(14);
    expect(facts.lookbehind).toBe(3);
    expect(facts.anchors).toEqual({ start: [0], end: [25] });
    expect(patternFacts(/(?:^|\n)\s*system:/i).lineAnchored).toBe(true);
    expect(patternFacts(/(?:^|\n|\[)\s*system:/i).lineAnchored).toBe(false);
  });
});

describe('KeywordIndex', () => {
  it('finds every place each keyword matches, for two-character, three-character and longer prefixes', () => {
    // Catches: a prefix table that skips a bucket, compares from the wrong character, or misses the text's end.
    const sources = ['ab', 'abc', String.raw`abcd\s+x`, 'xyz', String.raw`q\-r`, 'in full', 'zz'];
    const gate = keywordGate(sources, 'i');
    const text = 'ABCD x abc ab in  full in full xyzXYZ q-r abcd\n x Ünicode ab\u00e9c zz';
    const expected: Array<[number, number]> = [];
    for (const source of sources) {
      const sticky = new RegExp(source, 'iy');
      for (let at = 0; at < text.length; at++) {
        sticky.lastIndex = at;
        if (sticky.test(text)) expected.push([at, sticky.lastIndex]);
      }
    }
    expect(new KeywordIndex(text).occurrences(gate)).toEqual(expected.sort((a, b) => a[0] - b[0]));
  });
});

describe('RuleWindows', () => {
  it('replaces ^ and $ in windows that do not reach the text ends (they match only there)', () => {
    // Catches: a window starting at a line start letting `^` match mid-document.
    const pattern = /^secret\s+word|trailing\s+secret\s+word$/i;
    const text = `${FILLER}\nsecret word here\n${FILLER}\nand a trailing secret word\n${FILLER}`;
    const windows = new RuleWindows([pattern]);
    windows.prepare(text);
    const found = windows.windows(pattern, text, new KeywordIndex(text));
    expect(found).not.toBeNull();
    expect(found?.length).toBeGreaterThan(0);
    for (const w of found ?? []) {
      w.pattern.lastIndex = 0;
      expect(w.pattern.exec(text.slice(w.start, w.end))).toBeNull();
    }
    expect(pattern.test(text)).toBe(false);
  });

  it('finds a match at the very start and end of the text', () => {
    const pattern = /^secret\s+word|trailing\s+secret\s+word$/i;
    const windows = new RuleWindows([pattern]);
    for (const text of [`secret word\n${FILLER}`, `${FILLER}\ntrailing secret word`]) {
      windows.prepare(text);
      const found = windows.windows(pattern, text, new KeywordIndex(text)) ?? [{ start: 0, end: text.length, pattern: new RegExp(pattern.source, 'gi') }];
      const hits = found.filter((w) => {
        w.pattern.lastIndex = 0;
        return w.pattern.exec(text.slice(w.start, w.end)) !== null;
      });
      expect(hits.length).toBe(1);
    }
  });

  it('returns no windows when no literal occurs (the rule cannot match)', () => {
    const pattern = /\bexfiltrate\s+\w+/i;
    const windows = new RuleWindows([pattern]);
    windows.prepare(FILLER);
    expect(windows.windows(pattern, FILLER, new KeywordIndex(FILLER))).toEqual([]);
  });
});

describe('a long document finds what a short one does', () => {
  const attacks = loadCorpus('attacks');
  it('filler is clean', () => {
    expect(ruleIds(FILLER)).toEqual([]);
  });
  // Catches: a window that cuts a match, a literal set a match can avoid, anchors or look-arounds read
  // differently at a window's edge, or windows met out of order.
  it.each(attacks.map((a) => [a.name, a.text]))('%s: the same rules at the start, middle and end of a long text', (_name, text) => {
    const alone = ruleIds(text);
    expect(ruleIds(`${text}\n${FILLER}`)).toEqual(alone);
    expect(ruleIds(`${FILLER}\n${text}\n${FILLER}`)).toEqual(alone);
    expect(ruleIds(`${FILLER}\n${text}`)).toEqual(alone);
  });
});
