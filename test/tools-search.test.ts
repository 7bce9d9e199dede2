import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchFilesTool } from '../src/core/tools/search-files.js';
import { runTool, toolContext } from './fixtures/tool-harness.js';

const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-search-test-')));
beforeAll(() => {
  mkdirSync(join(workspace, 'src/lib'), { recursive: true });
  mkdirSync(join(workspace, 'node_modules/dep'), { recursive: true });
  mkdirSync(join(workspace, '.hidden'), { recursive: true });
  writeFileSync(join(workspace, 'src/main.ts'), 'import { helper } from "./lib/helper";\nexport function main() {\n  return helper(42);\n}\n');
  writeFileSync(join(workspace, 'src/lib/helper.ts'), 'export function helper(n: number) {\n  return n * 2;\n}\n');
  writeFileSync(join(workspace, 'src/lib/notes.md'), '# helper notes\nTODO: document helper\n');
  writeFileSync(join(workspace, 'node_modules/dep/index.js'), 'function helper() {}\n');
  writeFileSync(join(workspace, '.hidden/secret.ts'), 'export const helper = 1;\n');
});
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

// The same expectations run against ripgrep and against the Node fallback: the two must agree.
describe.each([
  ['ripgrep', 'auto' as const],
  ['node fallback', 'never' as const],
])('search_files (%s)', (_label, ripgrep) => {
  const tool = createSearchFilesTool({ ripgrep });
  const search = (args: Record<string, unknown>) => runTool(tool, args, toolContext({ workspace }));

  it('finds content as path:line:text, sorted, skipping hidden dirs and node_modules', async () => {
    const result = await search({ pattern: 'function helper' });
    expect(result.content).toBe('src/lib/helper.ts:1:export function helper(n: number) {\n[1 matches.]');
  });

  it('regexes work and file_glob restricts the files searched', async () => {
    const all = await search({ pattern: 'helper\\(\\d+\\)|TODO' });
    expect(all.content.split('\n').slice(0, -1)).toEqual(['src/lib/notes.md:2:TODO: document helper', 'src/main.ts:3:  return helper(42);']);
    const onlyTs = await search({ pattern: 'helper', file_glob: '*.ts' });
    expect(onlyTs.content).not.toContain('notes.md');
    expect(onlyTs.content).toContain('src/main.ts:1:');
  });

  it('finds files by glob or by part of the name', async () => {
    expect((await search({ pattern: '*.ts', target: 'files' })).content).toBe('src/lib/helper.ts\nsrc/main.ts\n[2 files.]');
    expect((await search({ pattern: 'NOTES', target: 'files' })).content).toBe('src/lib/notes.md\n[1 files.]');
  });

  it('respects limit and says there are more', async () => {
    const result = await search({ pattern: 'helper', limit: 2 });
    const lines = result.content.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/First 2 matches shown; there are more/);
  });

  it('searches under a sub-path and says when nothing matched', async () => {
    expect((await search({ pattern: 'main', path: 'src/lib' })).content).toBe('No matches for "main" in src/lib.');
    expect((await search({ pattern: 'x', path: 'missing' })).content).toMatch(/Path not found/);
  });

  it('an invalid regex is an error result, not an exception', async () => {
    const result = await search({ pattern: '(unclosed' });
    expect(result.isError).toBe(true);
  });
});
