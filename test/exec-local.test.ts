import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalBackend } from '../src/core/exec/local.js';
import { HeadTailBuffer } from '../src/core/exec/output-cap.js';
import { processIsGone, waitForFile } from './fixtures/tool-harness.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-exec-test-')));
const backend = new LocalBackend({ killGraceMs: 300 });
afterAll(async () => {
  await backend.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const base = { cwd: dir, timeoutMs: 10_000, signal: new AbortController().signal, outputLimit: 10_000 };

describe('LocalBackend', () => {
  it('returns combined stdout/stderr and the exit code', async () => {
    const result = await backend.run('echo out; echo err >&2; exit 3', base);
    expect(result.exitCode).toBe(3);
    expect(result.output).toContain('out\n');
    expect(result.output).toContain('err\n');
    expect(result.timedOut).toBe(false);
  });

  it('reports the final directory so the next command can start there, even after `exit`', async () => {
    const first = await backend.run('mkdir -p sub/deeper && cd sub/deeper && exit 4', base);
    expect(first.cwd).toBe(join(dir, 'sub', 'deeper'));
    const second = await backend.run('pwd', { ...base, cwd: first.cwd });
    expect(second.output.trim()).toBe(join(dir, 'sub', 'deeper'));
    // The cwd mechanism must not leak into what the model sees.
    expect(second.output).not.toContain('HEARTH');
  });

  it('passes stdin and extra environment', async () => {
    const result = await backend.run('read line; echo "$line-$GREETING"', { ...base, stdin: 'hello\n', env: { GREETING: 'hi' } });
    expect(result.output.trim()).toBe('hello-hi');
  });

  it('stdin is empty by default, so a command that reads input does not hang', async () => {
    const result = await backend.run('cat; echo done', base);
    expect(result.output.trim()).toBe('done');
  });

  it('a timeout kills the whole process group, grandchildren included', async () => {
    const pidFile = join(dir, 'timeout.pid');
    const result = await backend.run(`sleep 30 & echo $! > ${pidFile}; wait`, { ...base, timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await new Promise((r) => setTimeout(r, 100));
    expect(processIsGone(pid)).toBe(true);
  });

  it('an interrupt kills the process group and rejects promptly with HearthError(aborted)', async () => {
    const pidFile = join(dir, 'abort.pid');
    const controller = new AbortController();
    const running = backend.run(`sleep 30 & echo $! > ${pidFile}; wait`, { ...base, signal: controller.signal });
    const pid = Number(await waitForFile(pidFile));
    expect(processIsGone(pid)).toBe(false);
    const started = Date.now();
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: 'aborted' });
    // Not a timing assertion of performance: 30 s would mean the sleep was waited for.
    expect(Date.now() - started).toBeLessThan(5000);
    await new Promise((r) => setTimeout(r, 100));
    expect(processIsGone(pid)).toBe(true);
  });

  it('a process that ignores SIGTERM is killed with SIGKILL after the grace period', async () => {
    const pidFile = join(dir, 'stubborn.pid');
    const result = await backend.run(`bash -c 'trap "" TERM; echo $$ > ${pidFile}; while true; do sleep 0.05; done' & wait`, { ...base, timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await new Promise((r) => setTimeout(r, 700));
    expect(processIsGone(pid)).toBe(true);
  });

  it('caps output, keeping head and tail with a note', async () => {
    const result = await backend.run('echo FIRST; seq 1 20000; echo LAST', { ...base, outputLimit: 1000 });
    expect(result.truncated).toBe(true);
    expect(result.output.startsWith('FIRST\n')).toBe(true);
    expect(result.output.trimEnd().endsWith('LAST')).toBe(true);
    expect(result.output).toMatch(/characters of output omitted/);
    expect(result.output.length).toBeLessThan(1100);
  });

  it('streams output while the command runs', async () => {
    const chunks: string[] = [];
    await backend.run('echo one; sleep 0.1; echo two', { ...base, onOutput: (c) => chunks.push(c) });
    expect(chunks.join('')).toBe('one\ntwo\n');
    expect(chunks.length).toBeGreaterThanOrEqual(2);
  });

  it('a missing working directory is a typed error, not "spawn bash ENOENT"', async () => {
    await expect(backend.run('pwd', { ...base, cwd: join(dir, 'nope') })).rejects.toMatchObject({ code: 'tool_input_invalid' });
  });

  it('does not wait for a background job that keeps the output pipe open', async () => {
    const started = Date.now();
    const result = await backend.run('sleep 5 & echo started', base);
    expect(result.output.trim()).toBe('started');
    expect(Date.now() - started).toBeLessThan(4000);
  });
});

describe('HeadTailBuffer', () => {
  it('keeps everything below the limit and head+tail above it, across many small chunks', () => {
    const small = new HeadTailBuffer(10);
    small.push('abc');
    expect([small.toString(), small.truncated]).toEqual(['abc', false]);
    const big = new HeadTailBuffer(10);
    for (const c of 'abcdefghijklmnopqrstuvwxyz') big.push(c);
    expect(big.truncated).toBe(true);
    expect(big.toString()).toBe('abcde\n\n[... 16 characters of output omitted ...]\n\nvwxyz');
  });
});
