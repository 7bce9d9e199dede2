import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dm, lastRole, startGatewayHarness, type GatewayHarness } from './fixtures/gateway/harness.js';
import { PLAIN_LIMITS } from './fixtures/gateway/test-adapter.js';

/**
 * Approvals through the gateway go through the engine's one broker (PARITY §20: Hermes' gateway bypassed manual
 * approvals). A dangerous command waits for the owner's button; deny stops it; a hardline command never runs and
 * no button is offered; nobody but the turn's owner or an admin can answer; unanswered means denied.
 */
const harnesses: GatewayHarness[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const GATEWAY = '  admins: ["telegram:admin"]\n  telegram:\n    allowed_users: ["alice", "bob"]\n';

/** A folder outside the workspace: deleting it needs approval (inside the workspace it would be routine). */
function victim(): string {
  const parent = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-gw-victim-')));
  folders.push(parent);
  const dir = join(parent, 'victim');
  mkdirSync(dir);
  return dir;
}

/** The model runs `command`, then reports the tool's result. */
function runs(command: string) {
  return (request: unknown) => {
    if (lastRole(request) !== 'tool') return { toolCalls: [{ name: 'terminal', arguments: { command } }] };
    const messages = (request as { messages: { content: string }[] }).messages;
    return { text: `tool said: ${messages.at(-1)?.content.slice(0, 200) ?? ''}` };
  };
}

async function open(command: string, options: { limits?: typeof PLAIN_LIMITS; configExtra?: string } = {}): Promise<GatewayHarness> {
  const h = await startGatewayHarness(runs(command), { gatewayConfig: GATEWAY, ...options });
  harnesses.push(h);
  return h;
}

async function approvalMessage(h: GatewayHarness, chatId = 'chat-alice') {
  await expect.poll(() => h.adapter.shown(chatId).find((m) => m.text.includes('wants to run'))?.messageId, { timeout: 15_000 }).toBeDefined();
  return h.adapter.shown(chatId).find((m) => m.text.includes('wants to run'))!;
}

function toolOutcomes(h: GatewayHarness): unknown[] {
  const sessionId = h.gateway.store.sessionFor('telegram:dm:chat-alice') ?? '';
  return h.engine.sessions.store.getMessages(sessionId).flatMap((m) => (m.role === 'tool' ? [m.outcome] : []));
}

describe('gateway approvals', () => {
  it('a dangerous command waits for the owner\'s button and runs once approved', async () => {
    const dir = victim();
    const h = await open(`rm -rf ${dir}`);
    await h.adapter.deliver(dm('alice', 'clean up'));
    const question = await approvalMessage(h);
    expect(question.text).toContain(`rm -rf ${dir}`);
    const ids = question.actions?.map((a) => a.id) ?? [];
    expect(ids).toEqual([expect.stringMatching(/^approve:.+:once$/), expect.stringMatching(/^approve:.+:session$/), expect.stringMatching(/^approve:.+:always$/), expect.stringMatching(/^deny:/)]);
    for (const id of ids) expect(Buffer.byteLength(id)).toBeLessThanOrEqual(64);
    // Waiting: nothing ran yet.
    await new Promise((r) => setTimeout(r, 200));
    expect(existsSync(dir)).toBe(true);
    await h.adapter.press({ chat: { id: 'chat-alice', type: 'dm' }, user: { id: 'alice' }, actionId: ids[0] ?? '', messageId: question.messageId });
    await h.gateway.idle();
    expect(existsSync(dir)).toBe(false);
    const shown = h.adapter.shown('chat-alice');
    // The question now says how it was answered and has no buttons left.
    expect(shown.find((m) => m.messageId === question.messageId)).toMatchObject({ text: expect.stringContaining('Allowed (once)'), actions: [] });
    expect(shown.at(-1)?.text).toMatch(/^tool said:/);
    expect(toolOutcomes(h)).toEqual([expect.objectContaining({ status: 'done' })]);
  });

  it('deny stops the command', async () => {
    const dir = victim();
    const h = await open(`rm -rf ${dir}`);
    await h.adapter.deliver(dm('alice', 'clean up'));
    const question = await approvalMessage(h);
    const deny = question.actions?.find((a) => a.id.startsWith('deny:'))?.id ?? '';
    await h.adapter.press({ chat: { id: 'chat-alice', type: 'dm' }, user: { id: 'alice' }, actionId: deny, messageId: question.messageId });
    await h.gateway.idle();
    expect(existsSync(dir)).toBe(true);
    expect(h.adapter.shown('chat-alice').find((m) => m.messageId === question.messageId)?.text).toContain('Denied (deny)');
    expect(toolOutcomes(h)).toEqual([expect.objectContaining({ status: 'denied' })]);
  });

  // Harmless if it ever ran (no such device), and hardline for the detector: it must be refused without a question.
  it('a hardline command never runs and no button is offered', async () => {
    const h = await open('mkfs.ext4 /dev/hearth-test-nonexistent');
    await h.adapter.deliver(dm('alice', 'format it'));
    await h.gateway.idle();
    const shown = h.adapter.shown('chat-alice');
    expect(shown.some((m) => (m.actions?.length ?? 0) > 0)).toBe(false);
    expect(shown.some((m) => m.text.includes('wants to run'))).toBe(false);
    expect(toolOutcomes(h)).toEqual([expect.objectContaining({ status: 'denied', note: 'hardline' })]);
  });

  // Catches a group where anyone who sees the buttons can approve what someone else's turn wants to run.
  it('refuses a press from anyone but the owner or an admin; an admin may answer', async () => {
    const dir = victim();
    const h = await open(`rm -rf ${dir}`);
    await h.adapter.deliver(dm('alice', 'clean up'));
    const question = await approvalMessage(h);
    const approve = question.actions?.[0]?.id ?? '';
    for (const stranger of ['bob', 'mallory']) {
      await h.adapter.press({ chat: { id: 'chat-alice', type: 'dm' }, user: { id: stranger }, actionId: approve, messageId: question.messageId });
    }
    expect(h.adapter.shown('chat-alice').filter((m) => m.text.startsWith('Only alice or an admin can answer'))).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(dir)).toBe(true);
    expect(h.engine.sessions.host.pendingQuestions().approvals).toHaveLength(1);
    await h.adapter.press({ chat: { id: 'chat-alice', type: 'dm' }, user: { id: 'admin' }, actionId: approve, messageId: question.messageId });
    await h.gateway.idle();
    expect(existsSync(dir)).toBe(false);
  });

  // Catches platforms without buttons (Signal) having no way to answer, so every command times out.
  it('takes /approve ID where the platform has no buttons, and only from the owner', async () => {
    const dir = victim();
    const h = await open(`rm -rf ${dir}`, { limits: PLAIN_LIMITS });
    await h.adapter.deliver(dm('alice', 'clean up'));
    const question = await approvalMessage(h);
    expect(question.actions).toBeUndefined();
    const short = /\/approve ([0-9a-f]{8})/.exec(question.text)?.[1];
    expect(short).toBeDefined();
    await h.adapter.deliver({ ...dm('bob', `/approve ${short ?? ''}`), chat: { id: 'chat-alice', type: 'dm' } });
    expect(h.adapter.shown('chat-alice').at(-1)?.text).toMatch(/^Only alice or an admin/);
    expect(existsSync(dir)).toBe(true);
    await h.adapter.deliver({ ...dm('alice', `/approve ${short ?? ''}`), chat: { id: 'chat-alice', type: 'dm' } });
    await h.gateway.idle();
    expect(existsSync(dir)).toBe(false);
  });

  // Catches an unanswered question that leaves the command waiting forever, or runs it.
  it('unanswered means denied, and the question says so', async () => {
    const dir = victim();
    const h = await open(`rm -rf ${dir}`, { configExtra: '' });
    const config = join(h.home, 'config.yaml');
    const { readFileSync, writeFileSync } = await import('node:fs');
    writeFileSync(config, readFileSync(config, 'utf8').replace('timeout_s: 20', 'timeout_s: 1'));
    await h.restart();
    await h.adapter.deliver(dm('alice', 'clean up'));
    const question = await approvalMessage(h);
    await h.gateway.idle();
    expect(existsSync(dir)).toBe(true);
    expect(h.adapter.shown('chat-alice').find((m) => m.messageId === question.messageId)?.text).toMatch(/Denied/);
    expect(toolOutcomes(h)).toEqual([expect.objectContaining({ status: 'timed_out' })]);
  });
});
