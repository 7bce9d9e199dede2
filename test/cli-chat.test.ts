import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, freshHomeEnv, runHearth, spawnHearth } from './fixtures/cli.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import type { ScriptedServer } from './fixtures/scripted-turns.js';

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

interface ShownSession {
  messages: { role: string; toolCalls: { name: string }[] | null; toolName: string | null }[];
}

describe('hearth chat', () => {
  // Catches slash commands being sent to the model, or queued lines being dropped after a turn.
  it('runs slash commands and turns from piped input', async () => {
    const server = await startScriptedOpenAIServer([{ text: 'Hi there!', usage: { input: 120, output: 3 } }]);
    servers.push(server);
    const result = await runHearth(['chat', '--model', 'openai:s', '--base-url', server.url], {
      env: freshHomeEnv(),
      input: '/help\nhello\n/usage\n/tools\n/model\n/quit\nthis line is never sent\n',
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('/new');
    expect(result.stdout).toContain('Hi there!');
    expect(result.stdout).toMatch(/120 input tokens, 3 output tokens, 2 messages/);
    expect(result.stdout).toContain('read_file, write_file, patch');
    expect(result.stdout).toContain('openai:s');
    expect(server.requests).toHaveLength(1);
  });
});

describe('durability', () => {
  // Catches messages buffered in memory: a SIGKILL mid-turn must leave every committed message readable.
  it('a hearth run killed with SIGKILL mid-turn leaves every committed message readable', async () => {
    const server = await startScriptedOpenAIServer([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'A' } }] },
      { text: 'this answer never finishes streaming', hangMs: 60_000 },
    ]);
    servers.push(server);
    const env = freshHomeEnv();
    const cwd = mkdtempSync(join(tmpdir(), 'hearth-ws-'));
    const child = spawnHearth(['run', 'write a.txt', '--model', 'openai:s', '--base-url', server.url], { env, cwd });
    const exited = collect(child, undefined, 60_000);
    // The second model call starts only after the tool result was handed to the store.
    const deadline = Date.now() + 30_000;
    while (server.requests.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(server.requests).toHaveLength(2);
    child.kill('SIGKILL');
    const killed = await exited;
    expect(killed.signal).toBe('SIGKILL');

    const listed = JSON.parse((await runHearth(['sessions', 'list', '--json'], { env })).stdout) as { id: string }[];
    expect(listed).toHaveLength(1);
    const shown = JSON.parse((await runHearth(['sessions', 'show', listed[0]!.id, '--json'], { env })).stdout) as ShownSession;
    expect(shown.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(shown.messages[1]?.toolCalls?.[0]?.name).toBe('write_file');
    expect(shown.messages[2]?.toolName).toBe('write_file');
  });
});

describe('interrupt', () => {
  // Catches Ctrl+C killing the process without ending the turn cleanly (or not reaching the model stream).
  it('SIGINT during a streaming answer interrupts the turn: exit 130, and the user message is kept', async () => {
    const server = await startScriptedOpenAIServer([{ text: 'a long answer that stalls', hangMs: 60_000 }]);
    servers.push(server);
    const env = freshHomeEnv();
    const child = spawnHearth(['run', 'tell me a story', '--model', 'openai:s', '--base-url', server.url], { env });
    const exited = collect(child, undefined, 30_000);
    const deadline = Date.now() + 20_000;
    while (server.requests.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300)); // let the first chunk arrive
    child.kill('SIGINT');
    const result = await exited;
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('(interrupted)');
    const listed = JSON.parse((await runHearth(['sessions', 'list', '--json'], { env })).stdout) as { id: string }[];
    const shown = JSON.parse((await runHearth(['sessions', 'show', listed[0]!.id, '--json'], { env })).stdout) as ShownSession;
    // The interrupted response is dropped whole: no half answer in history.
    expect(shown.messages.map((m) => m.role)).toEqual(['user']);
  });
});

describe('hearth prompt-size', () => {
  // Catches a JSON shape that drifts from {"default", "toolsets": {name: {chars, tokens}}}, or counts that ignore the schemas.
  it('reports chars and tokens per toolset', async () => {
    const result = await runHearth(['prompt-size', '--json'], { env: freshHomeEnv() });
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as { default: string; toolsets: Record<string, { chars: number; tokens: number }> };
    expect(out.default).toBe('default');
    const full = out.toolsets.default!;
    const lite = out.toolsets.lite!;
    expect(full.tokens).toBeGreaterThan(lite.tokens);
    expect(full.chars).toBeGreaterThan(lite.chars);
    // A real tokenizer gives well under one token per character and more than one per ten on prose + JSON.
    expect(full.tokens).toBeLessThan(full.chars / 2);
    expect(full.tokens).toBeGreaterThan(full.chars / 10);
  });
});
