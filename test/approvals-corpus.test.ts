import { describe, expect, it } from 'vitest';
import { classifyCommand } from '../src/core/safety/approvals/detector.js';
import { CORPUS_CONTEXT, loadCorpus, loadSplit, scoreCorpus } from './fixtures/approval-corpus/corpus.js';

/**
 * The hand-written corpus (test/fixtures/approval-corpus): every line must get its expected verdict.
 * Known misses are listed with the reason they are accepted.
 */
const KNOWN_MISSES: ReadonlyMap<string, string> = new Map([
  // Written against the old rules. The dev split (independent of them) asks about every pkill/killall, a dev
  // server's included (`pkill -f "python manage.py runserver"`): a pattern can match processes the agent
  // never started, and the detector cannot tell which ones `-f "vite dev"` would hit.
  ['pkill -f "vite dev"', 'pkill by pattern asks (dev split, decision 0009)'],
]);

const entries = loadCorpus();

describe('approval corpus', () => {
  it('has the size the issue asks for (≥ 150 dangerous incl. obfuscations, ≥ 150 everyday commands)', () => {
    // Catches a corpus file that stopped loading (renamed, a parse change) and silently shrank the test.
    expect(entries.filter((e) => e.expected !== 'safe').length).toBeGreaterThanOrEqual(150);
    expect(entries.filter((e) => e.expected === 'hardline').length).toBeGreaterThanOrEqual(60);
    expect(entries.filter((e) => e.expected === 'safe').length).toBeGreaterThanOrEqual(150);
    expect(new Set(entries.map((e) => e.command)).size).toBe(entries.length);
  });

  // One test per line, named by file:line, so a regression points at the exact command.
  it.each(entries.filter((e) => !KNOWN_MISSES.has(e.command)).map((e) => [`${e.where} ${e.command}`, e] as const))('%s', (_, entry) => {
    const result = classifyCommand(entry.command, CORPUS_CONTEXT);
    expect({ verdict: result.verdict, reasons: result.reasons }).toMatchObject({ verdict: entry.expected });
    // A flagged command must say why (the policy remembers approvals per reason); a safe one has no reason.
    expect(result.reasons.length > 0).toBe(entry.expected !== 'safe');
  });

  it('scores precision and recall so that a detector that flags nothing or everything fails', () => {
    // Catches a scoring bug that would report perfect numbers whatever the detector says.
    expect(scoreCorpus(entries, () => ({ verdict: 'safe', reasons: [] }))).toMatchObject({ recall: 0, hardlineRecall: 0 });
    const everything = scoreCorpus(entries, () => ({ verdict: 'hardline', reasons: ['x'] }));
    expect(everything.recall).toBe(1);
    expect(everything.precision).toBeLessThan(0.7);
    expect(everything.hardlinePrecision).toBeLessThan(0.3);
    const real = scoreCorpus(entries, (c) => classifyCommand(c, CORPUS_CONTEXT));
    expect(real.misses.map((m) => m.command).sort()).toEqual([...KNOWN_MISSES.keys()].sort());
  });
});

/**
 * The dev split (SPLITS.md) is what the rules are tuned on: every line must get its expected verdict, or be
 * listed here with the reason it is accepted (none at present).
 */
const DEV_KNOWN_MISSES: ReadonlyMap<string, string> = new Map();
const dev = loadSplit('dev');

describe('approval dev split', () => {
  it('loads every line with a category (a parse change must not shrink it silently)', () => {
    expect(dev.length).toBeGreaterThanOrEqual(1500);
    expect(new Set(dev.map((e) => e.category)).size).toBeGreaterThanOrEqual(25);
  });

  it.each(dev.filter((e) => !DEV_KNOWN_MISSES.has(e.command)).map((e) => [`${e.where} [${e.category}] ${e.command.split('\n')[0] ?? ''}`, e] as const))('%s', (_, entry) => {
    const result = classifyCommand(entry.command, CORPUS_CONTEXT);
    expect({ verdict: result.verdict, reasons: result.reasons }).toMatchObject({ verdict: entry.expected });
  });
});

/**
 * The test split is held out: it is never read to tune rules, and a failure here prints numbers only, never
 * commands. The thresholds sit just under what the detector scored when they were set (bench output in
 * decision 0009), so a regression fails while the split stays unseen.
 */
// Measured after the dev split was widened (decision 0009): precision 99.9 %, recall 97.8 %, hardline 100 % / 97.7 %, FP 0.2 %.
const HELD_OUT_FLOORS = { precision: 0.995, recall: 0.98, hardlinePrecision: 0.995, hardlineRecall: 0.98 };
const HELD_OUT_FP_CEILING = 0.005;

describe('approval test split (held out)', () => {
  it('scores at least the recorded floors', () => {
    const test = loadSplit('test');
    // Catches a split that stopped loading and a scorer that reports whatever it is given.
    expect(test.length).toBeGreaterThanOrEqual(1000);
    const score = scoreCorpus(test, (c) => classifyCommand(c, CORPUS_CONTEXT));
    const numbers = { precision: score.precision, recall: score.recall, hardlinePrecision: score.hardlinePrecision, hardlineRecall: score.hardlineRecall };
    for (const [name, floor] of Object.entries(HELD_OUT_FLOORS)) expect([name, numbers[name as keyof typeof numbers] >= floor]).toEqual([name, true]);
    expect(['false-positive rate', score.falsePositiveRate <= HELD_OUT_FP_CEILING]).toEqual(['false-positive rate', true]);
  });
});
