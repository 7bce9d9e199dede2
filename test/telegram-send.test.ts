import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TelegramApiError } from '../src/core/gateway/platforms/telegram-errors.js';
import { alice, aliceDm, connectAdapter, startFakeTelegram, waitFor, type AdapterRun, type FakeTelegram } from './fixtures/telegram-bot-api-server.js';

/**
 * Outgoing Telegram calls (sendMessage, editMessageText, sendChatAction, sendDocument) through grammY to a Bot API
 * server on 127.0.0.1, and webhook mode (setWebhook with a secret, updates POSTed to the loopback endpoint).
 * Catches a text over 4,096 characters sent as is (Telegram refuses it), buttons on the wrong part, a streaming
 * edit that fails on "message is not modified", a 429 not waited out, a webhook that takes requests without the
 * secret, and a webhook redelivery answered twice.
 */
let fake: FakeTelegram;
let run: AdapterRun;
let dir: string;

beforeEach(async () => {
  fake = await startFakeTelegram();
  dir = mkdtempSync(join(tmpdir(), 'hearth-tg-send-'));
});
afterEach(async () => {
  await run?.adapter.disconnect();
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Telegram messages out', () => {
  beforeEach(async () => {
    run = await connectAdapter(fake);
  });

  it('sends a reply into a forum topic with buttons, and returns the chat-qualified id', async () => {
    const sent = await run.adapter.send({ chatId: '-100600', threadId: '42', replyTo: '-100600:17', text: 'hi', actions: [{ id: 'a', label: 'A' }] });
    const [msg] = fake.sent(-100600);
    expect(sent.messageId).toBe(`-100600:${msg?.message_id}`);
    expect(msg).toMatchObject({ text: 'hi', message_thread_id: 42, reply_to_message_id: 17, reply_markup: { inline_keyboard: [[{ text: 'A', callback_data: 'a' }]] } });
    expect(fake.callsTo('sendMessage')[0]?.params.reply_parameters).toEqual({ message_id: 17, allow_sending_without_reply: true });
  });

  it('splits a text over 4,096 characters into messages Telegram accepts, buttons under the last', async () => {
    const paragraph = 'word '.repeat(300).trim();
    const text = Array.from({ length: 7 }, () => paragraph).join('\n\n');
    expect(text.length).toBeGreaterThan(2 * 4096);
    const sent = await run.adapter.send({ chatId: '111', text, actions: [{ id: 'ok', label: 'OK' }] });
    const msgs = fake.sent(111);
    // 1,499-character paragraphs: two fit one message (2,999 + the blank line), three do not.
    expect(msgs.length).toBe(4);
    for (const m of msgs) expect(m.text!.length).toBeLessThanOrEqual(4096);
    expect(msgs.map((m) => m.text).join('\n\n')).toBe(text);
    expect(msgs.map((m) => m.reply_markup === undefined)).toEqual([true, true, true, false]);
    expect(sent.messageId).toBe(`111:${msgs[3]?.message_id}`);
  });

  it('lays out many or long buttons one per row, and refuses a button id over 64 bytes', async () => {
    await run.adapter.send({ chatId: '111', text: 'pick', actions: [{ id: '1', label: 'Approve this once' }, { id: '2', label: 'Approve for the session' }] });
    expect(fake.sent(111)[0]?.reply_markup).toEqual({ inline_keyboard: [[{ text: 'Approve this once', callback_data: '1' }], [{ text: 'Approve for the session', callback_data: '2' }]] });
    await expect(run.adapter.send({ chatId: '111', text: 'x', actions: [{ id: 'x'.repeat(65), label: 'X' }] })).rejects.toThrow(/65 bytes; Telegram allows 1 to 64/);
  });

  it('refuses an empty text with a clear error instead of Telegram\'s 400', async () => {
    await expect(run.adapter.send({ chatId: '111', text: '  ' })).rejects.toThrow(/empty message/);
    expect(fake.callsTo('sendMessage')).toHaveLength(0);
  });

  it('edits in place, takes "message is not modified" as done, removes buttons when none are given, and refuses too long an edit', async () => {
    const { messageId } = await run.adapter.send({ chatId: '111', text: 'draft', actions: [{ id: 'stop', label: 'Stop' }] });
    await run.adapter.edit('111', messageId, 'draft, longer', [{ id: 'stop', label: 'Stop' }]);
    await run.adapter.edit('111', messageId, 'draft, longer', [{ id: 'stop', label: 'Stop' }]);
    expect(fake.callsTo('editMessageText')).toHaveLength(2);
    expect(fake.sent(111)[0]).toMatchObject({ text: 'draft, longer', edits: 1 });
    await run.adapter.edit('111', messageId, 'final');
    expect(fake.sent(111)[0]?.reply_markup).toBeUndefined();
    await expect(run.adapter.edit('111', '111:999999', 'x')).rejects.toThrow(TelegramApiError);
    await expect(run.adapter.edit('111', '111:999999', 'x')).rejects.toThrow(/400 Bad Request: message to edit not found/);
    await expect(run.adapter.edit('111', messageId, 'y'.repeat(4097))).rejects.toThrow(/does not fit one Telegram message/);
  });

  it('shows typing in the chat and topic', async () => {
    await run.adapter.typing('-100600', '42');
    expect(fake.callsTo('sendChatAction')[0]?.params).toMatchObject({ chat_id: -100600, action: 'typing', message_thread_id: 42 });
  });

  it('uploads a file with sendDocument (multipart) and its caption; a caption over 1,024 characters follows as a message', async () => {
    const path = join(dir, 'report.txt');
    writeFileSync(path, 'the report\n');
    const { messageId } = await run.adapter.sendFile({ chatId: '111', path, caption: 'here it is' });
    const [doc] = fake.sent(111);
    expect(messageId).toBe(`111:${doc?.message_id}`);
    expect(doc?.document?.file_name).toBe('report.txt');
    expect(doc?.document?.bytes.toString()).toBe('the report\n');
    expect(doc?.caption).toBe('here it is');
    const long = 'c'.repeat(1500);
    await run.adapter.sendFile({ chatId: '111', path, caption: long });
    expect(fake.sent(111).slice(1).map((m) => [m.document !== undefined, m.caption, m.text])).toEqual([[true, undefined, undefined], [false, undefined, long]]);
    await expect(run.adapter.sendFile({ chatId: '111', path: join(dir, 'missing.txt') })).rejects.toThrow(/cannot send .*missing\.txt/);
  });

  it('waits out a 429 on send and sends once', async () => {
    fake.failNext('sendMessage', { error_code: 429, description: 'Too Many Requests: retry after 1', parameters: { retry_after: 1 } });
    const t0 = Date.now();
    await run.adapter.send({ chatId: '111', text: 'patient' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(fake.callsTo('sendMessage')).toHaveLength(2);
    expect(fake.sent(111).map((m) => m.text)).toEqual(['patient']);
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

describe('Telegram webhook mode', () => {
  let url: string;
  beforeEach(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}/tg`;
    run = await connectAdapter(fake, { mode: 'webhook', webhook: { url, port, path: '/tg' } });
  });

  it('sets the webhook with a secret and one connection, receives POSTed updates, and never polls', async () => {
    expect(run.lastState()).toMatchObject({ state: 'connected', account: 'hearth_test_bot' });
    const hook = fake.webhook();
    expect(hook).toMatchObject({ url, max_connections: 1 });
    expect(hook?.secret).toMatch(/^[A-Za-z0-9_-]{32,256}$/);
    expect(fake.callsTo('setWebhook')[0]?.params.allowed_updates).toEqual(['message', 'callback_query']);
    fake.pushMessage(aliceDm, alice, 'via webhook');
    expect(await fake.deliverWebhook()).toEqual([200]);
    expect(run.messages.map((m) => m.text)).toEqual(['via webhook']);
    expect(fake.callsTo('getUpdates')).toHaveLength(0);
  });

  it('refuses a request without the right secret and hands nothing on', async () => {
    fake.pushMessage(aliceDm, alice, 'forged');
    expect(await fake.deliverWebhook({ secret: 'wrong-secret' })).toEqual([401]);
    const noHeader = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"update_id":1,"message":{}}' });
    expect(noHeader.status).toBe(401);
    expect(run.messages).toEqual([]);
    expect(run.warnings.filter((w) => w.includes('without the right secret token'))).toHaveLength(2);
  });

  it('answers 500 when the handler failed so Telegram delivers again, and drops a redelivery of a handled update', async () => {
    let fail = true;
    run.onMessage = async (e) => {
      if (fail) {
        fail = false;
        throw new Error('inbox busy');
      }
      run.messages.push(e);
    };
    const { updateId } = fake.pushMessage(aliceDm, alice, 'again');
    expect(await fake.deliverWebhook()).toEqual([500]);
    expect(await fake.deliverWebhook()).toEqual([200]);
    expect(run.messages.map((m) => m.text)).toEqual(['again']);
    // Telegram resends an update whose answer it did not see: the offset check answers 200 and hands on nothing.
    const secret = fake.webhook()?.secret ?? '';
    const again = await fetch(url, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
      body: JSON.stringify({ update_id: updateId, message: { message_id: 1, date: 1, chat: aliceDm, from: alice, text: 'again' } }),
    });
    expect(again.status).toBe(200);
    expect(run.messages).toHaveLength(1);
  });

  it('refuses a secret setWebhook would refuse, naming what is allowed, and uses a configured one as given', async () => {
    await expect(connectAdapter(fake, { mode: 'webhook', webhook: { url, port: 0, secret: 'has spaces' } })).rejects.toThrow(/1 to 256 characters of A-Z/);
    const port = await freePort();
    const otherFake = await startFakeTelegram();
    const other = await connectAdapter(otherFake, { mode: 'webhook', webhook: { url: `http://127.0.0.1:${port}/tg`, port, path: '/tg', secret: 'my_secret-1' } });
    try {
      const ok = await fetch(`http://127.0.0.1:${port}/tg`, { method: 'POST', headers: { 'x-telegram-bot-api-secret-token': 'my_secret-1' }, body: '{"update_id":1,"poll":{}}' });
      expect(ok.status).toBe(200);
      expect(other.warnings.some((w) => w.includes('skipped update 1'))).toBe(true);
    } finally {
      await other.adapter.disconnect();
      await otherFake.close();
    }
  });

  it('closes the endpoint on disconnect and keeps the webhook, so Telegram holds the updates meanwhile', async () => {
    await run.adapter.disconnect();
    await expect(fetch(url, { method: 'POST', body: '{}' })).rejects.toThrow();
    expect(fake.webhook()?.url).toBe(url);
    expect(fake.callsTo('deleteWebhook')).toHaveLength(0);
    await waitFor(() => run.lastState()?.state === 'stopped', 'stopped');
  });
});
