import { applyPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../src/core/text/unified-diff.js';

/**
 * The diff `patch` returns to the model and a staged write shows the user. Every diff here is also applied
 * back with jsdiff's own patch reader: a diff with wrong line numbers or a lost line fails that, not just a
 * string comparison.
 */
const opts = { fromFile: 'a/notes.md', toFile: 'b/notes.md' };
const lines = (n: number, prefix: string): string => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`).join('\n') + '\n';

describe('unifiedDiff', () => {
  it('prints only --- / +++ headers and hunks (catches an Index: or ==== line leaking from jsdiff)', () => {
    expect(unifiedDiff('one\ntwo\n', 'one\nTWO\n', opts)).toBe('--- a/notes.md\n+++ b/notes.md\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n');
  });

  it('shows a change of only the final newline instead of calling the texts equal', () => {
    const diff = unifiedDiff('x\n', 'x', opts);
    expect(diff).toContain('\\ No newline at end of file');
    expect(applyPatch('x\n', diff)).toBe('x');
  });

  it('diffs creation from nothing and deletion to nothing with the 0-line convention', () => {
    expect(unifiedDiff('', 'new\n', opts)).toContain('@@ -0,0 +1,1 @@');
    expect(unifiedDiff('gone\n', '', opts)).toContain('@@ -1,1 +0,0 @@');
    expect(applyPatch('', unifiedDiff('', 'new\n', opts))).toBe('new\n');
  });

  it('aligns an ordinary edit in a long file and the diff applies back', () => {
    const before = lines(10_000, 'line ');
    const after = before.replace('line 5000\n', 'changed\nadded\n');
    const diff = unifiedDiff(before, after, opts);
    expect(diff.split('\n').filter((l) => /^[-+][^-+]/.test(l))).toEqual(['-line 5000', '+changed', '+added']);
    expect(applyPatch(before, diff)).toBe(after);
  });

  it('shows an edit too large to align as one replaced block that still applies (catches a multi-second diff of a rewrite)', () => {
    const before = `keep1\nkeep2\n${lines(3000, 'old ')}tail1\ntail2\n`;
    const after = `keep1\nkeep2\n${lines(3000, 'new ')}tail1\ntail2\n`;
    const diff = unifiedDiff(before, after, opts);
    expect(diff.match(/^@@/gm)).toHaveLength(1);
    expect(diff).toContain('@@ -1,3004 +1,3004 @@');
    expect(applyPatch(before, diff)).toBe(after);
  });
});
