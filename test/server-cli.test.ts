import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, freshHomeEnv, runHearth, spawnHearth } from './fixtures/cli.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import type { ScriptedServer } from './fixtures/scripted-turns.js';
import { printedUrl } from './fixtures/web-app.js';
import { WebClient } from './fixtures/web-client.js';

/** `hearth serve` as a user runs it: the real CLI process, which starts the web server process, then SIGTERM. */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function scriptedHome(): Promise<{ env: NodeJS.ProcessEnv; server: ScriptedServer }> {
  const server = await startScriptedOpenAIServer([{ text: 'Served answer.' }]);
  cleanups.push(() => server.close());
  const env = freshHomeEnv();
  writeFileSync(join(env.HEARTH_HOME as string, 'config.yaml'), `version: 1\nmodel:\n  default: scripted:m\nproviders:\n  scripted: { type: openai, base_url: "${server.url}" }\nreview:\n  enabled: false\nuser_model:\n  enabled: false\n`);
  return { env, server };
}

describe('hearth serve', () => {
  // Catches a serve command that prints an address nothing listens on, dies when no browser can be opened,
  // or does not stop cleanly on SIGTERM. One process for all of it: each start costs seconds.
  it('prints the tokened address, survives a failed --open, serves the contract, and exits 0 on SIGTERM', async () => {
    const { env } = await scriptedHome();
    const cwd = mkdtempSync(join(tmpdir(), 'hearth-serve-ws-'));
    // An empty PATH: xdg-open/open cannot be found, as on a headless server (node itself is started by absolute path).
    const emptyPath = mkdtempSync(join(tmpdir(), 'hearth-empty-path-'));
    const child = spawnHearth(['serve', '--port', '0', '--open'], { env: { ...env, PATH: emptyPath }, cwd });
    cleanups.push(() => void child.kill('SIGKILL'));
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const url = await printedUrl(child, () => stderr);
    await expect.poll(() => stderr, { timeout: 10_000 }).toContain('Could not open a browser');
    const { port, searchParams } = new URL(url);
    const client = await WebClient.connect(`ws://127.0.0.1:${port}/ws?token=${searchParams.get('token')}`);
    cleanups.push(() => client.close());
    await expect(client.ok('app.status', {})).resolves.toMatchObject({ model: 'scripted:m', device: 'remote' });
    const { sessionId } = await client.ok<{ sessionId: string }>('chat.start', {});
    await client.ok('chat.send', { sessionId, text: 'hello' });
    const end = await client.waitForEvent((e) => e.channel === 'agent' && e.event.type === 'turn_end');
    expect(end).toMatchObject({ sessionId, event: { final: 'Served answer.' } });
    // The session is stored with the surface it came from.
    await expect(client.ok('sessions.list', {})).resolves.toMatchObject([{ id: sessionId, source: 'web' }]);

    const exited = collect(child, undefined, 30_000);
    child.kill('SIGTERM');
    const result = await exited;
    expect(result.code).toBe(0);
    expect(stderr).toContain('Stopping');
    await expect(WebClient.connect(`ws://127.0.0.1:${port}/ws?token=${searchParams.get('token')}`)).rejects.toThrow();
  });

  it('rejects a bad --port as a usage error (exit 2) without starting anything', async () => {
    const result = await runHearth(['serve', '--port', 'eighty'], { env: freshHomeEnv() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--port takes a port number');
  });

  // Catches a bookmark that breaks on every start (issue 12): the default port and the keychain-kept token
  // give the same address twice; --new-token replaces the token.
  it('prints the same address on every start, and a new token only when asked', async () => {
    const { env } = await scriptedHome();
    const cwd = mkdtempSync(join(tmpdir(), 'hearth-serve-ws-'));
    const launch = async (args: string[]): Promise<string> => {
      const child = spawnHearth(['serve', ...args], { env, cwd });
      cleanups.push(() => void child.kill('SIGKILL'));
      let stderr = '';
      child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      const url = await printedUrl(child, () => stderr);
      // Stopped once it is serving (the exit code on SIGTERM is the first test's concern).
      await expect.poll(() => stderr, { timeout: 10_000 }).toContain('Ctrl+C stops');
      const exited = collect(child, undefined, 30_000);
      child.kill('SIGTERM');
      await exited;
      return url;
    };
    const first = new URL(await launch([]));
    const second = new URL(await launch([]));
    expect(second.searchParams.get('token')).toBe(first.searchParams.get('token'));
    // The default port, unless another server (a parallel test) holds it.
    if (first.port === '47291' || second.port === '47291') expect([first.port, second.port]).toContain('47291');
    const rotated = new URL(await launch(['--port', '0', '--new-token']));
    expect(rotated.searchParams.get('token')).not.toBe(first.searchParams.get('token'));
    expect(new URL(await launch(['--port', '0'])).searchParams.get('token')).toBe(rotated.searchParams.get('token'));
  });
});
