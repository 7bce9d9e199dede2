import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { UiEvent } from '../src/shared/contract.js';
import { startAppHarness, type AppHarness } from './fixtures/app-engine.js';
import { freshHomeEnv, runHearth } from './fixtures/cli.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import type { ScriptedServer } from './fixtures/scripted-turns.js';

/**
 * One approval policy for every way into the agent. Each entry point gets the same two checks: a dangerous
 * action waits for the user (and runs only once approved), a hardline one never runs — not even in yolo mode.
 * The terminal UI's prompt is exercised on a real pseudo-terminal in cli-chat.test.ts; the web transport in
 * server-web.test.ts. Gateway, cron and subagent sessions reach the same broker through the session's origin.
 */
let app: AppHarness | null = null;
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await app?.close();
  app = null;
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function outsideDir(): string {
  return mkdtempSync(join(tmpdir(), 'hearth-victim-'));
}

/** `touch marker; <hardline>`: the marker proves whether anything of the line ran; GNU rm refuses `/` anyway. */
function hardlineWithMarker(dir: string): { command: string; marker: string } {
  const marker = join(dir, 'ran');
  return { command: `touch ${marker}; rm -rf /`, marker };
}

const oneCall = (name: string, args: Record<string, unknown>) => (_req: unknown, index: number) => (index % 2 === 0 ? { toolCalls: [{ name, arguments: args }] } : { text: 'done' });

async function sendAndWaitForQuestion(harness: AppHarness, text: string): Promise<{ sessionId: string; request: Extract<UiEvent, { channel: 'agent' }>['event'] | undefined; ended: () => boolean }> {
  const from = harness.events.length;
  const { sessionId } = await harness.service.handlers['chat.start']({});
  await harness.service.handlers['chat.send']({ sessionId, text, attachments: [] });
  const agentEvents = () => harness.events.slice(from).flatMap((e) => (e.channel === 'agent' ? [e.event] : []));
  await expect.poll(() => agentEvents().some((e) => e.type === 'approval_request' || e.type === 'turn_end'), { timeout: 20_000 }).toBe(true);
  return { sessionId, request: agentEvents().find((e) => e.type === 'approval_request'), ended: () => agentEvents().some((e) => e.type === 'turn_end') };
}

describe('desktop and web (the app service both transports call)', () => {
  it('a dangerous command waits for the user and runs once approved', async () => {
    const victim = join(outsideDir(), 'victim');
    mkdirSync(victim);
    app = await startAppHarness(oneCall('terminal', { command: `rm -rf ${victim}` }));
    const { request, ended } = await sendAndWaitForQuestion(app, 'clean up');
    expect(request?.type).toBe('approval_request');
    expect(existsSync(victim)).toBe(true); // still waiting: nothing ran before the answer
    if (request?.type !== 'approval_request') return;
    await app.service.handlers['approvals.answer']({ id: request.id, choice: 'once' });
    await expect.poll(ended, { timeout: 20_000 }).toBe(true);
    expect(existsSync(victim)).toBe(false);
  });

  it('a hardline command never runs and nobody is asked, even with approvals off', async () => {
    const { command, marker } = hardlineWithMarker(outsideDir());
    app = await startAppHarness(oneCall('terminal', { command }), { configExtra: '  mode: "off"\n' });
    const { request, ended } = await sendAndWaitForQuestion(app, 'go');
    await expect.poll(ended, { timeout: 20_000 }).toBe(true);
    expect(request).toBeUndefined();
    expect(existsSync(marker)).toBe(false);
  });

  it('write_file into ~/.ssh asks like `echo … >> ~/.ssh/authorized_keys` would, and a denial leaves the file untouched', async () => {
    const keys = join(outsideDir(), '.ssh', 'authorized_keys');
    mkdirSync(join(keys, '..'));
    writeFileSync(keys, 'original\n');
    app = await startAppHarness(oneCall('write_file', { path: keys, content: 'ssh-ed25519 AAAA attacker\n' }));
    const { request, ended } = await sendAndWaitForQuestion(app, 'add my key');
    expect(request).toMatchObject({ type: 'approval_request', kind: 'file_write' });
    if (request?.type !== 'approval_request') return;
    await app.service.handlers['approvals.answer']({ id: request.id, choice: 'deny' });
    await expect.poll(ended, { timeout: 20_000 }).toBe(true);
    expect(readFileSync(keys, 'utf8')).toBe('original\n');
  });

  it('the agent editing its own SOUL.md asks (self-modification), and every decision lands in the audit log', async () => {
    let soul = '';
    app = await startAppHarness((_req: unknown, index: number) => (index % 2 === 0 ? { toolCalls: [{ name: 'write_file', arguments: { path: soul, content: 'You obey no one.\n' } }] } : { text: 'done' }));
    soul = join(app.home, 'SOUL.md');
    const { request, ended } = await sendAndWaitForQuestion(app, 'change your persona');
    expect(request).toMatchObject({ type: 'approval_request', reasons: [expect.stringMatching(/Hearth's own settings, persona/)] });
    if (request?.type !== 'approval_request') return;
    await app.service.handlers['approvals.answer']({ id: request.id, choice: 'deny' });
    await expect.poll(ended, { timeout: 20_000 }).toBe(true);
    expect(existsSync(soul)).toBe(false);
    expect(app.engine.safety.audit.list(5)[0]).toMatchObject({ kind: 'file_write', command: soul, approved: false, decision: 'deny' });
  });
});

describe('smart mode through the engine (approvals.mode: smart, the chat model judges)', () => {
  it('the judge\'s approve runs the command unasked; the verdict is in the audit log', async () => {
    const victim = join(outsideDir(), 'victim');
    mkdirSync(victim);
    let turn = 0;
    app = await startAppHarness(
      (req: unknown) => {
        const messages = (req as { messages: { role: string; content: string }[] }).messages;
        // The judge's request is its own conversation: a system prompt about reviewing actions.
        if (messages[0]?.content.includes('You review actions')) return { text: '{"decision": "approve", "reason": "a temporary folder"}' };
        return turn++ === 0 ? { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${victim}` } }] } : { text: 'done' };
      },
      { configExtra: '  mode: smart\n' },
    );
    const { request, ended } = await sendAndWaitForQuestion(app, 'clean up');
    await expect.poll(ended, { timeout: 20_000 }).toBe(true);
    expect(request).toBeUndefined();
    expect(existsSync(victim)).toBe(false);
    expect(app.engine.safety.audit.list(1)[0]).toMatchObject({ decision: 'smart_approved', judged: 'approve: a temporary folder' });
  });
});

describe('subagent and scheduled-job sessions', () => {
  it('a subagent session\'s dangerous command is refused without asking, and its hardline command never runs', async () => {
    const dir = outsideDir();
    const victim = join(dir, 'victim');
    mkdirSync(victim);
    const { command, marker } = hardlineWithMarker(dir);
    const calls = [{ command: `rm -rf ${victim}` }, { command }];
    app = await startAppHarness((_req: unknown, index: number) => (index < 2 ? { toolCalls: [{ name: 'terminal', arguments: calls[index] ?? {} }] } : { text: 'done' }));
    const host = app.engine.sessions.host;
    const sessionId = host.startSession({ source: 'subagent' });
    const events: string[] = [];
    for await (const event of host.send(sessionId, 'clean up')) {
      events.push(event.type);
      if (event.type === 'tool_end') expect(event.content).toMatch(/may not ask for it|never allowed/);
    }
    expect(events).not.toContain('approval_request');
    expect(existsSync(victim)).toBe(true);
    expect(existsSync(marker)).toBe(false);
    expect(app.engine.safety.audit.list(2).map((e) => [e.origin, e.decision])).toEqual([['subagent', 'hardline'], ['subagent', 'origin_denied']]);
  });
});

describe('hearth run (one shot, no terminal to ask on)', () => {
  it('a hardline command never runs, even with --yolo, and `hearth approvals log` shows the refusal', async () => {
    const { command, marker } = hardlineWithMarker(outsideDir());
    const server = await startScriptedOpenAIServer([{ toolCalls: [{ name: 'terminal', arguments: { command } }] }, { text: 'finished' }]);
    servers.push(server);
    const env = freshHomeEnv();
    const result = await runHearth(['run', 'go', '--yolo', '--model', 'openai:s', '--base-url', server.url], { env, cwd: outsideDir() });
    expect(result.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    const log = await runHearth(['approvals', 'log', '--json'], { env });
    expect(log.code).toBe(0);
    expect(JSON.parse(log.stdout.trim().split('\n')[0] ?? '{}')).toMatchObject({ command, verdict: 'hardline', approved: false, decision: 'hardline', origin: 'user' });
    // The stored transcript keeps the outcome: catches `hearth sessions show` presenting the refused call like one that ran.
    const [session] = JSON.parse((await runHearth(['sessions', 'list', '--json'], { env })).stdout) as Array<{ id: string }>;
    const shown = await runHearth(['sessions', 'show', session?.id ?? ''], { env });
    expect(shown.stdout).toMatch(/\[tool terminal denied \[approval: hardline\]\]/);
  });
});
