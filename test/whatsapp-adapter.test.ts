import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewaySection } from '../src/core/config/schema-gateway.js';
import { isHearthError } from '../src/core/errors.js';
import { createWhatsAppAdapter, whatsAppOptionsFromConfig, type WhatsAppAdapter } from '../src/core/gateway/platforms/whatsapp.js';
import type { ActionEvent, AdapterHandlers, AdapterState, CursorStore, MessageEvent } from '../src/core/gateway/types.js';
import { messagesPayload, postWebhook, startFakeGraph, type FakeGraph } from './fixtures/whatsapp-server.js';

/**
 * The WhatsApp Cloud API adapter between Meta's two sides, both on 127.0.0.1 (fixtures/whatsapp-server.ts): webhook
 * POSTs signed as Meta signs them, and a Graph API server that records what the adapter sent. Catches a webhook
 * that accepts forged or unsigned bodies, wrong normalization (ids, names, replies, buttons, media), wrong Graph
 * payloads (text, buttons, lists, uploads, read+typing), a refused token that is not reported as bad_token, and
 * malformed updates that crash the endpoint or vanish without a word.
 */
const TOKEN = 'EAAG-test-token';
const SECRET = 'app-secret-123';
const VERIFY = 'verify-me';
const PNID = '106540352242922';
const DISPLAY = '+1 555-010-0000';
const USER = '15550001111';

let graph: FakeGraph;
let adapter: WhatsAppAdapter | undefined;
let warnings: string[];
let dir: string;

const cursor: CursorStore = { get: () => undefined, set: () => undefined };

function recorder(): AdapterHandlers & { messages: MessageEvent[]; actions: ActionEvent[]; states: AdapterState[] } {
  const messages: MessageEvent[] = [];
  const actions: ActionEvent[] = [];
  const states: AdapterState[] = [];
  return { messages, actions, states, onMessage: async (e) => void messages.push(e), onAction: async (e) => void actions.push(e), onState: (s) => void states.push(s) };
}

async function open(h: AdapterHandlers, token = TOKEN): Promise<string> {
  adapter = createWhatsAppAdapter({ token, appSecret: SECRET, verifyToken: VERIFY, phoneNumberId: PNID, graphApiRoot: graph.root, graphApiVersion: 'v21.0', webhook: { port: 0, path: '/whatsapp/webhook' }, retry: { baseMs: 20, maxMs: 50 } }, { cursor, warn: (m) => warnings.push(m) });
  await adapter.connect(h);
  return `http://127.0.0.1:${adapter.webhookPort}/whatsapp/webhook`;
}

const payload = (messages: unknown[], statuses?: unknown[]): Record<string, unknown> =>
  messagesPayload({ phoneNumberId: PNID, displayPhoneNumber: '15550100000', contacts: [{ wa_id: USER, name: 'Bea' }], messages, ...(statuses ? { statuses } : {}) });

beforeEach(async () => {
  graph = await startFakeGraph({ token: TOKEN, phoneNumberId: PNID, displayPhoneNumber: DISPLAY });
  warnings = [];
  dir = mkdtempSync(join(tmpdir(), 'hearth-wa-'));
});
afterEach(async () => {
  await adapter?.disconnect();
  adapter = undefined;
  await graph.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('WhatsApp webhook', () => {
  it('answers the subscription check only with the right verify token', async () => {
    const url = await open(recorder());
    const good = await fetch(`${url}?hub.mode=subscribe&hub.verify_token=${VERIFY}&hub.challenge=1158201444`);
    expect(good.status).toBe(200);
    expect(await good.text()).toBe('1158201444');
    const bad = await fetch(`${url}?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1158201444`);
    expect(bad.status).toBe(403);
    expect(await bad.text()).toBe('');
  });

  it('normalizes text, a reply to the bot, button and list replies, and media; statuses are ignored', async () => {
    const h = recorder();
    const url = await open(h);
    expect(h.states.map((s) => s.state)).toEqual(['connecting', 'connected']);
    expect(h.states[1]).toMatchObject({ account: DISPLAY });
    const res = await postWebhook(url, payload([
      { from: USER, id: 'wamid.A1', timestamp: '1700000000', type: 'text', text: { body: 'hello' } },
      { from: USER, id: 'wamid.A2', timestamp: '1700000001', type: 'text', text: { body: 'and this?' }, context: { from: '15550100000', id: 'wamid.BOT1' } },
      { from: USER, id: 'wamid.A3', timestamp: '1700000002', type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'approve:ap1:once', title: 'Approve once' } }, context: { from: '15550100000', id: 'wamid.BOT2' } },
      { from: USER, id: 'wamid.A4', timestamp: '1700000003', type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: 'deny:ap2', title: 'Deny' } }, context: { from: '15550100000', id: 'wamid.BOT3' } },
      { from: USER, id: 'wamid.A5', timestamp: '1700000004', type: 'image', image: { caption: 'my cat', mime_type: 'image/jpeg', sha256: 'x', id: '9001' } },
      { from: USER, id: 'wamid.A6', timestamp: '1700000005', type: 'audio', audio: { mime_type: 'audio/ogg; codecs=opus', sha256: 'x', id: '9002', voice: true } },
      { from: USER, id: 'wamid.A7', timestamp: '1700000006', type: 'document', document: { filename: 'q3.pdf', mime_type: 'application/pdf', sha256: 'x', id: '9003' } },
    ], [{ id: 'wamid.BOT1', status: 'read', timestamp: '1700000007', recipient_id: USER }]), SECRET);
    expect(res.status).toBe(200);

    expect(h.messages.map((m) => m.messageId)).toEqual(['wamid.A1', 'wamid.A2', 'wamid.A5', 'wamid.A6', 'wamid.A7']);
    expect(h.messages[0]).toEqual({ platform: 'whatsapp', messageId: 'wamid.A1', chat: { id: USER, type: 'dm' }, user: { id: USER, name: 'Bea', isBot: false }, text: 'hello', attachments: [], mentionsBot: false, sentAt: 1_700_000_000_000 });
    expect(h.messages[1]?.replyTo).toEqual({ messageId: 'wamid.BOT1', fromBot: true });
    expect(h.messages[2]).toMatchObject({ text: 'my cat', attachments: [{ kind: 'image', platformId: '9001', mimeType: 'image/jpeg' }] });
    expect(h.messages[3]?.attachments).toEqual([{ kind: 'voice', platformId: '9002', mimeType: 'audio/ogg; codecs=opus' }]);
    expect(h.messages[4]?.attachments).toEqual([{ kind: 'file', platformId: '9003', name: 'q3.pdf', mimeType: 'application/pdf' }]);
    expect(h.actions).toEqual([
      { platform: 'whatsapp', chat: { id: USER, type: 'dm' }, user: { id: USER, name: 'Bea' }, actionId: 'approve:ap1:once', messageId: 'wamid.BOT2' },
      { platform: 'whatsapp', chat: { id: USER, type: 'dm' }, user: { id: USER, name: 'Bea' }, actionId: 'deny:ap2', messageId: 'wamid.BOT3' },
    ]);
    expect(warnings).toEqual([]);

    // Meta sends the same webhook again (no 200 seen): messages keep their wamid for the gateway's de-dupe; the press is not repeated.
    await postWebhook(url, payload([{ from: USER, id: 'wamid.A3', timestamp: '1700000002', type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'approve:ap1:once', title: 'Approve once' } }, context: { id: 'wamid.BOT2' } }]), SECRET);
    expect(h.actions).toHaveLength(2);
  });

  it('refuses a bad or missing signature with 401 and delivers nothing', async () => {
    const h = recorder();
    const url = await open(h);
    const body = payload([{ from: USER, id: 'wamid.F1', timestamp: '1700000000', type: 'text', text: { body: 'forged' } }]);
    expect((await postWebhook(url, body, 'not-the-secret')).status).toBe(401);
    expect((await postWebhook(url, body, null)).status).toBe(401);
    // Signed over other bytes than were sent: a body changed in transit.
    const signedOther = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` }, body: JSON.stringify(body) });
    expect(signedOther.status).toBe(401);
    expect(h.messages).toEqual([]);
    expect(warnings.filter((w) => /X-Hub-Signature-256/.test(w))).toHaveLength(3);
  });

  it('skips malformed messages with a warning and delivers the rest of the batch', async () => {
    const h = recorder();
    const url = await open(h);
    const res = await postWebhook(url, payload([
      { id: 'wamid.M1', timestamp: '1700000000', type: 'text', text: { body: 'no sender' } },
      { from: USER, id: 'wamid.M2', timestamp: '1700000000', type: 'contacts', contacts: [] },
      { from: USER, id: 'wamid.M3', timestamp: '1700000001', type: 'text', text: { body: 'fine' } },
    ]), SECRET);
    expect(res.status).toBe(200);
    expect((await postWebhook(url, '{"object":', SECRET)).status).toBe(200);
    expect(h.messages.map((m) => m.text)).toEqual(['fine']);
    expect(warnings).toEqual([
      'whatsapp: skipped a message of an unexpected shape (from: Invalid input: expected string, received undefined)',
      'whatsapp: skipped a contacts message wamid.M2, which Hearth does not handle',
      'whatsapp: skipped a webhook body that is not JSON',
    ]);
  });

  it('answers 500 when the gateway did not take the update, so Meta sends it again', async () => {
    const h = recorder();
    const url = await open({ ...h, onMessage: async () => { throw new Error('store is locked'); } });
    const res = await postWebhook(url, payload([{ from: USER, id: 'wamid.R1', timestamp: '1700000000', type: 'text', text: { body: 'x' } }]), SECRET);
    expect(res.status).toBe(500);
    expect(warnings.at(-1)).toMatch(/Meta will send it again: store is locked/);
  });
});

describe('WhatsApp Graph API out', () => {
  it('sends text, reply buttons, a list for more choices, read+typing, and a document upload', async () => {
    const h = recorder();
    const url = await open(h);
    await postWebhook(url, payload([{ from: USER, id: 'wamid.IN1', timestamp: '1700000000', type: 'text', text: { body: 'hi' } }]), SECRET);
    graph.requests.length = 0;

    const sent = await adapter!.send({ chatId: USER, text: 'hello back', replyTo: 'wamid.IN1' });
    expect(sent.messageId).toMatch(/^wamid\./);
    await adapter!.send({ chatId: USER, text: 'Run rm -rf build?', actions: [{ id: 'approve:ap9:once', label: 'Approve once' }, { id: 'deny:ap9', label: 'Deny this dangerous command', style: 'danger' }] });
    await adapter!.send({ chatId: USER, text: 'Run it?', actions: ['once', 'session', 'always'].map((s) => ({ id: `approve:ap9:${s}`, label: `Approve ${s}` })).concat([{ id: 'deny:ap9', label: 'Deny' }]) });
    await adapter!.typing(USER);
    const file = join(dir, 'report.pdf');
    writeFileSync(file, '%PDF-1.4 test');
    await adapter!.sendFile({ chatId: USER, path: file, caption: 'the report' });

    const messages = graph.requests.filter((r) => r.path === `/v21.0/${PNID}/messages`).map((r) => r.json);
    expect(messages[0]).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to: USER, context: { message_id: 'wamid.IN1' }, type: 'text', text: { body: 'hello back', preview_url: false } });
    expect(messages[1]).toMatchObject({ type: 'interactive', interactive: { type: 'button', body: { text: 'Run rm -rf build?' }, action: { buttons: [{ type: 'reply', reply: { id: 'approve:ap9:once', title: 'Approve once' } }, { type: 'reply', reply: { id: 'deny:ap9', title: 'Deny this dangerous…' } }] } } });
    expect((messages[1] as { interactive: { action: { buttons: { reply: { title: string } }[] } } }).interactive.action.buttons[1]?.reply.title).toHaveLength(20);
    expect(messages[2]).toMatchObject({ type: 'interactive', interactive: { type: 'list', action: { button: 'Choose', sections: [{ rows: [{ id: 'approve:ap9:once' }, { id: 'approve:ap9:session' }, { id: 'approve:ap9:always' }, { id: 'deny:ap9', title: 'Deny' }] }] } } });
    expect(messages[3]).toEqual({ messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.IN1', typing_indicator: { type: 'text' } });
    const upload = graph.requests.find((r) => r.path === `/v21.0/${PNID}/media`);
    expect(upload?.form).toMatchObject({ messaging_product: 'whatsapp', type: 'application/pdf', file: { name: 'report.pdf', type: 'application/pdf' } });
    expect((upload?.form?.file as { bytes: Buffer }).bytes.toString()).toBe('%PDF-1.4 test');
    const mediaId = [...graph.media.keys()][0];
    expect(messages[4]).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to: USER, type: 'document', document: { id: mediaId, filename: 'report.pdf', caption: 'the report' } });
    expect(adapter!.limits).toEqual({ maxMessageChars: 4096, canEdit: false, minEditIntervalMs: 0, hasButtons: true });
    await expect(adapter!.send({ chatId: USER, text: 'x'.repeat(4097) })).rejects.toThrow(/may hold 4096 characters/);
    await expect(adapter!.edit(USER, 'wamid.X', 'new')).rejects.toThrow(/cannot be edited/);
  });

  it('downloads an attachment through GET /{media-id} and its URL, and refuses a damaged one', async () => {
    await open(recorder());
    graph.media.set('777', { bytes: Buffer.from('OGGDATA'), mimeType: 'audio/ogg' });
    const destination = join(dir, 'voice.ogg');
    await adapter!.download({ kind: 'voice', platformId: '777' }, destination);
    expect(readFileSync(destination, 'utf8')).toBe('OGGDATA');
    expect(graph.requests.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining(['GET /v21.0/777', 'GET /media-download/777']));
    graph.media.set('778', { bytes: Buffer.from('TAMPERED'), mimeType: 'image/jpeg', sha256: 'ab'.repeat(32) });
    await expect(adapter!.download({ kind: 'image', platformId: '778' }, join(dir, 'x.jpg'))).rejects.toThrow(/arrived damaged/);
  });

  it('a refused token is bad_token at connect and on send, and the token never appears in an error', async () => {
    const h = recorder();
    await open(h, 'EAAG-revoked');
    expect(h.states.map((s) => s.state)).toEqual(['connecting', 'bad_token']);
    expect((h.states[1] as { reason: string }).reason).toMatch(/Invalid OAuth access token.*code 190.*token_env/);
    const error = (await adapter!.send({ chatId: USER, text: 'hi' }).then(() => new Error('sent'), (err: unknown) => err)) as Error;
    expect(error.message).toMatch(/refused POST .*messages: Invalid OAuth access token/);
    expect(error.message).not.toContain('EAAG-revoked');
    expect(h.states.at(-1)?.state).toBe('bad_token');
  });

  it('a Graph API that cannot be reached: retrying, and webhooks still arrive', async () => {
    const root = graph.root;
    await graph.close();
    const h = recorder();
    adapter = createWhatsAppAdapter({ token: TOKEN, appSecret: SECRET, verifyToken: VERIFY, phoneNumberId: PNID, graphApiRoot: root, graphApiVersion: 'v21.0', webhook: { port: 0, path: '/hook' }, retry: { baseMs: 20, maxMs: 50 } }, { cursor, warn: (m) => warnings.push(m) });
    await adapter.connect(h);
    expect(h.states.at(-1)).toMatchObject({ state: 'retrying', attempt: 1, reason: expect.stringMatching(/cannot be reached.*ECONNREFUSED/) });
    const res = await postWebhook(`http://127.0.0.1:${adapter.webhookPort}/hook`, payload([{ from: USER, id: 'wamid.D1', timestamp: '1700000000', type: 'text', text: { body: 'anyone?' } }]), SECRET);
    expect(res.status).toBe(200);
    expect(h.messages.map((m) => m.text)).toEqual(['anyone?']);
    graph = await startFakeGraph({ token: TOKEN, phoneNumberId: PNID, displayPhoneNumber: DISPLAY });
  });
});

describe('gateway.whatsapp config', () => {
  it('reads the secrets from the variables it names and says which one is missing', () => {
    const section = GatewaySection.parse({ whatsapp: { token_env: 'WA_TOKEN', app_secret_env: 'WA_SECRET', verify_token_env: 'WA_VERIFY', phone_number_id: PNID } }).whatsapp!;
    expect(whatsAppOptionsFromConfig(section, { WA_TOKEN: 't', WA_SECRET: 's', WA_VERIFY: 'v' })).toEqual({
      token: 't', appSecret: 's', verifyToken: 'v', phoneNumberId: PNID, graphApiRoot: 'https://graph.facebook.com', graphApiVersion: 'v21.0', webhook: { port: 8743, path: '/whatsapp/webhook' },
    });
    let error: unknown;
    try {
      whatsAppOptionsFromConfig(section, { WA_TOKEN: 't', WA_VERIFY: 'v' });
    } catch (err) {
      error = err;
    }
    expect(isHearthError(error, 'config_invalid')).toBe(true);
    expect((error as Error).message).toBe('gateway.whatsapp.app_secret_env names WA_SECRET, which is not set: export the Meta app secret in it');
  });
});
