import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openEngine, type Engine } from '../src/core/engine.js';
import { Gateway } from '../src/core/gateway/gateway.js';
import { GatewayStore } from '../src/core/gateway/gateway-store.js';
import { createSlackAdapter } from '../src/core/gateway/platforms/slack.js';
import { freshHomeEnv } from './fixtures/cli.js';
import { lastRole } from './fixtures/gateway/harness.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import type { ScriptedServer } from './fixtures/scripted-turns.js';
import { BOT_USER_ID, startFakeSlack, type FakeSlack, type PostedMessage } from './fixtures/slack-server.js';

/**
 * Approvals through Slack: the real engine (encrypted store file, terminal tool, the one approval broker) behind
 * the real Gateway, the Slack adapter in Socket Mode against the local Slack. A dangerous command waits for the
 * owner's Block Kit button, pressed as Slack delivers it (an `interactive` envelope); a hardline one never runs
 * and no button is offered (PARITY §20: Hermes' gateway bypassed manual approvals).
 */
const BOT_TOKEN = 'xoxb-3-hearth-test';
const APP_TOKEN = 'xapp-3-hearth-test';

interface Rig { slack: FakeSlack; server: ScriptedServer; engine: Engine; gateway: Gateway; victim: string; folders: string[] }
const rigs: Rig[] = [];

afterEach(async () => {
  for (const rig of rigs.splice(0)) {
    await rig.gateway.stop();
    await rig.engine.dispose();
    await rig.server.close();
    await rig.slack.close();
    for (const dir of rig.folders) rmSync(dir, { recursive: true, force: true });
  }
});

/** The model runs `command`, then reports the tool's result. */
function runs(command: string) {
  return (request: unknown) => {
    if (lastRole(request) !== 'tool') return { toolCalls: [{ name: 'terminal', arguments: { command } }] };
    const messages = (request as { messages: { content: string }[] }).messages;
    return { text: `tool said: ${messages.at(-1)?.content.slice(0, 200) ?? ''}` };
  };
}

async function rig(command: (victim: string) => string): Promise<Rig> {
  const parent = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-slack-victim-')));
  const victim = join(parent, 'victim');
  mkdirSync(victim);
  const slack = await startFakeSlack({ botToken: BOT_TOKEN, appToken: APP_TOKEN, users: { U0ADA: { name: 'ada' } } });
  const server = await startScriptedOpenAIServer(runs(command(victim)));
  const env = freshHomeEnv();
  const home = env.HEARTH_HOME as string;
  const workspace = join(realpathSync(home), 'gateway-workspace');
  mkdirSync(workspace);
  writeFileSync(join(home, 'config.yaml'),
    `version: 1\nmodel:\n  default: "scripted:model"\nproviders:\n  scripted: { type: openai, base_url: "${server.url}", context_length: 32768 }\n` +
    'review:\n  enabled: false\nuser_model:\n  enabled: false\napprovals:\n  timeout_s: 20\n' +
    'gateway:\n  slack:\n    allowed_users: ["U0ADA"]\n');
  const engine = await openEngine({ env, workspace, userHome: join(home, 'user-home'), onWarning: () => undefined });
  const store = new GatewayStore(engine.sessions.store.db);
  const adapter = createSlackAdapter({ mode: 'socket', botToken: BOT_TOKEN, appToken: APP_TOKEN, apiUrl: slack.apiUrl }, Gateway.adapterContext(store, 'slack', () => undefined));
  const gateway = new Gateway({ engine, store, adapters: [adapter] });
  await gateway.start();
  const r = { slack, server, engine, gateway, victim, folders: [parent, home] };
  rigs.push(r);
  return r;
}

function dm(slack: FakeSlack, text: string): void {
  slack.deliverEvent({ type: 'message', channel: 'D0DM1', channel_type: 'im', user: 'U0ADA', text, ts: slack.nextTs(), event_ts: '0' });
}

function toolOutcomes({ engine, gateway }: Rig): unknown[] {
  const sessionId = gateway.store.sessionFor('slack:dm:D0DM1') ?? '';
  return engine.sessions.store.getMessages(sessionId).flatMap((m) => (m.role === 'tool' ? [m.outcome] : []));
}

function buttonsOf(message: PostedMessage | undefined): string[] {
  const actions = (message?.blocks ?? []).find((b) => (b as { type: string }).type === 'actions') as { elements: { action_id: string }[] } | undefined;
  return actions?.elements.map((e) => e.action_id) ?? [];
}

function press(slack: FakeSlack, message: PostedMessage, actionId: string, user = 'U0ADA'): void {
  slack.deliverInteraction({
    type: 'block_actions', user: { id: user, username: user }, team: { id: 'T0HEARTH' }, api_app_id: 'A0HEARTH',
    container: { type: 'message', message_ts: message.ts, channel_id: message.channel }, channel: { id: message.channel },
    message: { type: 'message', ts: message.ts, text: message.text, user: BOT_USER_ID },
    actions: [{ action_id: actionId, type: 'button', value: actionId, action_ts: slack.nextTs() }],
  });
}

describe('slack approvals through the gateway', () => {
  it('a dangerous command waits for the owner\'s button and runs once it is pressed; the buttons are then removed', async () => {
    const r = await rig((dir) => `rm -rf ${dir}`);
    const { slack, gateway, victim } = r;
    dm(slack, 'clean up');
    await expect.poll(() => slack.messages.find((m) => buttonsOf(m).length > 0), { timeout: 15_000 }).toBeDefined();
    const question = slack.messages.find((m) => buttonsOf(m).length > 0)!;
    expect(question.channel).toBe('D0DM1');
    expect(JSON.stringify(question.blocks)).toContain(`rm -rf ${victim}`);
    const ids = buttonsOf(question);
    expect(ids).toEqual([expect.stringMatching(/^approve:.+:once$/), expect.stringMatching(/^approve:.+:session$/), expect.stringMatching(/^approve:.+:always$/), expect.stringMatching(/^deny:/)]);
    await new Promise((r) => setTimeout(r, 200));
    expect(existsSync(victim)).toBe(true);
    // A stranger's press is refused; the owner's runs it.
    press(slack, question, ids[0]!, 'U0MALLORY');
    await expect.poll(() => slack.messages.some((m) => /Only .* can answer/.test(m.text)), { timeout: 10_000 }).toBe(true);
    expect(existsSync(victim)).toBe(true);
    press(slack, question, ids[0]!);
    await expect.poll(() => existsSync(victim), { timeout: 15_000 }).toBe(false);
    await gateway.idle();
    expect(question.blocks).toBeUndefined();
    expect(question.text).toContain('Allowed (once)');
    expect(slack.messages.at(-1)?.text).toMatch(/^tool said:/);
    expect(slack.envelopes.every((e) => e.acked)).toBe(true);
    expect(toolOutcomes(r)).toEqual([expect.objectContaining({ status: 'done' })]);
  });

  it('a hardline command never runs and no button is offered', async () => {
    const r = await rig(() => 'mkfs.ext4 /dev/hearth-test-nonexistent');
    const { slack, gateway } = r;
    dm(slack, 'format it');
    await expect.poll(() => slack.messages.some((m) => m.text.startsWith('tool said:')), { timeout: 15_000 }).toBe(true);
    await gateway.idle();
    expect(slack.messages.some((m) => buttonsOf(m).length > 0)).toBe(false);
    expect(toolOutcomes(r)).toEqual([expect.objectContaining({ status: 'denied', note: 'hardline' })]);
  });
});
