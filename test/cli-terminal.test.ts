import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyCommand } from '../src/core/safety/approvals/detector.js';
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
async function answerApproval(answer: string): Promise<{ output: string; code: number | null; victimExists: boolean; command: string; cwd: string }> {
  // Outside the workspace: a recursive delete inside it is routine and would not ask.
  const victim = join(mkdtempSync(join(tmpdir(), 'hearth-outside-')), 'victim');
  const server = await startScriptedOpenAIServer([
    { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${victim}` } }] },
    { text: 'finished' },
  ]);
  servers.push(server);
  const cwd = mkdtempSync(join(tmpdir(), 'hearth-ws-'));
  mkdirSync(victim);
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
  return { output, code, victimExists: existsSync(victim), command: `rm -rf ${victim}`, cwd };
}

/**
 * What the prompt must say about undo. A delete outside the workspace is never covered by its snapshot: the
 * detector marks it irreversible (or, where it does not yet, the engine's folder check does), so the prompt says it
 * cannot be undone. The detector must not claim the opposite.
 */
function expectedUndoLine(command: string, cwd: string): string {
  expect(classifyCommand(command, { workspace: cwd, cwd }).irreversible).not.toBe(false);
  return 'This cannot be undone: no checkpoint covers it.';
}

describe('approvals on a terminal', () => {
  it('asks, and runs the command once approved', async () => {
    const result = await answerApproval('o');
    expect(result.output).toMatch(/Approval needed: rm -rf \S+\/victim/);
    expect(result.code).toBe(0);
    expect(result.victimExists).toBe(false);
    expect(result.output).toContain('finished');
  });

  it('asks, and never runs the command when denied', async () => {
    const result = await answerApproval('d');
    expect(result.output).toMatch(/Approval needed: rm -rf \S+\/victim/);
    expect(result.code).toBe(0);
    expect(result.victimExists).toBe(true);
  });

  // Catches a prompt that promises /rollback for a delete no workspace snapshot covers (or drops the detector's
  // irreversible flag on the way), and a refused command reported like a tool that merely failed.
  it('says what undo there is before asking, and shows the refused call as denied with what decided', async () => {
    const result = await answerApproval('d');
    const prompt = result.output.slice(result.output.indexOf('Approval needed'), result.output.indexOf('[d]eny'));
    expect(prompt).toContain(expectedUndoLine(result.command, result.cwd));
    expect(result.output).toMatch(/✗ terminal denied \[approval: deny\]/);
    expect(result.victimExists).toBe(true);
  });
});

/** Drives `hearth chat` on a pseudo-terminal: `steps` are [text to wait for, keys to type]. */
async function chatOnTerminal(server: ScriptedServer, steps: [string, string][], env: NodeJS.ProcessEnv = {}): Promise<{ output: string; code: number | null }> {
  const child = spawnHearthOnTerminal(['chat', '--model', 'openai:s', '--base-url', server.url], { env: freshHomeEnv(env), cwd: mkdtempSync(join(tmpdir(), 'hearth-ws-')) });
  let output = '';
  let step = 0;
  let searchFrom = 0;
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    while (step < steps.length) {
      const [waitFor, keys] = steps[step]!;
      const at = output.indexOf(waitFor, searchFrom);
      if (at < 0) break;
      searchFrom = at + waitFor.length;
      step += 1;
      child.stdin?.write(keys);
    }
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no exit within 30 s (step ${step}); output so far:\n${output}`));
    }, 30_000);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  return { output, code };
}

describe('hearth chat on a terminal', () => {
  // Catches a line typed mid-turn being lost, or sent as a new user turn instead of steering the running one.
  it('a line typed while a tool runs reaches the model with that tool result; a command typed mid-turn is not steer', async () => {
    const server = await startScriptedOpenAIServer([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'sleep 2; echo slept' } }] },
      { text: 'adjusted as you asked' },
    ]);
    servers.push(server);
    const result = await chatOnTerminal(server, [
      ['› ', 'do the thing\r'],
      ['⚙ terminal', 'use the staging server\r/usage\r'],
      ['adjusted as you asked', '/quit\r'],
    ]);
    expect(result.output).toMatch(/input tokens/);
    expect(result.code).toBe(0);
    const toolResult = (server.requests[1] as { messages: { role: string; content: string }[] }).messages.at(-1);
    expect(toolResult?.role).toBe('tool');
    expect(toolResult?.content).toContain('slept');
    expect(toolResult?.content).toContain('use the staging server');
    expect(toolResult?.content).not.toContain('/usage');
    expect(server.requests).toHaveLength(2);
  });

  // Catches Ctrl+C killing the chat instead of interrupting the turn (the session must go on).
  it('Ctrl+C interrupts a stalled answer and the chat goes on', async () => {
    const server = await startScriptedOpenAIServer([{ text: 'this stalls', hangMs: 60_000 }, { text: 'second answer' }]);
    servers.push(server);
    const result = await chatOnTerminal(server, [
      ['› ', 'first\r'],
      ['this', '\x03'],
      ['(interrupted)', 'second\r'],
      ['second answer', '/quit\r'],
    ]);
    expect(result.code).toBe(0);
    // The first press says what a second one would do.
    expect(result.output).toContain('press Ctrl+C again within 2 s to exit');
    expect(server.requests).toHaveLength(2);
    // The interrupted answer is not in the history the second request carries.
    const second = server.requests[1] as { messages: { role: string; content: string }[] };
    expect(second.messages.map((m) => m.role)).toEqual(['system', 'user', 'user']);
  });

  // Catches the answer's markdown printed raw (`**not**`) on a terminal (issue 12).
  it.each([
    ['with colour', { NO_COLOR: '' }],
    ['with NO_COLOR (layout, no styling)', { NO_COLOR: '1' }],
  ])('renders the answer as markdown %s: emphasis, bullets, highlighted code', async (_name, env) => {
    const server = await startScriptedOpenAIServer([{ text: 'This is **not** raw.\n\n- first item\n- second item\n\n```js\nconst x = 1;\n```\nDone.' }]);
    servers.push(server);
    const result = await chatOnTerminal(server, [
      ['› ', 'hello\r'],
      ['Done.', '/quit\r'],
    ], env);
    expect(result.code).toBe(0);
    // The raw line shows while it streams (live preview) and is then replaced: look at what replaced it.
    const answer = result.output.slice(result.output.indexOf('hello'));
    expect(answer).toContain('• first item');
    expect(answer).toContain('\x1b[JThis is ');
    if (env.NO_COLOR === '') {
      expect(answer).toContain('\x1b[1mnot\x1b[0m');
      expect(answer).toContain('\x1b[35mconst\x1b[0m');
    } else {
      expect(answer).toContain('This is not raw.');
      expect(answer).not.toContain('\x1b[1m');
      expect(answer).not.toContain('\x1b[35m');
    }
  });
});
