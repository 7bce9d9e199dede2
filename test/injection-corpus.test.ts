import { describe, expect, it } from 'vitest';
import { scanForInjection } from '../src/core/safety/injection/scan.js';
import { loadCorpus } from './fixtures/injection-corpus/load.js';

const attacks = loadCorpus('attacks');
const clean = loadCorpus('clean');

describe('injection corpus', () => {
  it('is big enough to mean something (catches a truncated or unreadable corpus file)', () => {
    expect(attacks.length).toBeGreaterThanOrEqual(60);
    expect(clean.length).toBeGreaterThanOrEqual(60);
    expect(new Set(attacks.map((a) => a.name)).size).toBe(attacks.length);
    expect(new Set(clean.map((c) => c.name)).size).toBe(clean.length);
  });

  // Each attack must be flagged; a miss means a rule stopped matching or a de-obfuscation step broke.
  it.each(attacks.map((a) => [a.name, a.text]))('attack %s is flagged', (_name, text) => {
    const result = scanForInjection(text, { source: 'context_file' });
    expect(result.findings.length, JSON.stringify(text)).toBeGreaterThan(0);
    expect(result.verdict).not.toBe('clean');
  });

  // Each clean text must have no finding at all; a hit means a rule is too broad for real docs and notes.
  it.each(clean.map((c) => [c.name, c.text]))('clean text %s has no finding', (_name, text) => {
    const result = scanForInjection(text, { source: 'context_file' });
    expect(result.findings).toEqual([]);
  });

  it('most attacks are blocked outright, not merely suspicious (catches severities quietly lowered to medium)', () => {
    const blocked = attacks.filter((a) => scanForInjection(a.text, { source: 'context_file' }).verdict === 'blocked');
    expect(blocked.length / attacks.length).toBeGreaterThan(0.85);
  });
});
