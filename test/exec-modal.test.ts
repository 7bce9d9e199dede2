import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TerminalSection } from '../src/core/config/schema-terminal.js';
import { HearthError, isHearthError } from '../src/core/errors.js';
import type { ExecOptions, ExecResult } from '../src/core/exec/backend.js';
import { ModalBackend, type ModalSandboxConfig } from '../src/core/exec/modal.js';
import { createBackend } from '../src/core/exec/registry.js';
import { startModalTestServer, type ModalTestServer } from './fixtures/modal/modal-grpc-server.js';

/**
 * The modal backend against a local gRPC server speaking Modal's protocol (the SDK's own generated
 * service definitions), through the real `modal` SDK: commands really run (child processes in a temp
 * dir per sandbox), so output, exit codes and directories are real. What this cannot prove: that the
 * real Modal service behaves as this server does (see docs/architecture.md).
 */
let server: ModalTestServer;
const backends: ModalBackend[] = [];

beforeAll(async () => {
  server = await startModalTestServer();
});
afterAll(async () => {
  await server?.close();
});
afterEach(async () => {
  await Promise.all(backends.splice(0).map((backend) => backend.dispose()));
});

function modalConfig(overrides: Partial<Record<keyof ModalSandboxConfig, unknown>> = {}): ModalSandboxConfig {
  return TerminalSection.parse({ backend: 'modal', modal: overrides }).modal;
}

function backendFor(env: NodeJS.ProcessEnv, config = modalConfig()): ModalBackend {
  // No keychain lookup: a developer's real Modal token must never be used by the tests.
  const backend = new ModalBackend(config, { env, readSecret: () => null, killGraceMs: 200 });
  backends.push(backend);
  return backend;
}

function connected(config = modalConfig()): ModalBackend {
  return backendFor({ MODAL_SERVER_URL: server.url, MODAL_TOKEN_ID: server.tokenId, MODAL_TOKEN_SECRET: server.tokenSecret }, config);
}

function run(backend: ModalBackend, command: string, options: Partial<ExecOptions> = {}): Promise<ExecResult> {
  return backend.run(command, { cwd: '/tmp', timeoutMs: 20_000, signal: new AbortController().signal, outputLimit: 50_000, sessionId: 's1', ...options });
}

async function rejection(promise: Promise<unknown>): Promise<HearthError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof HearthError)) throw new Error(`expected a HearthError, got ${String(err)}`);
  return err;
}

describe('ModalBackend through the modal SDK, against a Modal-protocol gRPC server', () => {
  it('returns stdout, stderr and the exit code without the marker, in a sandbox built from the config (catches lost exit codes, marker leaks, ignored limits)', async () => {
    const backend = connected(modalConfig({ image: 'python:3.12-slim', cpus: 2, memory_mb: 1024, sandbox_timeout_s: 600 }));
    const before = server.sandboxes.length;
    const result = await run(backend, 'echo hello; echo oops >&2; exit 3');
    expect(result.exitCode).toBe(3);
    expect(result.output).toContain('hello\n');
    expect(result.output).toContain('oops\n');
    expect(result.output).not.toContain('hearth_done');
    expect(result.timedOut).toBe(false);
    const sandbox = server.sandboxes[before];
    expect(sandbox?.definition).toMatchObject({ timeoutSecs: 600, milliCpu: 2000, memoryMb: 1024, networkBlocked: true });
    expect(Buffer.from(sandbox?.definition.imageId.slice(3) ?? '', 'base64url').toString()).toBe('FROM python:3.12-slim');
    expect(server.unimplemented).toEqual([]);
  });

  it('asks for network only when terminal.modal.network is on (catches sandboxes that can always reach the internet)', async () => {
    const before = server.sandboxes.length;
    await run(connected(modalConfig({ network: true })), 'true');
    expect(server.sandboxes[before]?.definition.networkBlocked).toBe(false);
  });

  it('keeps the working directory across calls, and falls back with a note when it is missing (catches cwd reset between execs)', async () => {
    const backend = connected();
    await run(backend, 'true');
    const root = server.sandboxes.at(-1)?.root as string;
    const moved = await run(backend, 'mkdir -p sub && cd sub', { cwd: root });
    expect(moved.cwd).toBe(join(root, 'sub'));
    const here = await run(backend, 'pwd', { cwd: moved.cwd });
    expect(here.output.trim()).toBe(join(root, 'sub'));
    const missing = await run(backend, 'pwd', { cwd: '/no/such/dir' });
    expect(missing.output).toContain('/no/such/dir does not exist');
    expect(missing.cwd).toBe('/root');
  });

  it('takes the exit status from Modal when the command hid its stdout from the marker (catches exit 0 reported for failures)', async () => {
    const waits = (): number => server.calls.filter((name) => name === 'taskExecWait').length;
    const before = waits();
    const result = await run(connected(), 'exec >/dev/null 2>&1; exit 4', { cwd: '/tmp' });
    expect(result.exitCode).toBe(4);
    expect(result.cwd).toBe('/tmp');
    expect(waits()).toBe(before + 1);
  });

  it('passes env and stdin to the command, and gives it EOF without stdin (catches dropped env, commands waiting for input)', async () => {
    const backend = connected();
    const fed = await run(backend, 'read line; echo "got:$line:$HEARTH_MARK"', { stdin: 'hello\n', env: { HEARTH_MARK: 'v1' } });
    expect(fed.output).toContain('got:hello:v1');
    const empty = await run(backend, 'cat; echo done', { timeoutMs: 5000 });
    expect(empty.output).toBe('done\n');
    expect(empty.timedOut).toBe(false);
  });

  it('streams output while the command still runs (catches buffering until exit)', async () => {
    const chunks: string[] = [];
    let finished = false;
    const pending = run(connected(), 'echo first; sleep 1.5; echo second', { onOutput: (chunk) => chunks.push(chunk) }).then((result) => {
      finished = true;
      return result;
    });
    const deadline = Date.now() + 10_000;
    while (!chunks.join('').includes('first') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(chunks.join('')).toContain('first');
    expect(finished).toBe(false);
    expect((await pending).output).toBe('first\nsecond\n');
  });

  it('stops a command at its timeout by killing its process group, keeping the sandbox (catches hung runs and lost sandboxes)', async () => {
    const backend = connected();
    await run(backend, 'true', { sessionId: 'timeout' });
    const sandboxes = server.sandboxes.length;
    const result = await run(backend, 'echo started; sleep 30', { timeoutMs: 500, sessionId: 'timeout' });
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeGreaterThan(128);
    expect(result.output).toContain('started');
    const sandbox = server.sandboxes.at(-1);
    const execs = [...(sandbox?.execs.values() ?? [])];
    // The sleeping command's process really exited (the kill exec reached its group).
    await expect(execs[1]?.exit).resolves.toBeDefined();
    expect(sandbox?.terminated).toBe(false);
    expect((await run(backend, 'echo again', { sessionId: 'timeout' })).output).toBe('again\n');
    expect(server.sandboxes.length).toBe(sandboxes);
  });

  it('rejects with aborted when interrupted, and the command stops (catches interrupts that wait for the command)', async () => {
    const backend = connected();
    const controller = new AbortController();
    const pending = run(backend, 'sleep 30', { signal: controller.signal, sessionId: 'interrupt' });
    setTimeout(() => controller.abort(new Error('user pressed stop')), 500);
    const started = Date.now();
    const err = await rejection(pending);
    expect(err.code).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(10_000);
    // The sleep itself was killed, not just abandoned.
    const sleeping = [...(server.sandboxes.at(-1)?.execs.values() ?? [])][0];
    await expect(sleeping?.exit).resolves.toBeDefined();
  });

  it('keeps the head and tail of large output (catches unbounded output and lost endings)', async () => {
    const result = await run(connected(), 'seq 1 50000', { outputLimit: 1000 });
    expect(result.truncated).toBe(true);
    expect(result.output.startsWith('1\n2\n')).toBe(true);
    expect(result.output.trimEnd().endsWith('50000')).toBe(true);
    expect(result.output).toContain('characters of output omitted');
  });

  it('keeps one sandbox per session; endSession terminates only that one (catches shared or leaked sandboxes)', async () => {
    const backend = connected();
    const before = server.sandboxes.length;
    await run(backend, 'echo a > mark', { sessionId: 'a', cwd: '/tmp' });
    await run(backend, 'true', { sessionId: 'b' });
    await run(backend, 'true', { sessionId: 'a' });
    const created = server.sandboxes.slice(before);
    expect(created).toHaveLength(2);
    await backend.endSession('a');
    expect(created[0]?.terminated).toBe(true);
    expect(created[1]?.terminated).toBe(false);
    await backend.endSession('never-used');
    await backend.dispose();
    expect(created[1]?.terminated).toBe(true);
  });

  it('reports backend_failed when the sandbox dies under a command, then starts a fresh one (catches silent empty results)', async () => {
    const backend = connected();
    await run(backend, 'true', { sessionId: 'dies' });
    const doomed = server.sandboxes.at(-1);
    const pending = run(backend, 'sleep 30', { sessionId: 'dies' });
    setTimeout(() => server.killSandbox(doomed?.id as string), 300);
    const err = await rejection(pending);
    expect(err.code).toBe('backend_failed');
    expect(err.message).toContain('sandbox for this session stopped');
    expect((await run(backend, 'echo fresh', { sessionId: 'dies' })).output).toBe('fresh\n');
    expect(server.sandboxes.at(-1)?.id).not.toBe(doomed?.id);
  });
});

describe('ModalBackend credential and connection failures', () => {
  it('is what terminal.backend "modal" selects, without touching the network at start (catches the placeholder left wired)', () => {
    const calls = server.calls.length;
    const backend = createBackend(TerminalSection.parse({ backend: 'modal' }), { workspace: '/tmp', userHome: '/tmp', env: {} });
    expect(backend).toBeInstanceOf(ModalBackend);
    expect(backend.name).toBe('modal');
    expect(server.calls.length).toBe(calls);
  });

  it('says where to put the token when none is configured, before any network call (catches a confusing SDK error)', async () => {
    const calls = server.calls.length;
    const err = await rejection(run(backendFor({ MODAL_SERVER_URL: server.url }), 'true'));
    expect(err.code).toBe('backend_auth');
    expect(err.message).toContain('MODAL_TOKEN_ID');
    expect(err.message).toContain('modal:token_id');
    expect(server.calls.length).toBe(calls);
  });

  it('uses the keychain token when the environment has none (catches a keychain that is never read)', async () => {
    const secrets: Record<string, string> = { 'modal:token_id': server.tokenId, 'modal:token_secret': server.tokenSecret };
    const backend = new ModalBackend(modalConfig(), { env: { MODAL_SERVER_URL: server.url }, readSecret: (account) => secrets[account] ?? null });
    backends.push(backend);
    expect((await run(backend, 'echo via-keychain')).output).toBe('via-keychain\n');
  });

  it('reports backend_auth when Modal refuses the token (catches auth failures shown as crashes)', async () => {
    const err = await rejection(run(backendFor({ MODAL_SERVER_URL: server.url, MODAL_TOKEN_ID: 'ak-wrong', MODAL_TOKEN_SECRET: 'as-wrong' }), 'true'));
    expect(err.code).toBe('backend_auth');
    expect(err.message).toContain('MODAL_TOKEN_ID / MODAL_TOKEN_SECRET');
  });

  it('reports backend_unavailable when the API cannot be reached (catches hangs and unclear errors)', async () => {
    const port = await closedPort();
    const err = await rejection(run(backendFor({ MODAL_SERVER_URL: `http://127.0.0.1:${port}`, MODAL_TOKEN_ID: 'ak-x', MODAL_TOKEN_SECRET: 'as-x' }), 'true'));
    expect(err.code).toBe('backend_unavailable');
    expect(err.message).toContain(`127.0.0.1:${port}`);
    expect(isHearthError(err, 'backend_unavailable')).toBe(true);
  }, 30_000);
});

/** A loopback port nothing listens on (bound, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
