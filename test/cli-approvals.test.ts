import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freshHomeEnv, spawnHearthOnTerminal } from './fixtures/cli.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import type { ScriptedServer } from './fixtures/scripted-turns.js';

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/**
 * The approval prompt as a person meets it: `hearth run` on a real pseudo-terminal, a flagged command,
 * and an answer typed at the prompt. Catches a prompt that never appears on a TTY, an answer that is
 * not delivered, or a denial that still runs the command.
 */
async function answerApproval(answer: string): Promise<{ output: string; code: number | null; victimExists: boolean }> {
  const server = await startScriptedOpenAIServer([
    { toolCalls: [{ name: 'terminal', arguments: { command: 'rm -rf victim' } }] },
    { text: 'finished' },
  ]);
  servers.push(server);
  const cwd = mkdtempSync(join(tmpdir(), 'hearth-ws-'));
  mkdirSync(join(cwd, 'victim'));
  const child = spawnHearthOnTerminal(['run', 'clean up', '--model', 'openai:s', '--base-url', server.url], { env: freshHomeEnv(), cwd });
  let output = '';
  let answered = false;
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (!answered && output.includes('[d]eny')) {
      answered = true;
      child.stdin?.write(`${answer}\r`);
    }
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no exit within 30 s; output so far:\n${output}`));
    }, 30_000);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  return { output, code, victimExists: existsSync(join(cwd, 'victim')) };
}

describe('approvals on a terminal', () => {
  it('asks, and runs the command once approved', async () => {
    const result = await answerApproval('o');
    expect(result.output).toContain('Approval needed: rm -rf victim');
    expect(result.code).toBe(0);
    expect(result.victimExists).toBe(false);
    expect(result.output).toContain('finished');
  });

  it('asks, and never runs the command when denied', async () => {
    const result = await answerApproval('d');
    expect(result.output).toContain('Approval needed: rm -rf victim');
    expect(result.code).toBe(0);
    expect(result.victimExists).toBe(true);
  });
});
