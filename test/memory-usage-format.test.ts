import { describe, expect, it } from 'vitest';
import { formatUsage, measure } from '../src/core/memory/usage.js';

describe('memory usage line', () => {
  it('groups thousands as en-US does, without loading ICU number data (catches a wrong or missing separator)', () => {
    for (const n of [0, 7, 999, 1000, 1474, 22000, 1234567]) {
      expect(formatUsage({ used: n, limit: 2200, percent: 0 })).toBe(`0% — ${n.toLocaleString('en-US')}/2,200 chars`);
    }
    expect(formatUsage(measure(['a'.repeat(1474)], 2200))).toBe('67% — 1,474/2,200 chars');
  });
});
