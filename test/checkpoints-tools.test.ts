import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointManager, createCheckpointHook } from '../src/core/checkpoints/manager.js';
import { isProjectFolder, projectRootFor } from '../src/core/checkpoints/project-root.js';
import type { UserUpdate } from '../src/core/tools/define.js';
import { patchTool } from '../src/core/tools/patch.js';
import { writeFileTool } from '../src/core/tools/write-file.js';
import { checkpointSandbox, projectGit, storeFor, writeFiles } from './fixtures/checkpoint-projects.js';
import { runTool, toolContext } from './fixtures/tool-harness.js';

const { base, home } = checkpointSandbox();
afterAll(() => rmSync(base, { recursive: true, force: true }));
let counter = 0;
function workspace(files: Record<string, string>): string {
  const root = join(base, `ws-${++counter}`);
  mkdirSync(root);
  writeFiles(root, files);
  return root;
}

function wired(root: string, settings = {}) {
  const manager = new CheckpointManager(storeFor(home, settings));
  const notices: UserUpdate[] = [];
  const checkpoint = createCheckpointHook(manager, { sessionId: 's1', workspace: root, notify: (u) => notices.push(u) });
  return { manager, notices, ctx: toolContext({ workspace: root, checkpoint }) };
}

describe('file tools take a checkpoint before they change a file', () => {
  it('write_file: the checkpoint holds the file as it was, so the overwrite can be rolled back', async () => {
    const root = workspace({ 'notes.md': 'original\n' });
    const { manager, ctx } = wired(root);
    const result = await runTool(writeFileTool, { path: 'notes.md', content: 'overwritten\n' }, ctx);
    expect(result.isError).toBeUndefined();
    const [checkpoint] = await manager.store.list(root);
    expect(checkpoint?.reason).toBe('before write_file notes.md');
    await manager.store.rollback(root, 1);
    expect(readFileSync(join(root, 'notes.md'), 'utf8')).toBe('original\n');
  });

  it('patch: a successful patch is checkpointed first; a patch whose text is not found takes none', async () => {
    const root = workspace({ 'app.ts': 'const a = 1;\n' });
    const { manager, ctx } = wired(root);
    const missed = await runTool(patchTool, { path: 'app.ts', old_string: 'nowhere', new_string: 'x' }, ctx);
    expect(missed.isError).toBe(true);
    expect(await manager.store.list(root)).toEqual([]);
    await runTool(patchTool, { path: 'app.ts', old_string: 'const a = 1;', new_string: 'const a = 2;' }, ctx);
    expect((await manager.store.list(root)).map((c) => c.reason)).toEqual(['before patch app.ts']);
    await manager.store.rollback(root, 1);
    expect(readFileSync(join(root, 'app.ts'), 'utf8')).toBe('const a = 1;\n');
  });

  it('write_file onto a directory (a validation failure) takes no checkpoint', async () => {
    const root = workspace({ 'dir/inner.txt': 'x\n' });
    const { manager, ctx } = wired(root);
    expect((await runTool(writeFileTool, { path: 'dir', content: 'x' }, ctx)).isError).toBe(true);
    expect(await manager.store.list(root)).toEqual([]);
  });

  it('one checkpoint per project per turn: rolling back to it undoes the whole turn', async () => {
    const root = workspace({ 'a.txt': 'a0\n', 'b.txt': 'b0\n' });
    const { manager, ctx } = wired(root);
    manager.beginTurn('s1');
    await Promise.all([
      runTool(writeFileTool, { path: 'a.txt', content: 'a1\n' }, ctx),
      runTool(writeFileTool, { path: 'b.txt', content: 'b1\n' }, ctx),
    ]);
    await runTool(writeFileTool, { path: 'a.txt', content: 'a2\n' }, ctx);
    expect((await manager.store.list(root)).length).toBe(1);
    manager.beginTurn('s1');
    await runTool(writeFileTool, { path: 'c.txt', content: 'c\n' }, ctx);
    expect((await manager.store.list(root)).length).toBe(2);
    await manager.store.rollback(root, 2);
    expect([readFileSync(join(root, 'a.txt'), 'utf8'), readFileSync(join(root, 'b.txt'), 'utf8')]).toEqual(['a0\n', 'b0\n']);
  });

  it('a checkpoint that cannot be taken is a warning to the user (once), and the write still happens', async () => {
    const root = workspace(Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`f${i}.txt`, `${i}\n`])));
    const { notices, ctx } = wired(root, { max_files: 2 });
    await runTool(writeFileTool, { path: 'f0.txt', content: 'new\n' }, ctx);
    await runTool(writeFileTool, { path: 'f1.txt', content: 'new\n' }, ctx);
    expect(readFileSync(join(root, 'f1.txt'), 'utf8')).toBe('new\n');
    expect(notices).toEqual([
      { kind: 'notice', level: 'warning', message: expect.stringMatching(/^No checkpoint taken before write_file f0\.txt: .*more than 2 files.*goes ahead/) },
    ]);
  });
});

describe('which project a change belongs to', () => {
  it('the workspace for paths inside it; outside, the nearest folder with .git, else the file\'s folder', () => {
    const root = workspace({ 'src/x.ts': '' });
    const repo = workspace({ 'lib/deep/y.ts': '' });
    projectGit(repo, ['init', '--quiet']);
    const loose = workspace({ 'notes/z.md': '' });
    expect(projectRootFor(join(root, 'src/x.ts'), 'file', root)).toBe(root);
    expect(projectRootFor(join(repo, 'lib/deep/y.ts'), 'file', root)).toBe(repo);
    expect(projectRootFor(join(repo, 'lib'), 'dir', root)).toBe(repo);
    expect(projectRootFor(join(loose, 'notes/z.md'), 'file', root)).toBe(join(loose, 'notes'));
  });

  it('a write outside the workspace is checkpointed in that file\'s own project', async () => {
    const root = workspace({});
    const other = workspace({ 'README.md': 'theirs\n' });
    projectGit(other, ['init', '--quiet']);
    const { manager, ctx } = wired(root);
    writeFileSync(join(other, 'README.md'), 'theirs\n');
    await runTool(writeFileTool, { path: join(other, 'README.md'), content: 'ours\n' }, ctx);
    expect(await manager.store.list(root)).toEqual([]);
    expect((await manager.store.list(other)).length).toBe(1);
  });

  it('the root, a home directory or a system directory is never snapshotted whole (catches `~/.bashrc` copying the home)', async () => {
    expect(['/', '/home', '/etc', '/usr', '/root', '/home/someone', homedir()].filter((dir) => isProjectFolder(dir))).toEqual([]);
    expect(isProjectFolder(join(homedir(), 'src', 'app'))).toBe(true);
    const root = workspace({});
    const { manager, notices } = wired(root);
    const hook = createCheckpointHook(manager, { sessionId: 's1', workspace: root, notify: (u) => notices.push(u) });
    await hook({ reason: 'before rm -rf x', cwd: '/' });
    await hook({ reason: 'before rm y', cwd: '/' });
    expect(notices).toEqual([{ kind: 'notice', level: 'info', message: expect.stringMatching(/^No checkpoint taken before rm -rf x: \/ is not a project folder/) }]);
  });
});
