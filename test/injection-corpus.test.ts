import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODEL_RULE, scanForInjection } from '../src/core/safety/injection/scan.js';
import { entryText, insertionPoint, loadCorpus, loadSplit, REPO_ROOT } from './fixtures/injection-corpus/load.js';

const attacks = loadCorpus('attacks');
const clean = loadCorpus('clean');
/** Rules only: the learned model was trained on this corpus, so its verdict here would prove nothing. */
const rulesOnly = (text: string) => scanForInjection(text, { source: 'context_file', ignoreRules: [MODEL_RULE] });

describe('injection corpus (the old corpus, now on the dev side)', () => {
  it('is big enough to mean something (catches a truncated or unreadable corpus file)', () => {
    expect(attacks.length).toBeGreaterThanOrEqual(60);
    expect(clean.length).toBeGreaterThanOrEqual(60);
    expect(new Set(attacks.map((a) => a.name)).size).toBe(attacks.length);
    expect(new Set(clean.map((c) => c.name)).size).toBe(clean.length);
  });

  // Each attack must be flagged by the rules; a miss means a rule stopped matching or a de-obfuscation step broke.
  it.each(attacks.map((a) => [a.name, a.text]))('attack %s is flagged', (_name, text) => {
    const result = rulesOnly(text);
    expect(result.findings.length, JSON.stringify(text)).toBeGreaterThan(0);
    expect(result.verdict).not.toBe('clean');
  });

  // Each clean text must have no rule finding at all; a hit means a rule is too broad for real docs and notes.
  it.each(clean.map((c) => [c.name, c.text]))('clean text %s has no finding', (_name, text) => {
    expect(rulesOnly(text).findings).toEqual([]);
  });

  it('most attacks are blocked outright, not merely suspicious (catches severities quietly lowered to medium)', () => {
    const blocked = attacks.filter((a) => rulesOnly(a.text).verdict === 'blocked');
    expect(blocked.length / attacks.length).toBeGreaterThan(0.85);
  });
});

describe('dev split loader', () => {
  const dev = loadSplit('dev');
  it('parses, and every document it names exists on disk (catches a loader that silently drops file entries)', () => {
    expect(dev).not.toBeNull();
    for (const entry of dev ?? []) if ('file' in entry) expect(existsSync(join(REPO_ROOT, entry.file)), entry.file).toBe(true);
  });

  it('inserts an instruction at a line boundary, at the fraction given (catches an insert split mid-line or at the wrong place)', () => {
    expect(insertionPoint('ab\ncd\nef\n', 0.5)).toBe(6);
    expect(insertionPoint('ab\ncd\nef\n', 0)).toBe(0);
    expect(insertionPoint('no newline', 0.5)).toBe('no newline'.length);
    const withInsert = (dev ?? []).find((e) => 'insert' in e);
    if (withInsert === undefined || !('insert' in withInsert)) throw new Error('the dev split has no document with an inserted instruction');
    const { text, insertedAt } = entryText(withInsert);
    expect(text.slice(insertedAt, (insertedAt ?? 0) + withInsert.insert.length)).toBe(withInsert.insert);
    expect(insertedAt === 0 || text[(insertedAt ?? 1) - 1] === '\n').toBe(true);
  });
});
