import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../src/core/gateway/platforms/slack.js';
import { memoryCursor, recorder, type Recorder } from './fixtures/slack-adapter-harness.js';
import { BOT_USER_ID, startFakeSlack, type FakeSlack } from './fixtures/slack-server.js';

/**
 * The Slack adapter in Socket Mode, through @slack/bolt's SocketModeReceiver and @slack/web-api against a local
 * Slack (test/fixtures/slack-server.ts) that speaks the Web API over HTTP and Socket Mode over a WebSocket.
 */
const BOT_TOKEN = 'xoxb-1-hearth-test';
const APP_TOKEN = 'xapp-1-hearth-test';

let slack: FakeSlack;
let adapter: SlackAdapter | undefined;
let rec: Recorder;
let dir: string;

beforeEach(async () => {
  slack = await startFakeSlack({ botToken: BOT_TOKEN, appToken: APP_TOKEN, ackTimeoutMs: 300, users: { U0ADA: { name: 'ada', real_name: 'Ada Lovelace' } } });
  rec = recorder();
  dir = mkdtempSync(join(tmpdir(), 'hearth-slack-'));
});

afterEach(async () => {
  await adapter?.disconnect();
  adapter = undefined;
  await slack.close();
  rmSync(dir, { recursive: true, force: true });
});

async function connected(r: Recorder = rec, tokens: { bot?: string; app?: string } = {}): Promise<SlackAdapter> {
  const a = createSlackAdapter({
    mode: 'socket', botToken: tokens.bot ?? BOT_TOKEN, appToken: tokens.app ?? APP_TOKEN, apiUrl: slack.apiUrl,
    backoff: { initialMs: 30, maxMs: 200 },
  }, r.ctx);
  await a.connect(r);
  return a;
}

function message(fields: Record<string, unknown>): Record<string, unknown> {
  return { type: 'message', user: 'U0ADA', text: 'hi', ts: slack.nextTs(), event_ts: '0', team: 'T0HEARTH', ...fields };
}

describe('slack adapter: Socket Mode', () => {
  it('connects on hello and normalizes a DM (entities unescaped, the sender named via users.info); the envelope is acknowledged', async () => {
    adapter = await connected();
    expect(rec.states.map((s) => s.state)).toEqual(['connecting', 'connected']);
    expect(rec.states[1]).toMatchObject({ state: 'connected', account: 'hearth@Hearth Test' });
    const event = message({ channel: 'D0DM1', channel_type: 'im', text: 'is 2 &lt; 3 &amp;&amp; 5 &gt; 4?' });
    const envelope = slack.deliverEvent(event);
    expect(await envelope.ackedAt).toBe(0);
    await rec.until(() => rec.messages.length === 1, 'the DM');
    expect(rec.messages[0]).toEqual({
      platform: 'slack', messageId: `D0DM1:${event.ts as string}`, chat: { id: 'D0DM1', type: 'dm' },
      user: { id: 'U0ADA', name: 'Ada Lovelace', isBot: false }, text: 'is 2 < 3 && 5 > 4?', attachments: [],
      mentionsBot: false, sentAt: Math.round(Number(event.ts) * 1000),
    });
    // The bot's own echo is not a message to answer.
    slack.deliverEvent(message({ channel: 'D0DM1', channel_type: 'im', user: BOT_USER_ID, bot_id: 'BBOT0001', text: 'my own reply' }));
    const after = slack.deliverEvent(message({ channel: 'D0DM1', channel_type: 'im', text: 'next' }));
    await after.ackedAt;
    await rec.until(() => rec.messages.length === 2, 'the second DM');
    expect(rec.messages.map((m) => m.text)).toEqual(['is 2 < 3 && 5 > 4?', 'next']);
  });

  it('reads a channel mention (the mention stripped, mentionsBot set) once, though Slack sends it as message and app_mention', async () => {
    adapter = await connected();
    const ts = slack.nextTs();
    const text = `<@${BOT_USER_ID}> /status please, <@U0BOB|bob>`;
    slack.deliverEvent(message({ channel: 'C0GENERAL', channel_type: 'channel', text, ts }));
    slack.deliverEvent({ type: 'app_mention', channel: 'C0GENERAL', user: 'U0ADA', text, ts, event_ts: ts });
    const plain = slack.deliverEvent(message({ channel: 'C0GENERAL', channel_type: 'channel', text: 'not for the bot' }));
    await plain.ackedAt;
    await rec.until(() => rec.messages.length === 2, 'two channel messages');
    expect(rec.messages[0]).toMatchObject({ messageId: `C0GENERAL:${ts}`, chat: { id: 'C0GENERAL', type: 'group' }, text: '/status please, @bob', mentionsBot: true });
    expect(rec.messages[0]?.threadId).toBeUndefined();
    expect(rec.messages[1]).toMatchObject({ text: 'not for the bot', mentionsBot: false });
    expect(slack.envelopes.every((e) => e.acked)).toBe(true);
  });

  it('gives thread messages their thread and counts a thread the bot started or wrote in as a reply to the bot', async () => {
    const cursor = memoryCursor();
    rec = recorder(cursor);
    adapter = await connected();
    const botParent = slack.nextTs();
    const userParent = slack.nextTs();
    const strangerParent = slack.nextTs();
    // The bot answers in a user's thread: later messages there reply to the bot.
    await adapter.send({ chatId: 'C0GENERAL', threadId: userParent, text: 'on it', replyTo: `C0GENERAL:${slack.nextTs()}` });
    expect(slack.messages[0]).toMatchObject({ channel: 'C0GENERAL', thread_ts: userParent });
    // replyTo alone opens no thread (that would move the conversation into another session): the answer stays in the channel.
    await adapter.send({ chatId: 'C0GENERAL', text: 'inline', replyTo: `C0GENERAL:${strangerParent}` });
    expect(slack.messages[1]?.thread_ts).toBeUndefined();
    slack.deliverEvent(message({ channel: 'C0GENERAL', channel_type: 'channel', text: 'a', thread_ts: botParent, parent_user_id: BOT_USER_ID }));
    slack.deliverEvent(message({ channel: 'C0GENERAL', channel_type: 'channel', text: 'b', thread_ts: userParent, parent_user_id: 'U0ADA' }));
    slack.deliverEvent(message({ channel: 'C0GENERAL', channel_type: 'channel', text: 'c', thread_ts: strangerParent, parent_user_id: 'U0BOB' }));
    await rec.until(() => rec.messages.length === 3, 'three thread messages');
    const byText = Object.fromEntries(rec.messages.map((m) => [m.text, m]));
    expect(byText.a).toMatchObject({ threadId: botParent, replyTo: { messageId: `C0GENERAL:${botParent}`, fromBot: true } });
    expect(byText.b).toMatchObject({ threadId: userParent, replyTo: { messageId: `C0GENERAL:${userParent}`, fromBot: true } });
    expect(byText.c).toMatchObject({ threadId: strangerParent, replyTo: { messageId: `C0GENERAL:${strangerParent}`, fromBot: false } });
    // The threads the bot wrote in outlive a restart.
    expect(JSON.parse(cursor.data.get('bot_threads') ?? '[]')).toEqual([`C0GENERAL:${userParent}`]);
  });

  it('carries files as attachments and downloads them with the bot token', async () => {
    adapter = await connected();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);
    const file = slack.addFile(png, 'chart.png', 'image/png');
    const voice: Record<string, unknown> = { ...slack.addFile(Buffer.from('webm'), 'audio_message.webm', 'audio/webm'), subtype: 'slack_audio' };
    slack.deliverEvent(message({ channel: 'D0DM1', channel_type: 'im', subtype: 'file_share', text: 'look', files: [file, voice] }));
    await rec.until(() => rec.messages.length === 1, 'the file message');
    expect(rec.messages[0]?.attachments).toEqual([
      { kind: 'image', platformId: file.id, name: 'chart.png', mimeType: 'image/png', bytes: png.length },
      { kind: 'voice', platformId: voice.id, name: 'audio_message.webm', mimeType: 'audio/webm', bytes: 4 },
    ]);
    const target = join(dir, 'chart.png');
    await adapter.download(rec.messages[0]!.attachments[0]!, target);
    expect(readFileSync(target)).toEqual(png);
    // A file the adapter never saw in a message is found through files.info.
    const later = slack.addFile(Buffer.from('notes'), 'notes.txt', 'text/plain');
    await adapter.download({ kind: 'file', platformId: later.id as string }, join(dir, 'notes.txt'));
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('notes');
  });

  it('never sends the bot token to a file URL outside Slack\'s file host or the configured API server', async () => {
    const seen: (string | undefined)[] = [];
    const other = createServer((req, res) => { seen.push(req.headers.authorization); res.end('data'); });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      adapter = await connected();
      const elsewhere = `http://127.0.0.1:${(other.address() as AddressInfo).port}/steal/f.txt`;
      const file = { id: 'F0ELSEWHERE', name: 'f.txt', mimetype: 'text/plain', size: 4, url_private: elsewhere, url_private_download: elsewhere };
      slack.deliverEvent(message({ channel: 'D0DM1', channel_type: 'im', subtype: 'file_share', text: '', files: [file] }));
      await rec.until(() => rec.messages.length === 1, 'the file message');
      await expect(adapter.download(rec.messages[0]!.attachments[0]!, join(dir, 'f.txt'))).rejects.toThrow(/not Slack's file host/);
      expect(seen).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it('sends escaped mrkdwn, edits in place, removes buttons on an edit without them, and uploads files (files.uploadV2)', async () => {
    adapter = await connected();
    const sent = await adapter.send({ chatId: 'D0DM1', text: '**Done**: see [docs](https://example.com/a?b=1&c=2) <!channel>' });
    expect(sent.messageId).toBe(`D0DM1:${slack.messages[0]!.ts}`);
    expect(slack.messages[0]!.text).toBe('*Done*: see <https://example.com/a?b=1&amp;c=2|docs> &lt;!channel&gt;');
    await adapter.edit('D0DM1', sent.messageId, 'Done, and more');
    expect(slack.messages[0]!.history).toEqual([slack.messages[0]!.history[0], 'Done, and more']);

    const withButtons = await adapter.send({ chatId: 'C0GENERAL', threadId: '1700000000.000100', text: 'Run rm -rf build?', actions: [
      { id: 'approve:a1:once', label: 'Approve', style: 'primary' }, { id: 'deny:a1', label: 'Deny', style: 'danger' },
    ] });
    const posted = slack.messages[1]!;
    expect(posted.blocks).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: 'Run rm -rf build?' } },
      { type: 'actions', elements: [
        { type: 'button', action_id: 'approve:a1:once', value: 'approve:a1:once', text: { type: 'plain_text', text: 'Approve', emoji: true }, style: 'primary' },
        { type: 'button', action_id: 'deny:a1', value: 'deny:a1', text: { type: 'plain_text', text: 'Deny', emoji: true }, style: 'danger' },
      ] },
    ]);
    await adapter.edit('C0GENERAL', withButtons.messageId, 'Approved once');
    expect(posted.blocks).toBeUndefined();
    expect(posted.text).toBe('Approved once');
    await expect(adapter.edit('C0GENERAL', 'C0GENERAL:1700000000.999999', 'x')).rejects.toThrow(/message_not_found/);

    const path = join(dir, 'report.csv');
    writeFileSync(path, 'a,b\n1,2\n');
    const file = await adapter.sendFile({ chatId: 'C0GENERAL', threadId: '1700000000.000100', path, caption: 'The *report*' });
    expect(slack.uploads).toHaveLength(1);
    expect(slack.uploads[0]).toMatchObject({ filename: 'report.csv', channel_id: 'C0GENERAL', thread_ts: '1700000000.000100', initial_comment: 'The _report_' });
    expect(slack.uploads[0]!.bytes.toString()).toBe('a,b\n1,2\n');
    expect(file.messageId).toBe(`C0GENERAL:file:${slack.uploads[0]!.fileId}`);
    await expect(adapter.edit('C0GENERAL', file.messageId, 'x')).rejects.toThrow(/not a Slack message id/);
    expect(slack.calls.map((c) => c.method)).toEqual(expect.arrayContaining(['files.getUploadURLExternal', 'files.completeUploadExternal']));
    expect(slack.calls.filter((c) => c.method !== 'apps.connections.open').every((c) => c.token === 'bot')).toBe(true);
  });

  it('acknowledges a button press (interactive envelope) and normalizes it to an ActionEvent', async () => {
    adapter = await connected();
    const sent = await adapter.send({ chatId: 'C0GENERAL', text: 'Approve?', actions: [{ id: 'approve:a1:once', label: 'Approve' }] });
    const ts = sent.messageId.split(':')[1]!;
    const press = slack.deliverInteraction({
      type: 'block_actions', user: { id: 'U0ADA', username: 'ada', name: 'ada', team_id: 'T0HEARTH' }, api_app_id: 'A0HEARTH', token: 'legacy',
      container: { type: 'message', message_ts: ts, channel_id: 'C0GENERAL', is_ephemeral: false }, trigger_id: '1.2.3', team: { id: 'T0HEARTH', domain: 'hearth-test' },
      channel: { id: 'C0GENERAL', name: 'general' }, message: { type: 'message', ts, text: 'Approve?', user: BOT_USER_ID },
      actions: [{ action_id: 'approve:a1:once', block_id: 'b1', value: 'approve:a1:once', type: 'button', action_ts: '1700000001.000001', text: { type: 'plain_text', text: 'Approve' } }],
    });
    await press.ackedAt;
    await rec.until(() => rec.actions.length === 1, 'the press');
    expect(rec.actions[0]).toEqual({ platform: 'slack', chat: { id: 'C0GENERAL', type: 'group' }, user: { id: 'U0ADA', name: 'ada' }, actionId: 'approve:a1:once', messageId: sent.messageId });
  });

  it('treats an envelope whose ack was lost as one message: Slack redelivers it (retry_attempt 1) and the adapter hands it on once', async () => {
    adapter = await connected();
    const event = message({ channel: 'D0DM1', channel_type: 'im', text: 'once only' });
    const envelope = slack.deliverEvent(event, { loseFirstAck: true });
    expect(await envelope.ackedAt).toBe(1);
    expect(envelope.deliveries).toBe(2);
    const next = slack.deliverEvent(message({ channel: 'D0DM1', channel_type: 'im', text: 'after' }));
    await next.ackedAt;
    await rec.until(() => rec.messages.length === 2, 'both messages');
    expect(rec.messages.map((m) => m.text)).toEqual(['once only', 'after']);
  });

  it('an envelope cut off before its ack is redelivered after the reconnect, with the same messageId', async () => {
    adapter = await connected();
    const event = message({ channel: 'D0DM1', channel_type: 'im', text: 'survives the drop' });
    const envelope = slack.deliverEvent(event, { dropConnection: true });
    expect(await envelope.ackedAt).toBeGreaterThanOrEqual(1);
    await rec.until(() => rec.messages.length >= 1, 'the redelivered message');
    expect(new Set(rec.messages.map((m) => m.messageId))).toEqual(new Set([`D0DM1:${event.ts as string}`]));
    expect(rec.states.map((s) => s.state)).toContain('retrying');
    expect(rec.states.at(-1)?.state).toBe('connected');
  });

  it('a restarted adapter gets the unacknowledged envelope again under the same messageId, for the gateway to de-duplicate', async () => {
    const cursor = memoryCursor();
    const first = recorder(cursor);
    const old = await connected(first);
    const event = message({ channel: 'D0DM1', channel_type: 'im', text: 'during the restart' });
    const envelope = slack.deliverEvent(event, { loseFirstAck: true });
    await first.until(() => first.messages.length === 1, 'the first delivery');
    await old.disconnect();
    const second = recorder(cursor);
    adapter = await connected(second);
    expect(await envelope.ackedAt).toBe(1);
    await second.until(() => second.messages.length === 1, 'the redelivery');
    expect(second.messages[0]!.messageId).toBe(first.messages[0]!.messageId);
    expect(first.states.at(-1)).toEqual({ state: 'stopped' });
  });

  it('reconnects after a network drop and after Slack\'s disconnect message, reporting retrying with the reason', async () => {
    adapter = await connected();
    slack.dropConnections();
    await rec.until(() => slack.connections === 2 && rec.states.at(-1)?.state === 'connected', 'the reconnect after a drop');
    const retrying = rec.states.find((s) => s.state === 'retrying');
    expect(retrying).toMatchObject({ state: 'retrying', attempt: 1 });
    slack.sendDisconnect('refresh_requested');
    await rec.until(() => slack.connections === 3 && rec.states.at(-1)?.state === 'connected', 'the reconnect after disconnect');
    expect(rec.states.filter((s) => s.state === 'retrying').at(-1)).toMatchObject({ attempt: 1, reason: 'Slack asked to reconnect (refresh_requested)' });
    const after = slack.deliverEvent(message({ channel: 'D0DM1', channel_type: 'im', text: 'still here' }));
    await after.ackedAt;
    await rec.until(() => rec.messages.some((m) => m.text === 'still here'), 'a message after reconnecting');
  });

  it('reports bad_token for a refused bot token or app token, and stops', async () => {
    adapter = await connected(rec, { bot: 'xoxb-revoked' });
    expect(rec.states.at(-1)).toMatchObject({ state: 'bad_token', reason: expect.stringMatching(/bot token .*invalid_auth/) });
    expect(slack.calls.some((c) => c.method === 'apps.connections.open')).toBe(false);
    await adapter.disconnect();

    const other = recorder();
    adapter = await connected(other, { app: 'xapp-wrong' });
    expect(other.states.at(-1)).toMatchObject({ state: 'bad_token', reason: expect.stringMatching(/app-level token .*invalid_auth/) });
    expect(slack.connections).toBe(0);
    const calls = slack.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(slack.calls.length).toBe(calls);
  });

  it('turns /hearth <command> into the gateway\'s chat command and acknowledges it', async () => {
    adapter = await connected();
    const fields = { team_id: 'T0HEARTH', user_id: 'U0ADA', user_name: 'ada', channel_id: 'C0GENERAL', channel_name: 'general', api_app_id: 'A0HEARTH', response_url: `${slack.origin}/respond` };
    const first = slack.deliverSlashCommand({ ...fields, command: '/hearth', text: 'new', trigger_id: '111.222.aaa' });
    const second = slack.deliverSlashCommand({ ...fields, command: '/hearth', text: '', trigger_id: '111.222.bbb' });
    const third = slack.deliverSlashCommand({ ...fields, command: '/hearth', text: 'model gpt-x', trigger_id: '111.222.ccc' });
    await Promise.all([first.ackedAt, second.ackedAt, third.ackedAt]);
    await rec.until(() => rec.messages.length === 3, 'three commands');
    expect(rec.messages.map((m) => m.text)).toEqual(['/new', '/help', '/model gpt-x']);
    expect(rec.messages[0]).toMatchObject({ messageId: 'C0GENERAL:cmd:111.222.aaa', chat: { id: 'C0GENERAL', type: 'group' }, user: { id: 'U0ADA', name: 'ada' }, mentionsBot: true });
  });

  it('keeps retrying while Slack is unreachable, connects once it answers, and stops cleanly when told to', async () => {
    const port = Number(new URL(slack.origin).port);
    await slack.close();
    const a = createSlackAdapter({ mode: 'socket', botToken: BOT_TOKEN, appToken: APP_TOKEN, apiUrl: `http://127.0.0.1:${port}/api/`, backoff: { initialMs: 30, maxMs: 100 } }, rec.ctx);
    adapter = a;
    let settled = false;
    const connecting = a.connect(rec).then(() => { settled = true; });
    await rec.until(() => rec.states.filter((s) => s.state === 'retrying').length >= 2, 'two retries', 20_000);
    expect(settled).toBe(false);
    const retries = rec.states.filter((s) => s.state === 'retrying');
    expect(retries.map((s) => (s as { attempt: number }).attempt).slice(0, 2)).toEqual([1, 2]);
    slack = await startFakeSlack({ botToken: BOT_TOKEN, appToken: APP_TOKEN, ackTimeoutMs: 300, port });
    await connecting;
    expect(rec.states.at(-1)?.state).toBe('connected');
    slack.dropConnections();
    await rec.until(() => rec.states.at(-1)?.state === 'retrying', 'the drop');
    await slack.close();
    await a.disconnect();
    expect(rec.states.at(-1)).toEqual({ state: 'stopped' });
    const after = rec.states.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(rec.states.length).toBe(after);
    slack = await startFakeSlack({ botToken: BOT_TOKEN, appToken: APP_TOKEN });
  });

  it('asks users.info once for a user Slack does not know, not on every message', async () => {
    adapter = await connected();
    for (const text of ['one', 'two', 'three']) slack.deliverEvent(message({ channel: 'D0DM9', channel_type: 'im', user: 'U0GHOST', text }));
    await rec.until(() => rec.messages.length === 3, 'three messages');
    expect(rec.messages.map((m) => m.user)).toEqual(Array(3).fill({ id: 'U0GHOST', isBot: false }));
    expect(slack.calls.filter((c) => c.method === 'users.info')).toHaveLength(1);
  });

  it('skips a malformed event with a warning and keeps going', async () => {
    adapter = await connected();
    slack.deliverEvent({ type: 'message', channel: 'D0DM1', text: 'no ts or user' });
    slack.deliverEvent(message({ channel: 'D0DM1', channel_type: 'im', subtype: 'message_changed', text: 'edited' }));
    slack.deliverEvent(message({ channel: 'D0DM1', channel_type: 'im', text: 'fine' }));
    await rec.until(() => rec.messages.length === 1 && rec.warnings.length >= 2, 'the good message and two warnings');
    expect(rec.messages[0]!.text).toBe('fine');
    expect(rec.warnings.some((w) => /malformed message event.*ts/s.test(w))).toBe(true);
    expect(rec.warnings.some((w) => /message_changed/.test(w))).toBe(true);
  });
});
