import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freshHomeEnv, runHearth, spawnHearthOnTerminal } from './fixtures/cli.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import type { ScriptedServer } from './fixtures/scripted-turns.js';

// A first run on a machine with no Secret Service (issue 12: "on a headless Linux box with no keyring, `npm start`
// exits"): no D-Bus session bus, and no HEARTH_DB_KEY.
const NO_KEYCHAIN = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/hearth-no-bus', HEARTH_DB_KEY: '' };

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Runs `hearth args` on a pty, typing each answer once its question is on screen; answers may depend on the output so far. */
async function onTerminal(args: string[], env: NodeJS.ProcessEnv, answers: Array<[string, (output: string) => string]>): Promise<{ code: number | null; output: string }> {
  const child = spawnHearthOnTerminal(args, { env });
  let output = '';
  let seen = 0;
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    const next = answers[0];
    // A question asked again (a retry) counts only when it appears once more after the last answer.
    if (next && output.split(next[0]).length - 1 > seen) {
      answers.shift();
      seen = answers[0]?.[0] === next[0] ? output.split(next[0]).length - 1 : 0;
      child.stdin?.write(`${next[1](output)}\r`);
    }
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no exit within 40 s; output so far:\n${output}`));
    }, 40_000);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  return { code, output };
}

const keyIn = (output: string): string => /export HEARTH_DB_KEY=([0-9a-f]{64})/.exec(output)?.[1] ?? 'no key on screen';

describe('first run without a keychain', () => {
  // Catches the first run stopping with an error: the user is offered a generated key and the run goes on with it.
  it('offers a generated key, shows it once, asks for its last characters, and opens the database with it', async () => {
    const server = await startScriptedOpenAIServer([{ text: 'keyok' }]);
    servers.push(server);
    const env = freshHomeEnv(NO_KEYCHAIN);
    const { code, output } = await onTerminal(['run', 'hi', '--model', 'openai:scripted', '--base-url', server.url], env, [
      ['Choose 1 or 2:', () => '2'],
      ['to confirm you saved it:', (o) => keyIn(o).slice(-6)],
    ]);
    expect(code).toBe(0);
    expect(output).toContain('This machine has no keychain Hearth can use');
    expect(output).toContain('keyok');
    const key = keyIn(output);
    expect(output.split(key).length - 1).toBe(1); // shown once, never echoed back in a message
    // The database was created with that key: it opens with it, and not without it.
    const withKey = await runHearth(['sessions', 'list'], { env: { ...env, HEARTH_DB_KEY: key } });
    expect(withKey.code).toBe(0);
    expect(withKey.stdout).toContain('hi');
    const withOther = await runHearth(['sessions', 'list'], { env: { ...env, HEARTH_DB_KEY: 'ab'.repeat(32) } });
    expect(withOther.code).not.toBe(0);
  }, 60_000);

  // Catches a key the user never saved turning into a database nobody can open.
  it('creates nothing when the key is not confirmed, or when the user chooses to set up a keychain', async () => {
    const env = freshHomeEnv(NO_KEYCHAIN);
    const wrong = await onTerminal(['run', 'hi'], env, [
      ['Choose 1 or 2:', () => '2'],
      ['to confirm you saved it:', () => 'nope'],
      ['to confirm you saved it:', () => 'nope'],
      ['to confirm you saved it:', () => 'nope'],
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.output).toContain('nothing was created');
    expect(existsSync(join(env.HEARTH_HOME as string, 'state.db'))).toBe(false);

    const quit = await onTerminal(['run', 'hi'], env, [['Choose 1 or 2:', () => '1']]);
    expect(quit.code).toBe(1);
    expect(quit.output).toContain('Nothing was created');
    expect(existsSync(join(env.HEARTH_HOME as string, 'state.db'))).toBe(false);
  }, 90_000);

  // Catches the offer reaching a script (no terminal), which has no one to answer: it gets the error naming both fixes.
  it('without a terminal, stops with the error that names the keychain and HEARTH_DB_KEY', async () => {
    const result = await runHearth(['run', 'hi'], { env: freshHomeEnv(NO_KEYCHAIN) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/HEARTH_DB_KEY/);
    expect(result.stdout).not.toContain('Choose 1 or 2');
  });
});
