import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SingularityBackend, createSingularityBackend } from '../src/core/exec/singularity.js';
import { installApptainerShim } from './fixtures/apptainer-shim.js';
import { processIsGone, waitForFile } from './fixtures/tool-harness.js';

/**
 * The whole singularity backend, end to end, against a stand-in `apptainer` first on PATH (the real CLI is not
 * packaged for Debian; see fixtures/apptainer-shim.ts). The shim refuses a run without --containall/--cleanenv
 * and starts the payload with `env -i` + the --env values in --pwd, so exit codes, cwd persistence, streaming,
 * the process-group kill and the environment boundary are real; the container's filesystem isolation is not.
 */
const shim = installApptainerShim();
const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-sing-ws-')));
const env = { PATH: `${shim.dir}${delimiter}${process.env.PATH ?? ''}`, LANG: 'C.UTF-8', HEARTH_TEST_SECRET: 'sk-should-not-leak', SHARED_OK: 'visible' };
const backend = new SingularityBackend({ image: 'docker://debian:bookworm-slim', binary: 'auto', network: false, workspace, env, passthrough: ['SHARED_OK'], killGraceMs: 300 });
afterAll(() => {
  shim.remove();
  rmSync(workspace, { recursive: true, force: true });
});

const base = { cwd: workspace, timeoutMs: 10_000, signal: new AbortController().signal, outputLimit: 10_000 };

describe('SingularityBackend through an apptainer CLI', () => {
  it('returns combined output and the exit code, and the end marker never shows', async () => {
    const result = await backend.run('echo out; echo err >&2; exit 3', base);
    expect(result.exitCode).toBe(3);
    expect(result.output).toContain('out\n');
    expect(result.output).toContain('err\n');
    expect(result.output).not.toContain('HEARTH-END');
    expect(result.timedOut).toBe(false);
  });

  it('the working directory persists across commands (each one is a fresh container)', async () => {
    const first = await backend.run('mkdir -p sub/deeper && cd sub/deeper && exit 4', base);
    expect(first.cwd).toBe(join(workspace, 'sub', 'deeper'));
    const second = await backend.run('pwd', { ...base, cwd: first.cwd });
    expect(second.output.trim()).toBe(join(workspace, 'sub', 'deeper'));
  });

  it("Hearth's own environment is not visible; the safe set, env_passthrough and per-command env are", async () => {
    const result = await backend.run('env', { ...base, env: { PER_COMMAND: 'yes' } });
    expect(result.output).not.toContain('sk-should-not-leak');
    expect(result.output).toContain('SHARED_OK=visible');
    expect(result.output).toContain('LANG=C.UTF-8');
    expect(result.output).toContain('PER_COMMAND=yes');
    // The host PATH names host directories: the container keeps its own.
    expect(result.output).not.toContain(shim.dir);
  });

  it('values with commas and quotes arrive intact (the CLI parses --env as CSV)', async () => {
    const result = await backend.run('printf "%s" "$TRICKY"', { ...base, env: { TRICKY: 'a,b "c"' } });
    expect(result.output).toBe('a,b "c"');
  });

  it('passes stdin; without it a reader gets EOF and does not hang', async () => {
    expect((await backend.run('read line; echo "got $line"', { ...base, stdin: 'hello\n' })).output.trim()).toBe('got hello');
    expect((await backend.run('cat; echo done', base)).output.trim()).toBe('done');
  });

  it('streams output while the command runs', async () => {
    const chunks: string[] = [];
    await backend.run('echo one; sleep 0.2; echo two', { ...base, onOutput: (c) => chunks.push(c) });
    expect(chunks.join('')).toBe('one\ntwo\n');
    expect(chunks.length).toBeGreaterThanOrEqual(2);
  });

  it('a timeout kills the whole process group, grandchildren included', async () => {
    const pidFile = join(workspace, 'timeout.pid');
    const result = await backend.run(`sleep 30 & echo $! > ${pidFile}; wait`, { ...base, timeoutMs: 500 });
    expect(result.timedOut).toBe(true);
    const pid = Number(await waitForFile(pidFile));
    await new Promise((r) => setTimeout(r, 400));
    expect(processIsGone(pid)).toBe(true);
  });

  it('an interrupt kills the command and rejects with HearthError(aborted)', async () => {
    const pidFile = join(workspace, 'abort.pid');
    const controller = new AbortController();
    const running = backend.run(`sleep 30 & echo $! > ${pidFile}; wait`, { ...base, signal: controller.signal });
    const pid = Number(await waitForFile(pidFile));
    expect(processIsGone(pid)).toBe(false);
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: 'aborted' });
    await new Promise((r) => setTimeout(r, 400));
    expect(processIsGone(pid)).toBe(true);
  });

  it('caps output, keeping head and tail', async () => {
    const result = await backend.run('echo FIRST; seq 1 20000; echo LAST', { ...base, outputLimit: 1000 });
    expect(result.truncated).toBe(true);
    expect(result.output.startsWith('FIRST\n')).toBe(true);
    expect(result.output.trimEnd().endsWith('LAST')).toBe(true);
  });

  it('a cwd the container lacks falls back to the workspace with a note', async () => {
    const result = await backend.run('pwd', { ...base, cwd: '/no/such/dir' });
    expect(result.output).toContain('/no/such/dir does not exist in the container');
    expect(result.cwd).toBe(workspace);
  });

  it('the CLI missing from PATH is backend_unavailable at the first command', async () => {
    const missing = createSingularityBackend({ image: 'x.sif', binary: 'singularity', network: false, auto_approve: false }, { workspace, env: { PATH: '/nonexistent' } });
    await expect(missing.run('true', base)).rejects.toMatchObject({ code: 'backend_unavailable' });
  });
});
