import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { ToolDefinition, ToolResult } from '../src/core/tools/define.js';
import { patchTool } from '../src/core/tools/patch.js';
import { readFileTool } from '../src/core/tools/read-file.js';
import { unifiedDiff } from '../src/core/text/unified-diff.js';
import { writeFileTool } from '../src/core/tools/write-file.js';
import { runTool, toolContext } from './fixtures/tool-harness.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-files-test-')));
let workspace = root;
let counter = 0;
beforeEach(() => {
  counter += 1;
  workspace = join(root, `ws${counter}`);
  mkdirSync(workspace);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const call = <I>(tool: ToolDefinition<I>, args: unknown): Promise<ToolResult> => runTool(tool, args, toolContext({ workspace }));

describe('read_file', () => {
  it('shows numbered lines and pages with offset/limit, saying how to continue', async () => {
    writeFileSync(join(workspace, 'big.txt'), Array.from({ length: 1200 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    const first = await call(readFileTool, { path: 'big.txt' });
    const lines = first.content.split('\n');
    expect(lines[0]).toBe('  1|line 1');
    expect(lines[499]).toBe('500|line 500');
    expect(first.content).toContain('[Lines 1-500 of 1200. Continue with offset=501.]');
    const last = await call(readFileTool, { path: 'big.txt', offset: 1101, limit: 500 });
    expect(last.content.split('\n')[0]).toBe('1101|line 1101');
    expect(last.content).toContain('[Lines 1101-1200 of 1200; end of file.]');
  });

  it('a missing file suggests similar names', async () => {
    writeFileSync(join(workspace, 'config.yaml'), 'a: 1\n');
    const result = await call(readFileTool, { path: 'config.yml' });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('File not found: config.yml');
    expect(result.content).toContain('Did you mean: config.yaml?');
  });

  it('refuses binary files and directories with an explanation', async () => {
    writeFileSync(join(workspace, 'blob.bin'), Buffer.from([1, 0, 2, 0]));
    expect((await call(readFileTool, { path: 'blob.bin' })).content).toMatch(/binary/);
    expect((await call(readFileTool, { path: '.' })).content).toMatch(/is a directory/);
  });

  it('an offset past the end is an error that states the length', async () => {
    writeFileSync(join(workspace, 'short.txt'), 'a\nb\n');
    const result = await call(readFileTool, { path: 'short.txt', offset: 10 });
    expect(result).toMatchObject({ isError: true });
    expect(result.content).toContain('has 2 lines');
  });
});

describe('write_file', () => {
  it('creates parent directories and reports created vs overwritten', async () => {
    const created = await call(writeFileTool, { path: 'a/b/c.txt', content: 'x\ny\n' });
    expect(created.content).toBe('Created a/b/c.txt (4 bytes, 2 lines).');
    expect(readFileSync(join(workspace, 'a/b/c.txt'), 'utf8')).toBe('x\ny\n');
    const again = await call(writeFileTool, { path: join(workspace, 'a/b/c.txt'), content: 'z' });
    expect(again.content).toMatch(/^Overwrote a\/b\/c.txt/);
    expect(readFileSync(join(workspace, 'a/b/c.txt'), 'utf8')).toBe('z');
  });
});

describe('patch', () => {
  it('replaces an exact match and returns a unified diff', async () => {
    writeFileSync(join(workspace, 'app.ts'), 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
    const result = await call(patchTool, { path: 'app.ts', old_string: 'const b = 2;', new_string: 'const b = 20;' });
    expect(readFileSync(join(workspace, 'app.ts'), 'utf8')).toBe('const a = 1;\nconst b = 20;\nconst c = 3;\n');
    expect(result.content).toContain('--- a/app.ts\n+++ b/app.ts\n@@ -1,3 +1,3 @@\n const a = 1;\n-const b = 2;\n+const b = 20;\n const c = 3;\n');
  });

  it('falls back to a whitespace-tolerant match and keeps the file\'s indentation', async () => {
    writeFileSync(join(workspace, 'f.py'), 'def f():\n    if x:  \n        return 1\n    return 2\n');
    // The model lost the indentation and the trailing spaces.
    const result = await call(patchTool, { path: 'f.py', old_string: 'if x:\n    return 1', new_string: 'if x:\n    return 10' });
    expect(result.isError).toBeFalsy();
    expect(result.content).toContain('matched ignoring whitespace');
    expect(readFileSync(join(workspace, 'f.py'), 'utf8')).toBe('def f():\n    if x:\n        return 10\n    return 2\n');
  });

  it('keeps CRLF line endings when the model sends LF', async () => {
    writeFileSync(join(workspace, 'win.txt'), 'one\r\ntwo\r\nthree\r\n');
    await call(patchTool, { path: 'win.txt', old_string: 'two\nthree', new_string: 'TWO\nthree' });
    expect(readFileSync(join(workspace, 'win.txt'), 'utf8')).toBe('one\r\nTWO\r\nthree\r\n');
  });

  it('an ambiguous match is an error naming the lines, and the file is untouched', async () => {
    const text = 'x = 1\ny = 2\nx = 1\n';
    writeFileSync(join(workspace, 'dup.txt'), text);
    const result = await call(patchTool, { path: 'dup.txt', old_string: 'x = 1', new_string: 'x = 9' });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('matches 2 places');
    expect(result.content).toContain('lines 1, 3');
    expect(readFileSync(join(workspace, 'dup.txt'), 'utf8')).toBe(text);
    const all = await call(patchTool, { path: 'dup.txt', old_string: 'x = 1', new_string: 'x = 9', replace_all: true });
    expect(all.content).toContain('2 replacements');
    expect(readFileSync(join(workspace, 'dup.txt'), 'utf8')).toBe('x = 9\ny = 2\nx = 9\n');
  });

  it('a whitespace-tolerant match that is ambiguous is also refused', async () => {
    writeFileSync(join(workspace, 'ws.txt'), '  a\n  b\n\n\ta\n\tb\n');
    const result = await call(patchTool, { path: 'ws.txt', old_string: 'a\nb', new_string: 'c' });
    expect(result).toMatchObject({ isError: true });
    expect(result.content).toContain('lines 1, 4');
  });

  it('not found: error, file untouched; new_string with $& stays literal', async () => {
    writeFileSync(join(workspace, 'n.txt'), 'price: 5\n');
    expect((await call(patchTool, { path: 'n.txt', old_string: 'cost: 5', new_string: 'cost: 6' })).content).toMatch(/was not found/);
    await call(patchTool, { path: 'n.txt', old_string: '5', new_string: '$&$1 dollars' });
    expect(readFileSync(join(workspace, 'n.txt'), 'utf8')).toBe('price: $&$1 dollars\n');
  });
});

describe('unifiedDiff', () => {
  it('produces separate hunks for distant changes with correct line numbers', () => {
    const before = Array.from({ length: 30 }, (_, i) => `l${i + 1}`).join('\n') + '\n';
    const after = before.replace('l2\n', 'L2\n').replace('l28\n', 'l28\nnew\n');
    expect(unifiedDiff(before, after, { fromFile: 'a', toFile: 'b' })).toBe(
      ['--- a', '+++ b', '@@ -1,5 +1,5 @@', ' l1', '-l2', '+L2', ' l3', ' l4', ' l5', '@@ -26,5 +26,6 @@', ' l26', ' l27', ' l28', '+new', ' l29', ' l30', ''].join('\n'),
    );
  });

  it('is empty when nothing changed', () => {
    expect(unifiedDiff('a\n', 'a\n', { fromFile: 'a', toFile: 'b' })).toBe('');
  });
});
