import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHearthError } from '../src/core/errors.js';
import { DaytonaBackend } from '../src/core/exec/daytona.js';
import { startFakeDaytona, type FakeDaytona } from './fixtures/daytona-api-server.js';
import { processIsGone, waitForFile } from './fixtures/tool-harness.js';

/**
 * The daytona backend through the official SDK against a Daytona API on 127.0.0.1 (fixtures/daytona-api-server.ts)
 * that runs the commands for real. Catches wrong wire calls (the SDK's generated clients decide paths and JSON),
 * lost cwd or exit codes, a sandbox that is not per session or never deleted, and errors that do not say what to do.
 * Nothing here ran against the real Daytona service.
 */
const KEY = 'dtn_test_key';
let api: FakeDaytona;
let backend: DaytonaBackend;

const config = (apiUrl: string, network = false) => ({ api_url: apiUrl, auto_stop_minutes: 15, network, auto_approve: false });
const base = { cwd: '/home/daytona', timeoutMs: 20_000, signal: new AbortController().signal, outputLimit: 10_000, sessionId: 's1' };

beforeAll(async () => {
  api = await startFakeDaytona(KEY);
  backend = new DaytonaBackend(config(api.apiUrl), { env: { DAYTONA_API_KEY: KEY }, readSecret: () => null, killGraceMs: 300 });
});
afterAll(async () => {
  await backend?.dispose();
  await api?.close();
});

describe('DaytonaBackend over the Daytona REST API', () => {
  it('creates one sandbox for the session, with labels, auto-stop and the network blocked, and runs the command', async () => {
    const chunks: string[] = [];
    const result = await backend.run('echo out; echo err >&2; exit 3', { ...base, onOutput: (c) => chunks.push(c) });
    expect(result.exitCode).toBe(3);
    expect(result.output).toContain('out\n');
    expect(result.output).toContain('err\n');
    expect(result.output).not.toContain('HEARTH-END');
    expect(chunks.join('')).toBe(result.output);
    expect(api.sandboxes).toHaveLength(1);
    const request = api.sandboxes[0]?.request;
    expect(request?.labels).toMatchObject({ hearth: 'true', session: 's1' });
    expect(request?.networkBlockAll).toBe(true);
    expect(request?.autoStopInterval).toBe(15);
    expect(api.requests).toContain(`POST /toolbox/${api.sandboxes[0]?.id}/process/execute`);
  });

  it('a missing start directory falls back to the sandbox home, and cd persists to the next command', async () => {
    const home = api.sandboxes[0]?.home as string;
    const first = await backend.run('mkdir -p work/src && cd work/src', base);
    expect(first.output).toContain('/home/daytona does not exist in the Daytona sandbox');
    expect(first.cwd).toBe(join(home, 'work', 'src'));
    const second = await backend.run('pwd; echo "$GREETING"', { ...base, cwd: first.cwd, env: { GREETING: 'hi there' } });
    expect(second.output).toBe(`${join(home, 'work', 'src')}\nhi there\n`);
    expect(second.cwd).toBe(first.cwd);
    // Same session, same sandbox.
    expect(api.sandboxes).toHaveLength(1);
  });

  it('passes stdin; without it a reader gets EOF instead of reading the rest of the script', async () => {
    const cwd = api.sandboxes[0]?.home as string;
    expect((await backend.run('read line; echo "got $line"', { ...base, cwd, stdin: "it's\n" })).output).toBe("got it's\n");
    expect((await backend.run('cat; echo done', { ...base, cwd })).output).toBe('done\n');
  });

  it('a timeout kills the command through a second execute and reports timedOut', async () => {
    const home = api.sandboxes[0]?.home as string;
    const result = await backend.run(`sleep 30 & echo $! > ${home}/t.pid; wait`, { ...base, timeoutMs: 700 });
    expect(result.timedOut).toBe(true);
    await new Promise((r) => setTimeout(r, 400));
    expect(processIsGone(Number(readFileSync(join(home, 't.pid'), 'utf8')))).toBe(true);
  });

  it('an interrupt kills the command and rejects with HearthError(aborted)', async () => {
    const home = api.sandboxes[0]?.home as string;
    const controller = new AbortController();
    const running = backend.run(`sleep 30 & echo $! > ${home}/a.pid; wait`, { ...base, signal: controller.signal });
    const pid = Number(await waitForFile(join(home, 'a.pid')));
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: 'aborted' });
    await new Promise((r) => setTimeout(r, 400));
    expect(processIsGone(pid)).toBe(true);
  });

  it('another session gets its own sandbox; endSession deletes it and the next command makes a new one', async () => {
    await backend.run('true', { ...base, sessionId: 's2' });
    const s2 = api.sandboxes.find((s) => (s.request.labels as Record<string, string>).session === 's2');
    expect(s2?.deleted).toBe(false);
    await backend.endSession('s2');
    expect(s2?.deleted).toBe(true);
    expect(api.requests).toContain(`DELETE /api/sandbox/${s2?.id}`);
    await backend.endSession('never-seen');
    await backend.run('true', { ...base, sessionId: 's2' });
    expect(api.sandboxes.filter((s) => (s.request.labels as Record<string, string>).session === 's2')).toHaveLength(2);
  });

  it('dispose deletes every sandbox it created', async () => {
    const own = new DaytonaBackend(config(api.apiUrl, true), { env: { DAYTONA_API_KEY: KEY }, readSecret: () => null });
    await own.run('true', { ...base, sessionId: 'd1' });
    await own.run('true', { ...base, sessionId: 'd2' });
    const mine = api.sandboxes.filter((s) => ['d1', 'd2'].includes((s.request.labels as Record<string, string>).session ?? ''));
    expect(mine.map((s) => s.request.networkBlockAll)).toEqual([false, false]);
    await own.dispose();
    await own.dispose();
    expect(mine.every((s) => s.deleted)).toBe(true);
  });
});

describe('DaytonaBackend failures', () => {
  it('a key the API refuses (401) is backend_auth saying where the key goes', async () => {
    const wrong = new DaytonaBackend(config(api.apiUrl), { env: { DAYTONA_API_KEY: 'dtn_wrong' }, readSecret: () => null });
    const failure = await wrong.run('true', base).catch((err: unknown) => err);
    expect(isHearthError(failure, 'backend_auth')).toBe(true);
    expect((failure as Error).message).toMatch(/refused the API key \(HTTP 401.*DAYTONA_API_KEY.*provider:daytona/s);
  });

  it('no key anywhere is backend_auth before any request; the keychain is consulted', async () => {
    const accounts: string[] = [];
    const before = api.requests.length;
    const keyless = new DaytonaBackend(config(api.apiUrl), { env: {}, readSecret: (account) => (accounts.push(account), null) });
    await expect(keyless.run('true', base)).rejects.toMatchObject({ code: 'backend_auth', message: expect.stringMatching(/no Daytona API key/) });
    expect(accounts).toEqual(['provider:daytona']);
    expect(api.requests.length).toBe(before);
  });

  it('the key from the keychain is used when the environment has none', async () => {
    const fromKeychain = new DaytonaBackend(config(api.apiUrl), { env: {}, readSecret: () => KEY });
    expect((await fromKeychain.run('echo ok', { ...base, sessionId: 'kc' })).output).toMatch(/\nok\n$/);
    await fromKeychain.dispose();
  });

  it('an unreachable api_url is backend_unavailable naming it', async () => {
    // A port that was just listening and is now closed: connection refused, no waiting on a timeout.
    const gone = await startFakeDaytona(KEY);
    await gone.close();
    const unreachable = new DaytonaBackend(config(gone.apiUrl), { env: { DAYTONA_API_KEY: KEY }, readSecret: () => null });
    const failure = await unreachable.run('true', base).catch((err: unknown) => err);
    expect(isHearthError(failure, 'backend_unavailable')).toBe(true);
    expect((failure as Error).message).toContain(gone.apiUrl);
  });
});
