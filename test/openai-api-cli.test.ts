/**
 * `hearth serve --api` as a user runs it: the real CLI process over a fresh HEARTH_HOME (its own keychain
 * namespace in the real Secret Service), the official `openai` client against what it prints, then SIGTERM.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, freshHomeEnv, runHearth, spawnHearth } from './fixtures/cli.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

interface Launch {
  url: string;
  stdout: string;
  stderr: string;
  /** SIGTERM; resolves with the exit code and everything printed. */
  stop(): Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** Starts `hearth serve --api --port 0` and resolves once it is serving (its stderr says Ctrl+C stops). */
async function launch(env: NodeJS.ProcessEnv, cwd: string): Promise<Launch> {
  const child: ChildProcess = spawnHearth(['serve', '--api', '--port', '0'], { env, cwd });
  cleanups.push(() => void child.kill('SIGKILL'));
  const state = { stdout: '', stderr: '' };
  child.stdout?.on('data', (d: Buffer) => (state.stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (state.stderr += d.toString()));
  const exited = collect(child, undefined, 90_000);
  await expect.poll(() => (child.exitCode === null ? state.stderr : `exited: ${state.stderr}`), { timeout: 60_000 }).toContain('Ctrl+C stops');
  const url = /^(http:\/\/127\.0\.0\.1:\d+\/v1)$/m.exec(state.stdout)?.[1];
  if (url === undefined) throw new Error(`no base URL printed; stdout: ${state.stdout}`);
  return {
    url,
    get stdout() {
      return state.stdout;
    },
    get stderr() {
      return state.stderr;
    },
    async stop() {
      child.kill('SIGTERM');
      const result = await exited;
      return { code: result.code, stdout: state.stdout, stderr: state.stderr };
    },
  };
}

async function scriptedHome(): Promise<NodeJS.ProcessEnv> {
  const server = await startScriptedOpenAIServer([{ text: 'First answer.' }, { text: 'Second answer.' }, { text: 'Third answer.' }]);
  cleanups.push(() => server.close());
  const env = freshHomeEnv();
  delete env.HEARTH_API_KEY;
  writeFileSync(join(env.HEARTH_HOME as string, 'config.yaml'), `version: 1\nmodel:\n  default: scripted:m\nproviders:\n  scripted: { type: openai, base_url: "${server.url}" }\nreview:\n  enabled: false\nuser_model:\n  enabled: false\n`);
  return env;
}

const KEY_LINE = /^API key \(shown this once; kept in the OS keychain\): (hearth-[A-Za-z0-9_-]{43})$/m;

describe('hearth serve --api', () => {
  // Catches a key printed on every start (it would end up in logs), a key that changes across starts (clients
  // break), one not required, HEARTH_API_KEY ignored, or a process that does not stop cleanly on SIGTERM.
  it('prints a generated key once, keeps it across starts, honours HEARTH_API_KEY, and exits 0 on SIGTERM', async () => {
    const env = await scriptedHome();
    const cwd = mkdtempSync(join(tmpdir(), 'hearth-serve-api-ws-'));

    const first = await launch(env, cwd);
    const key = KEY_LINE.exec(first.stdout)?.[1];
    expect(key).toBeDefined();
    const client = new OpenAI({ baseURL: first.url, apiKey: key!, maxRetries: 0 });
    await expect(client.models.list()).resolves.toMatchObject({ data: [{ id: 'hearth-agent' }, { id: 'scripted:m' }] });
    const answer = await client.chat.completions.create({ model: 'hearth-agent', messages: [{ role: 'user', content: 'hello' }] });
    expect(answer.choices[0]?.message.content).toBe('First answer.');
    await expect(new OpenAI({ baseURL: first.url, apiKey: 'wrong', maxRetries: 0 }).models.list()).rejects.toMatchObject({ status: 401 });
    const firstEnd = await first.stop();
    expect(firstEnd.code).toBe(0);
    expect(firstEnd.stderr).toContain('Stopping');
    // Printed once on stdout, never on stderr (the log).
    expect(firstEnd.stdout.split(key!)).toHaveLength(2);
    expect(firstEnd.stderr).not.toContain(key!);

    const second = await launch(env, cwd);
    expect(second.stdout).not.toContain('API key');
    expect(second.stdout).not.toContain(key!);
    const again = new OpenAI({ baseURL: second.url, apiKey: key!, maxRetries: 0 });
    const next = await again.chat.completions.create({ model: 'hearth-agent', messages: [{ role: 'user', content: 'again' }] });
    expect(next.choices[0]?.message.content).toBe('Second answer.');
    expect((await second.stop()).code).toBe(0);

    const third = await launch({ ...env, HEARTH_API_KEY: 'from-the-environment' }, cwd);
    expect(third.stdout).not.toContain('API key');
    await expect(new OpenAI({ baseURL: third.url, apiKey: key!, maxRetries: 0 }).models.list()).rejects.toMatchObject({ status: 401 });
    await expect(new OpenAI({ baseURL: third.url, apiKey: 'from-the-environment', maxRetries: 0 }).models.list()).resolves.toBeDefined();
    const thirdEnd = await third.stop();
    expect(thirdEnd.code).toBe(0);
    expect(thirdEnd.stdout + thirdEnd.stderr).not.toContain('from-the-environment');
  }, 180_000);

  // Catches web mode's flags silently dropped in API mode.
  it('refuses web-only flags with --api as a usage error (exit 2)', async () => {
    const result = await runHearth(['serve', '--api', '--open'], { env: freshHomeEnv() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('does not take --open');
  });
});
