import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shadowLocation } from '../src/core/checkpoints/project-root.js';
import { isHearthError } from '../src/core/errors.js';
import { checkpointSandbox, projectGit, snapshotOfFiles, storeFor, writeFiles } from './fixtures/checkpoint-projects.js';

const { base, home } = checkpointSandbox();
afterAll(() => rmSync(base, { recursive: true, force: true }));
let counter = 0;
function project(files: Record<string, string>): string {
  const root = join(base, `project-${++counter}`);
  mkdirSync(root);
  writeFiles(root, files);
  return root;
}

/** Does the shadow store still hold this object? (Pruning must free what dropped checkpoints held.) */
function shadowHasObject(root: string, id: string): boolean {
  try {
    execFileSync('git', ['--git-dir', shadowLocation(home, root).gitDir, 'cat-file', '-e', id], { stdio: 'ignore' });
    return true;
  } catch {
    // cat-file -e exits 1 for a missing object: that is the answer, not a failure.
    return false;
  }
}

describe('checkpoint store: snapshot, list, diff, rollback', () => {
  it('restores changed and deleted files, removes created ones and their empty folders, and the rollback can be undone', async () => {
    const store = storeFor(home);
    const root = project({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n', 'sub/c.txt': 'gamma\n' });
    const original = snapshotOfFiles(root);
    const first = await store.snapshot(root, 'before write_file a.txt');
    expect(first).toMatchObject({ number: 1, reason: 'before write_file a.txt', filesChanged: 3 });

    writeFileSync(join(root, 'a.txt'), 'changed\n');
    unlinkSync(join(root, 'b.txt'));
    writeFiles(root, { 'new.txt': 'fresh\n', 'made/deep/x.txt': 'x\n' });
    const edited = snapshotOfFiles(root);

    const diff = await store.diff(root, 1);
    expect(diff).toContain('-alpha\n+changed');
    expect(diff).toMatch(/deleted file mode[\s\S]*-beta/);
    expect(diff).toMatch(/new file mode[\s\S]*\+fresh/);

    expect(await store.preview(root, 1)).toEqual({ restore: ['a.txt', 'b.txt'], remove: ['made/deep/x.txt', 'new.txt'] });
    expect(snapshotOfFiles(root)).toEqual(edited); // a preview changes nothing

    const result = await store.rollback(root, 1);
    expect(result.restored).toEqual(['a.txt', 'b.txt']);
    expect(result.removed).toEqual(['made/deep/x.txt', 'new.txt']);
    expect(snapshotOfFiles(root)).toEqual(original);
    expect(existsSync(join(root, 'made'))).toBe(false);
    expect(await store.diff(root, 2)).toBe('');

    // The state before the rollback became checkpoint 1: rolling back to it undoes the rollback.
    const list = await store.list(root);
    expect(list.map((c) => c.reason)).toEqual([expect.stringMatching(/^before rollback to checkpoint 1/), 'before write_file a.txt']);
    expect(result.undo?.id).toBe(list[0]?.id);
    await store.rollback(root, 1);
    expect(snapshotOfFiles(root)).toEqual(edited);
  });

  it('a project that is a git repository keeps its HEAD, index and status byte-identical, and ignored files are left alone', async () => {
    const root = project({ 'tracked.txt': 'one\n', 'staged.txt': 'two\n', '.gitignore': 'build/\n' });
    projectGit(root, ['init', '--quiet']);
    projectGit(root, ['add', '.']);
    projectGit(root, ['commit', '--quiet', '-m', 'initial']);
    writeFileSync(join(root, 'staged.txt'), 'two, staged\n');
    projectGit(root, ['add', 'staged.txt']);
    writeFiles(root, { 'untracked.txt': 'loose\n', 'build/out.js': 'generated\n' });
    const gitState = (): unknown => ({
      head: readFileSync(join(root, '.git', 'HEAD')),
      index: readFileSync(join(root, '.git', 'index')),
      commit: projectGit(root, ['rev-parse', 'HEAD']),
      status: projectGit(root, ['status', '--porcelain', '--ignored']),
      refs: projectGit(root, ['for-each-ref']),
    });
    const before = gitState();

    const store = storeFor(home);
    const checkpoint = await store.snapshot(root, 'before patch tracked.txt');
    expect(checkpoint?.filesChanged).toBe(4); // .gitignore, tracked, staged, untracked: not .git, not build/
    expect(gitState()).toEqual(before);

    writeFileSync(join(root, 'tracked.txt'), 'edited by the agent\n');
    writeFiles(root, { 'build/later.js': 'made after the checkpoint, but ignored\n' });
    const diff = await store.diff(root, 1);
    expect(diff).not.toMatch(/\.git\/|build\//);
    await store.rollback(root, 1);

    expect(readFileSync(join(root, 'tracked.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(root, 'build/later.js'), 'utf8')).toContain('ignored'); // not the store's to remove
    rmSync(join(root, 'build/later.js'));
    expect(gitState()).toEqual(before);
  });
});

describe('checkpoint store: dedupe and limits', () => {
  it('takes no new checkpoint when nothing a snapshot holds has changed (ignored files do not count)', async () => {
    const store = storeFor(home);
    const root = project({ 'a.txt': 'a\n', '.gitignore': '*.log\n' });
    expect(await store.snapshot(root, 'first')).not.toBeNull();
    expect(await store.snapshot(root, 'same files')).toBeNull();
    writeFileSync(join(root, 'debug.log'), 'noise\n');
    expect(await store.snapshot(root, 'only an ignored file changed')).toBeNull();
    expect((await store.list(root)).length).toBe(1);
  });

  it('parallel snapshots of one project queue instead of colliding on the shadow index lock', async () => {
    const store = storeFor(home);
    const root = project({ 'a.txt': 'a\n' });
    const results = await Promise.all([store.snapshot(root, 'one'), store.snapshot(root, 'two'), store.snapshot(root, 'three')]);
    expect(results.filter((r) => r !== null).length).toBe(1);
  });

  it('keeps at most max_count checkpoints and frees the objects of the dropped ones', async () => {
    const store = storeFor(home, { max_count: 3 });
    const root = project({});
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) {
      writeFileSync(join(root, 'counter.txt'), `version ${i}\n`);
      ids.push((await store.snapshot(root, `snapshot ${i}`))?.id ?? '');
    }
    expect((await store.list(root)).map((c) => c.reason)).toEqual(['snapshot 5', 'snapshot 4', 'snapshot 3']);
    expect(shadowHasObject(root, ids[0] ?? '')).toBe(false);
    expect(shadowHasObject(root, ids[4] ?? '')).toBe(true);
    // Numbers follow the kept checkpoints: 3 is the oldest one left.
    await store.rollback(root, 3);
    expect(readFileSync(join(root, 'counter.txt'), 'utf8')).toBe('version 3\n');
  });

  it('drops checkpoints older than max_age_days when the next one is taken', async () => {
    let now = Date.UTC(2025, 0, 1);
    const store = storeFor(home, { max_age_days: 30 }, () => now);
    const root = project({ 'a.txt': 'day 0\n' });
    await store.snapshot(root, 'day 0');
    now += 10 * 86_400_000;
    writeFileSync(join(root, 'a.txt'), 'day 10\n');
    await store.snapshot(root, 'day 10');
    now += 25 * 86_400_000;
    writeFileSync(join(root, 'a.txt'), 'day 35\n');
    await store.snapshot(root, 'day 35');
    const list = await store.list(root);
    expect(list.map((c) => c.reason)).toEqual(['day 35', 'day 10']);
    expect(list[0]?.time.toISOString()).toBe('2025-02-05T00:00:00.000Z');
  });

  it('leaves files over max_file_mb out of snapshots, and a rollback never touches them', async () => {
    const store = storeFor(home, { max_file_mb: 0.001 }); // about 1 KB
    const root = project({ 'small.txt': 'small\n', 'big.bin': 'x'.repeat(2000) });
    expect((await store.snapshot(root, 'first'))?.filesChanged).toBe(1);
    writeFileSync(join(root, 'small.txt'), 'edited\n');
    writeFileSync(join(root, 'big.bin'), 'y'.repeat(3000));
    expect(await store.diff(root, 1)).not.toContain('big.bin');
    await store.rollback(root, 1);
    expect(readFileSync(join(root, 'small.txt'), 'utf8')).toBe('small\n');
    expect(readFileSync(join(root, 'big.bin'), 'utf8')).toBe('y'.repeat(3000));
  });

  it('a file that grows past the limit leaves the next snapshot instead of being hashed again', async () => {
    const store = storeFor(home, { max_file_mb: 0.001 });
    const root = project({ 'grows.txt': 'short\n' });
    await store.snapshot(root, 'small');
    writeFileSync(join(root, 'grows.txt'), 'z'.repeat(5000));
    const second = await store.snapshot(root, 'grown');
    expect(second?.filesChanged).toBe(1); // the file left the snapshot
    expect(await store.preview(root, 1)).toEqual({ restore: [], remove: [] });
  });

  it('refuses a project with more than max_files files, counting only what .gitignore lets through', async () => {
    const store = storeFor(home, { max_files: 5 });
    const root = project(Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`deps/f${i}.js`, `${i}\n`])));
    writeFiles(root, { 'main.js': 'main\n' });
    const refused = await store.snapshot(root, 'too big').catch((err: unknown) => err);
    expect(isHearthError(refused, 'checkpoint_failed')).toBe(true);
    expect((refused as Error).message).toMatch(/more than 5 files.*checkpoints\.max_files/);
    writeFiles(root, { '.gitignore': 'deps/\n' });
    expect((await store.snapshot(root, 'deps ignored'))?.filesChanged).toBe(2);
  });

  it('never snapshots HEARTH_HOME when it lies inside the project', async () => {
    const root = project({ 'a.txt': 'a\n' });
    const innerHome = join(root, '.hearth');
    const store = storeFor(innerHome);
    expect((await store.snapshot(root, 'first'))?.filesChanged).toBe(1);
    expect(await store.snapshot(root, 'again')).toBeNull();
  });
});

describe('checkpoint store: errors', () => {
  it('an unknown checkpoint number is checkpoint_not_found naming what exists, and nothing changes', async () => {
    const store = storeFor(home);
    const root = project({ 'a.txt': 'a\n' });
    await store.snapshot(root, 'only one');
    writeFileSync(join(root, 'a.txt'), 'edited\n');
    for (const n of [2, 0, 1.5]) {
      const err = await store.rollback(root, n).catch((e: unknown) => e);
      expect(isHearthError(err, 'checkpoint_not_found')).toBe(true);
      expect((err as Error).message).toContain('numbered 1 (newest) to 1');
    }
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('edited\n');
    expect((await store.list(root)).length).toBe(1);
  });

  it('reading a project with no checkpoints creates no store (so `hearth checkpoints` in a sub-folder still finds its parent\'s)', async () => {
    const store = storeFor(home);
    const root = project({ 'a.txt': 'a\n' });
    expect(await store.list(root)).toEqual([]);
    const err = await store.diff(root, 1).catch((e: unknown) => e);
    expect(isHearthError(err, 'checkpoint_not_found')).toBe(true);
    expect((err as Error).message).toContain('it has no checkpoints yet');
    expect(existsSync(shadowLocation(home, root).dir)).toBe(false);
  });

  it('without git on PATH a snapshot fails as checkpoint_failed saying git is missing', async () => {
    const store = storeFor(join(base, 'home-without-git'));
    const root = project({ 'a.txt': 'a\n' });
    const path = process.env.PATH;
    process.env.PATH = join(base, 'no-such-bin');
    try {
      const err = await store.snapshot(root, 'x').catch((e: unknown) => e);
      expect(isHearthError(err, 'checkpoint_failed')).toBe(true);
      expect((err as Error).message).toMatch(/no `git` program was found/);
    } finally {
      process.env.PATH = path;
    }
  });
});
