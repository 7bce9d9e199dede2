import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDiscordAdapter } from '../src/core/gateway/platforms/discord.js';
import type { ActionEvent, AdapterState, CursorStore, MessageEvent, PlatformAdapter } from '../src/core/gateway/types.js';
import { startFakeDiscord, type FakeChannel, type FakeDiscord } from './fixtures/discord-server.js';

const TOKEN = 'test-token.discord';
const GUILD = '900000000000000001';
const GENERAL: FakeChannel = { id: '900000000000000002', type: 0, name: 'general', guildId: GUILD };
const THREAD: FakeChannel = { id: '900000000000000003', type: 11, name: 'a-thread', parentId: GENERAL.id, guildId: GUILD };
const DM: FakeChannel = { id: '900000000000000004', type: 1 };
const ALICE = { id: '800000000000000001', username: 'alice', global_name: 'Alice' };

interface Harness {
  fake: FakeDiscord;
  adapter: PlatformAdapter;
  messages: MessageEvent[];
  actions: ActionEvent[];
  states: AdapterState[];
  warnings: string[];
  cursor: Map<string, string>;
}

const open: Harness[] = [];

afterEach(async () => {
  for (const h of open.splice(0)) {
    await h.adapter.disconnect();
    await h.fake.close();
  }
});

function mapCursor(map: Map<string, string>): CursorStore {
  return { get: (k) => map.get(k), set: (k, v) => void map.set(k, v) };
}

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function start(opts: { token?: string; cursor?: Map<string, string>; fake?: FakeDiscord; connect?: boolean } = {}): Promise<Harness> {
  const fake = opts.fake ?? (await startFakeDiscord({ token: TOKEN, guilds: [{ id: GUILD, name: 'guild', channels: [GENERAL, THREAD] }] }));
  const cursor = opts.cursor ?? new Map<string, string>();
  const warnings: string[] = [];
  const adapter = createDiscordAdapter(
    { token: opts.token ?? TOKEN, apiRoot: fake.apiRoot, backoff: { initialMs: 50, maxMs: 200 }, quickReconnects: 3 },
    { cursor: mapCursor(cursor), warn: (m) => warnings.push(m) },
  );
  const h: Harness = { fake, adapter, messages: [], actions: [], states: [], warnings, cursor };
  open.push(h);
  if (opts.connect !== false) {
    await adapter.connect({
      onMessage: async (e) => void h.messages.push(e),
      onAction: async (e) => void h.actions.push(e),
      onState: (s) => void h.states.push(s),
    });
  }
  return h;
}

describe('discord adapter against a local Discord (REST + Gateway WebSocket, discord.js 14)', () => {
  it('connects (IDENTIFY with the token, JSON, no compression) and reports connected with the bot tag', async () => {
    const h = await start();
    const state = await until('connected', () => h.states.find((s) => s.state === 'connected'));
    expect(state).toMatchObject({ state: 'connected', account: 'hearth-test' });
    const identify = h.fake.received.find((f) => f.op === 2)?.d as { token: string; intents: number; compress: boolean };
    expect(identify.token).toBe(TOKEN);
    expect(identify.compress).toBe(false);
    // Guilds | GuildMessages | DirectMessages | MessageContent
    expect(identify.intents).toBe(1 | (1 << 9) | (1 << 12) | (1 << 15));
    // slash commands registered best-effort
    await until('commands PUT', () => h.fake.requests.find((r) => r.method === 'PUT' && r.path === `/applications/${h.fake.applicationId}/commands`));
  });

  it('turns DM, guild and thread messages into MessageEvents with mention and reply fields', async () => {
    const h = await start();
    await until('connected', () => h.states.some((s) => s.state === 'connected'));
    const dm = h.fake.userMessage({ channel: DM, author: ALICE, content: 'hello in private' });
    const plain = h.fake.userMessage({ channel: GENERAL, author: ALICE, content: 'just chatting' });
    const mention = h.fake.userMessage({ channel: GENERAL, author: ALICE, content: `<@${h.fake.bot.id}> /status`, mentions: [h.fake.bot] });
    const inThread = h.fake.userMessage({ channel: THREAD, author: ALICE, content: 'in the thread' });
    const botMsg = h.fake.storeMessage({ id: '900000000000000100', channel_id: GENERAL.id, guild_id: GUILD, author: { id: h.fake.bot.id, username: 'hearth-test', bot: true }, content: 'I said', timestamp: new Date().toISOString() });
    const reply = h.fake.userMessage({ channel: GENERAL, author: ALICE, content: 'answering you', replyTo: String(botMsg.id) });
    await until('6 messages', () => h.messages.length >= 5 && h.messages);
    const byId = (m: Record<string, unknown>) => h.messages.find((e) => e.messageId === m.id);
    expect(byId(dm)).toMatchObject({ platform: 'discord', chat: { id: DM.id, type: 'dm' }, user: { id: ALICE.id, name: 'Alice', isBot: false }, text: 'hello in private', mentionsBot: false });
    expect(byId(plain)).toMatchObject({ chat: { id: GENERAL.id, type: 'group' }, mentionsBot: false });
    expect(byId(plain)?.threadId).toBeUndefined();
    expect(byId(mention)).toMatchObject({ text: '/status', mentionsBot: true });
    expect(byId(inThread)).toMatchObject({ chat: { id: GENERAL.id, type: 'group' }, threadId: THREAD.id });
    expect(byId(reply)).toMatchObject({ replyTo: { messageId: botMsg.id, fromBot: true } });
    expect(h.messages.every((m) => m.sentAt > 0)).toBe(true);
  });

  it('reports attachments and downloads one through a fresh copy of its message', async () => {
    const h = await start();
    await until('connected', () => h.states.some((s) => s.state === 'connected'));
    const png = Buffer.from('\x89PNG fake image bytes');
    const att = h.fake.attachment('900000000000000201', 'cat.png', png, 'image/png');
    const voice = h.fake.attachment('900000000000000202', 'voice-message.ogg', Buffer.from('OggS'), 'audio/ogg', 1 << 13);
    h.fake.userMessage({ channel: DM, author: ALICE, content: '', attachments: [att, voice] });
    const event = await until('message', () => h.messages[0]);
    expect(event.attachments.map((a) => [a.kind, a.name, a.mimeType, a.bytes])).toEqual([['image', 'cat.png', 'image/png', png.length], ['voice', 'voice-message.ogg', 'audio/ogg', 4]]);
    const dest = join(mkdtempSync(join(tmpdir(), 'hearth-discord-')), 'cat.png');
    await h.adapter.download(event.attachments[0]!, dest);
    expect(readFileSync(dest)).toEqual(png);
    expect(h.fake.requests.some((r) => r.method === 'GET' && r.path === `/channels/${DM.id}/messages/${event.messageId}`)).toBe(true);
  });

  it('sends, edits, types and uploads files through REST as the server records them', async () => {
    const h = await start();
    await until('connected', () => h.states.some((s) => s.state === 'connected'));
    const { messageId } = await h.adapter.send({ chatId: GENERAL.id, threadId: THREAD.id, text: 'working… @everyone', replyTo: '900000000000000050', actions: [{ id: 'approve:abc:once', label: 'Approve', style: 'primary' }, { id: 'deny:abc', label: 'Deny', style: 'danger' }] });
    const post = h.fake.requests.find((r) => r.method === 'POST' && r.path === `/channels/${THREAD.id}/messages`);
    expect(post?.authorization).toBe(`Bot ${TOKEN}`);
    expect(post?.body).toMatchObject({
      content: 'working… @everyone',
      allowed_mentions: { parse: [] },
      message_reference: { message_id: '900000000000000050' },
      components: [{ type: 1, components: [{ type: 2, custom_id: 'approve:abc:once', label: 'Approve', style: 1 }, { type: 2, custom_id: 'deny:abc', style: 4 }] }],
    });
    // edit only knows the chat id; the adapter remembers the message lives in the thread
    await h.adapter.edit(GENERAL.id, messageId, 'done', []);
    const patch = h.fake.requests.find((r) => r.method === 'PATCH');
    expect(patch?.path).toBe(`/channels/${THREAD.id}/messages/${messageId}`);
    expect(patch?.body).toMatchObject({ content: 'done', components: [] });
    await h.adapter.typing(GENERAL.id);
    expect(h.fake.requests.some((r) => r.method === 'POST' && r.path === `/channels/${GENERAL.id}/typing`)).toBe(true);
    const file = join(mkdtempSync(join(tmpdir(), 'hearth-discord-')), 'report.txt');
    writeFileSync(file, 'the report');
    await h.adapter.sendFile({ chatId: DM.id, path: file, caption: 'here it is' });
    const upload = h.fake.requests.find((r) => r.files.length > 0);
    expect(upload?.path).toBe(`/channels/${DM.id}/messages`);
    expect(upload?.body).toMatchObject({ content: 'here it is' });
    expect(upload?.files.map((f) => [f.name, f.content.toString()])).toEqual([['report.txt', 'the report']]);
    await expect(h.adapter.send({ chatId: DM.id, text: 'x'.repeat(2001) })).rejects.toThrow(/at most 2000 characters/);
  });

  it('turns a button press into an ActionEvent and acknowledges it with a deferred update (type 6)', async () => {
    const h = await start();
    await until('connected', () => h.states.some((s) => s.state === 'connected'));
    const { messageId } = await h.adapter.send({ chatId: GENERAL.id, text: 'run rm -rf build?', actions: [{ id: 'approve:r1:once', label: 'Approve' }] });
    h.fake.dispatch('INTERACTION_CREATE', {
      id: '900000000000000300', application_id: h.fake.applicationId, type: 3, token: 'itoken', version: 1, guild_id: GUILD, channel_id: GENERAL.id,
      channel: { id: GENERAL.id, type: 0, guild_id: GUILD }, member: { user: { ...ALICE, discriminator: '0', avatar: null }, roles: [], joined_at: new Date().toISOString(), permissions: '0' },
      data: { custom_id: 'approve:r1:once', component_type: 2 }, message: { id: messageId, channel_id: GENERAL.id, content: 'run rm -rf build?', author: { id: h.fake.bot.id, username: 'hearth-test', discriminator: '0', bot: true }, timestamp: new Date().toISOString(), attachments: [], embeds: [], mentions: [], components: [] },
      app_permissions: '0', locale: 'en-US', entitlements: [], authorizing_integration_owners: {},
    });
    const action = await until('action', () => h.actions[0]);
    expect(action).toEqual({ platform: 'discord', chat: { id: GENERAL.id, type: 'group' }, user: { id: ALICE.id, name: 'Alice' }, actionId: 'approve:r1:once', messageId });
    const ack = h.fake.requests.find((r) => r.path.startsWith('/interactions/900000000000000300/itoken/callback'));
    expect(ack?.body).toEqual({ type: 6 });
  });

  it('resumes a dropped socket: the dispatches sent while it was down are replayed, reported retrying then connected', async () => {
    const h = await start();
    await until('connected', () => h.states.some((s) => s.state === 'connected'));
    h.fake.userMessage({ channel: DM, author: ALICE, content: 'before' });
    await until('first', () => h.messages.length === 1);
    h.fake.drop(); // a dropped TCP connection, no close frame
    const missed = h.fake.userMessage({ channel: DM, author: ALICE, content: 'while down' });
    await until('resume', () => h.fake.received.some((f) => f.op === 6));
    await until('replayed', () => h.messages.some((m) => m.messageId === missed.id));
    const resume = h.fake.received.find((f) => f.op === 6)?.d as { seq: number; session_id: string };
    expect(resume.session_id).toMatch(/^[0-9a-f]{32}$/);
    expect(h.fake.received.filter((f) => f.op === 2)).toHaveLength(1); // resumed, not re-identified
    const after = h.states.slice(h.states.findIndex((s) => s.state === 'retrying'));
    expect(after.map((s) => s.state)).toEqual(['retrying', 'connected']);
    expect(h.messages.map((m) => m.text)).toEqual(['before', 'while down']);
    expect(h.cursor.get(`last:${DM.id}`)).toBe(missed.id);
  });

  it('catches up from the per-channel cursor after a restart (a new session)', async () => {
    const first = await start();
    await until('connected', () => first.states.some((s) => s.state === 'connected'));
    first.fake.userMessage({ channel: GENERAL, author: ALICE, content: 'seen' });
    await until('seen', () => first.messages.length === 1);
    await first.adapter.disconnect();
    // written while Hearth was off: only in the channel's history
    const missed = first.fake.userMessage({ channel: GENERAL, author: ALICE, content: 'while off', dispatch: false });
    open.splice(open.indexOf(first), 1);
    const second = await start({ fake: first.fake, cursor: first.cursor });
    const got = await until('caught up', () => second.messages.find((m) => m.messageId === missed.id));
    expect(got.text).toBe('while off');
    expect(second.messages.map((m) => m.text)).toEqual(['while off']);
  });

  it('reports bad_token for a REST 401 and for Gateway close 4004, and stops retrying', async () => {
    const h = await start({ token: 'wrong' });
    expect(h.states.at(-1)).toMatchObject({ state: 'bad_token' });
    expect((h.states.at(-1) as { reason: string }).reason).toMatch(/401/);
    expect((h.states.at(-1) as { reason: string }).reason).not.toContain('wrong');

    const g = await start({ connect: false });
    g.fake.closeNextIdentifyWith(4004);
    await g.adapter.connect({ onMessage: async () => {}, onAction: async () => {}, onState: (s) => void g.states.push(s) });
    await until('bad_token', () => g.states.find((s) => s.state === 'bad_token'));
    const identifies = g.fake.received.filter((f) => f.op === 2).length;
    await new Promise((r) => setTimeout(r, 800));
    expect(g.fake.received.filter((f) => f.op === 2).length).toBe(identifies);
    expect(g.states.at(-1)?.state).toBe('bad_token');
  });

  it('skips a malformed dispatch with a warning and keeps receiving', async () => {
    const h = await start();
    await until('connected', () => h.states.some((s) => s.state === 'connected'));
    h.fake.dispatch('MESSAGE_CREATE', { id: '900000000000000400', channel_id: GENERAL.id, guild_id: GUILD, content: 'no author', timestamp: new Date().toISOString() });
    h.fake.dispatch('MESSAGE_CREATE', 'not an object');
    const ok = h.fake.userMessage({ channel: GENERAL, author: ALICE, content: 'still here' });
    await until('next message', () => h.messages.find((m) => m.messageId === ok.id));
    expect(h.messages).toHaveLength(1);
    // skipped by the dispatch guard before discord.js (which would throw on `d` not an object: an unhandled rejection)
    const skipped = h.warnings.filter((w) => w.includes('skipped a malformed MESSAGE_CREATE dispatch'));
    expect(skipped).toHaveLength(2);
    expect(skipped[0]).toMatch(/author/);
    expect(skipped[1]).toMatch(/not an object/);
  });
});

describe('discord adapter: outages, invalid sessions, slash commands', () => {
  it('backs off when discord.js keeps failing to reconnect, logs in again and catches up on what was missed', async () => {
    const h = await start();
    await until('connected', () => h.states.some((s) => s.state === 'connected'));
    h.fake.userMessage({ channel: GENERAL, author: ALICE, content: 'before the outage' });
    await until('first', () => h.messages.length === 1);
    h.fake.refuseSockets(true);
    h.fake.drop();
    // the session is gone when Discord comes back (each refused try cost discord.js its session)
    const missed = h.fake.userMessage({ channel: GENERAL, author: ALICE, content: 'during the outage', dispatch: false });
    // discord.js's own quick tries (3 here), then the adapter's login with backoff
    await until('two backoffs', () => h.states.filter((s) => s.state === 'retrying' && s.reason.includes('backing off')).length >= 2 && h.states);
    const backoffs = h.states.filter((s): s is Extract<AdapterState, { state: 'retrying' }> => s.state === 'retrying' && s.reason.includes('backing off'));
    // the pause grows (50 ms, 100 ms, … in this test's settings)
    expect([backoffs[0]!.reason, backoffs[1]!.reason].map((r) => /(\d+) ms/.exec(r)?.[1])).toEqual(['50', '100']);
    h.fake.refuseSockets(false);
    await until('caught up', () => h.messages.find((m) => m.messageId === missed.id), 15_000);
    expect(h.states.at(-1)?.state).toBe('connected');
    expect(h.fake.received.filter((f) => f.op === 2).length).toBeGreaterThanOrEqual(2);
    expect(h.messages.map((m) => m.text)).toEqual(['before the outage', 'during the outage']);
  });

  it('identifies again after op 9 (invalid session, not resumable) and keeps receiving', async () => {
    const h = await start();
    await until('connected', () => h.states.some((s) => s.state === 'connected'));
    h.fake.invalidateSession(false);
    await until('second identify', () => h.fake.received.filter((f) => f.op === 2).length === 2);
    await until('reconnected', () => h.states.at(-1)?.state === 'connected' && h.fake.openSockets() === 1);
    const msg = h.fake.userMessage({ channel: DM, author: ALICE, content: 'after the new session' });
    await until('message', () => h.messages.find((m) => m.messageId === msg.id));
  });

  it('answers a slash command at once (type 4) and hands the gateway the command line', async () => {
    const h = await start();
    await until('connected', () => h.states.some((s) => s.state === 'connected'));
    h.fake.dispatch('INTERACTION_CREATE', {
      id: '900000000000000500', application_id: h.fake.applicationId, type: 2, token: 'stoken', version: 1, channel_id: DM.id,
      channel: { id: DM.id, type: 1 }, user: { ...ALICE, discriminator: '0', avatar: null },
      data: { id: '900000000000000501', name: 'approve', type: 1, options: [{ name: 'id', type: 3, value: 'ab12cd34' }] },
      app_permissions: '0', locale: 'en-US', entitlements: [], authorizing_integration_owners: {},
    });
    const event = await until('command message', () => h.messages[0]);
    expect(event).toMatchObject({ messageId: '900000000000000500', chat: { id: DM.id, type: 'dm' }, user: { id: ALICE.id }, text: '/approve ab12cd34', mentionsBot: true });
    const reply = h.fake.requests.find((r) => r.path.startsWith('/interactions/900000000000000500/stoken/callback'));
    expect(reply?.body).toMatchObject({ type: 4, data: { content: '/approve ab12cd34' } });
  });
});
