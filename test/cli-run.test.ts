import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freshHomeEnv, runHearth } from './fixtures/cli.js';
import { startScriptedAnthropicServer } from './fixtures/scripted-anthropic-server.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import type { ScriptedServer } from './fixtures/scripted-turns.js';

/**
 * `hearth run` end to end: the real CLI process, the real engine and encrypted store, and a local HTTP
 * server speaking the provider's streaming wire protocol.
 */
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function workspace(): string {
  return mkdtempSync(join(tmpdir(), 'hearth-ws-'));
}

interface RunJson {
  session_id: string;
  final: string;
  messages: { role: string; content: string; toolCalls: { name: string }[] | null; toolName: string | null }[];
  usage: { input_tokens: number; output_tokens: number };
}

describe('hearth run', () => {
  // Catches a CLI that prints tool calls instead of running them, or prints more than the final answer.
  it('performs a write_file call from an OpenAI-compatible server and prints the final answer', async () => {
    const server = await startScriptedOpenAIServer([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'notes/hello.txt', content: 'hi from hearth\n' } }], usage: { input: 900, output: 20 } },
      { text: 'I wrote notes/hello.txt.', usage: { input: 950, output: 8 } },
    ]);
    servers.push(server);
    const cwd = workspace();
    const result = await runHearth(['run', 'create notes/hello.txt', '--model', 'openai:scripted', '--base-url', server.url], { env: freshHomeEnv(), cwd });
    expect(result.stderr).toContain('write_file');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('I wrote notes/hello.txt.\n');
    expect(readFileSync(join(cwd, 'notes/hello.txt'), 'utf8')).toBe('hi from hearth\n');
    // The second request carried the tool result back to the model.
    const second = server.requests[1] as { messages: { role: string; content: string }[] };
    expect(second.messages.at(-1)?.role).toBe('tool');
    expect(second.messages.at(-1)?.content).toMatch(/hello\.txt/);
  });

  // Catches a --json shape that drifts from what scripts and acceptance checks parse.
  it('--json prints session_id, final, messages and usage, and the session is stored', async () => {
    const server = await startScriptedAnthropicServer([
      { toolCalls: [{ name: 'todo', arguments: { todos: [{ id: '1', content: 'say hi', status: 'completed' }] } }], usage: { input: 300, output: 12 } },
      { text: 'Done: said hi.', usage: { input: 340, output: 5 } },
    ]);
    servers.push(server);
    const env = freshHomeEnv({ TEST_ANTHROPIC_KEY: 'sk-ant-test' });
    const result = await runHearth(
      ['run', 'say hi', '--json', '--model', 'anthropic:claude-test', '--base-url', server.url, '--api-key-env', 'TEST_ANTHROPIC_KEY'],
      { env, cwd: workspace() },
    );
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as RunJson;
    expect(Object.keys(out).sort()).toEqual(['final', 'messages', 'session_id', 'usage']);
    expect(out.final).toBe('Done: said hi.');
    expect(out.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(out.messages[1]?.toolCalls?.[0]?.name).toBe('todo');
    expect(out.usage).toEqual({ input_tokens: 640, output_tokens: 17 });

    const listed = await runHearth(['sessions', 'list', '--json'], { env });
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((s) => s.id)).toEqual([out.session_id]);
    const shown = JSON.parse((await runHearth(['sessions', 'show', out.session_id, '--json'], { env })).stdout) as { messages: unknown[] };
    expect(shown.messages).toHaveLength(4);
    const hits = JSON.parse((await runHearth(['sessions', 'search', 'said', '--json'], { env })).stdout) as { session: { id: string } }[];
    expect(hits[0]?.session.id).toBe(out.session_id);
  });

  // Catches a failure that exits 0 or hides its reason.
  it('exits non-zero with the reason on stderr when the model cannot be reached', async () => {
    const result = await runHearth(['run', 'hello', '--model', 'openai:x', '--base-url', 'http://127.0.0.1:9/v1'], { env: freshHomeEnv(), cwd: workspace() });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/model_connection|connect/i);
  });

  // Catches the fallback chain not being wired from config.yaml (the default fails, the fallback answers).
  it('falls back to the next configured model and says so', async () => {
    const server = await startScriptedOpenAIServer([{ text: 'answer from the fallback' }]);
    servers.push(server);
    const env = freshHomeEnv();
    writeFileSync(
      join(env.HEARTH_HOME as string, 'config.yaml'),
      `version: 1\nmodel:\n  default: dead:m\n  fallbacks: [live:m]\nproviders:\n  dead: { type: openai, base_url: "http://127.0.0.1:9/v1" }\n  live: { type: openai, base_url: "${server.url}" }\n`,
    );
    const result = await runHearth(['run', 'hello'], { env, cwd: workspace() });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('answer from the fallback\n');
    expect(result.stderr).toMatch(/dead:m failed .*using live:m/);
  });

  // Catches a flagged command running without approval when nobody can approve it (must fail closed).
  it('denies a dangerous command without a terminal, and runs it with --yolo', async () => {
    // Outside the workspace: a recursive delete inside it is routine and runs unasked.
    const victim = join(workspace(), 'victim');
    const script = () => [
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${victim}` } }] },
      { text: 'finished' },
    ];
    const cwd = workspace();
    mkdirSync(victim);

    const denied = await startScriptedOpenAIServer(script());
    servers.push(denied);
    const first = await runHearth(['run', 'clean up', '--model', 'openai:s', '--base-url', denied.url], { env: freshHomeEnv(), cwd });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('denied');
    expect(existsSync(victim)).toBe(true);
    const toolResult = (denied.requests[1] as { messages: { role: string; content: string }[] }).messages.at(-1);
    expect(toolResult?.content).toMatch(/denied|not approved/i);

    const yolo = await startScriptedOpenAIServer(script());
    servers.push(yolo);
    const second = await runHearth(['run', 'clean up', '--yolo', '--model', 'openai:s', '--base-url', yolo.url], { env: freshHomeEnv(), cwd });
    expect(second.code).toBe(0);
    expect(existsSync(victim)).toBe(false);
  });

  // Catches a tool call written as text (<tool_call> or bare JSON) being printed instead of executed.
  it('executes tool calls a server left in the text, in both the tagged and the bare JSON form', async () => {
    const server = await startScriptedOpenAIServer([
      { text: 'Sure.\n<tool_call>\n{"name": "write_file", "arguments": {"path": "tagged.txt", "content": "T"}}\n</tool_call>' },
      { text: '{"name": "write_file", "arguments": {"path": "bare.txt", "content": "B"}}' },
      { text: 'Both files written.' },
    ]);
    servers.push(server);
    const cwd = workspace();
    const result = await runHearth(['run', 'write two files', '--model', 'openai:s', '--base-url', server.url], { env: freshHomeEnv(), cwd });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Both files written.\n');
    expect(readFileSync(join(cwd, 'tagged.txt'), 'utf8')).toBe('T');
    expect(readFileSync(join(cwd, 'bare.txt'), 'utf8')).toBe('B');
  });

  // Catches a scheme-less --base-url failing later as a confusing connection error.
  it('rejects a --base-url that is not an http(s) URL before calling anything', async () => {
    const result = await runHearth(['run', 'x', '--model', 'm', '--base-url', 'localhost:11434'], { env: freshHomeEnv() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('"localhost:11434" is not an http(s) base URL');
  });

  // Catches unknown flags being ignored (a typo must not silently run with defaults).
  it('rejects an unknown flag with a usage error', async () => {
    const result = await runHearth(['run', 'x', '--modle', 'y'], { env: freshHomeEnv() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--modle/);
  });

  // Catches the keychain warning printed on every start even when nothing needs the keychain (issue 12): a server
  // on this machine with no api_key_env works without a key, so an unreadable keychain is not worth a word.
  it('says nothing about an unreadable keychain when the provider is a local server that needs no key', async () => {
    const server = await startScriptedOpenAIServer([{ text: 'hello from the local server' }]);
    servers.push(server);
    const env = freshHomeEnv({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/hearth-no-bus' });
    writeFileSync(join(env.HEARTH_HOME as string, 'config.yaml'), `providers:\n  lab: { type: openai, base_url: "${server.url}" }\n`);
    const result = await runHearth(['run', 'hi', '--model', 'lab:scripted'], { env, cwd: workspace() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('hello from the local server');
    expect(result.stderr).not.toMatch(/keychain/i);
  });
});
