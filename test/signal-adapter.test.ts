import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSignalAdapter, signalOptionsFromConfig } from '../src/core/gateway/platforms/signal.js';
import type { AdapterHandlers, AdapterState, CursorStore, MessageEvent, PlatformAdapter } from '../src/core/gateway/types.js';
import { GatewaySection } from '../src/core/config/schema-gateway.js';
import { isHearthError } from '../src/core/errors.js';
import { dataEnvelope, startFakeSignalCli, type FakeSignalCli } from './fixtures/signal-cli-server.js';

/**
 * The Signal adapter against a signal-cli-shaped daemon on 127.0.0.1 (fixtures/signal-cli-server.ts: JSON-RPC
 * over HTTP and the SSE event stream with Last-Event-ID replay). Catches wrong normalization (DM vs group, ids,
 * mentions, quotes, attachments), wrong RPC parameters, a dropped stream that is not reconnected or loses or
 * repeats messages, and malformed events that crash the adapter or vanish without a word.
 */
const BOT = '+15550000001';
const ALICE = { number: '+15550000002', uuid: '0b6d6a55-2ad4-4d0e-9d0b-5b9b0c4f7e01', name: 'Alice' };
const GROUP_ID = 'Pmpi+EfPWmsxiomLe9Nx2XF9HOE483p6iKiFj65iMwI=';

class MemoryCursor implements CursorStore {
  readonly values = new Map<string, string>();
  get(key: string): string | undefined {
    return this.values.get(key);
  }
  set(key: string, value: string): void {
    this.values.set(key, value);
  }
}

function recorder(): AdapterHandlers & { messages: MessageEvent[]; states: AdapterState[]; until(check: () => boolean, what: string): Promise<void> } {
  const messages: MessageEvent[] = [];
  const states: AdapterState[] = [];
  return {
    messages,
    states,
    onMessage: async (event) => void messages.push(event),
    onAction: async () => {
      throw new Error('Signal has no buttons');
    },
    onState: (state) => void states.push(state),
    async until(check, what) {
      const deadline = Date.now() + 10_000;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; states: ${JSON.stringify(states)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}

let daemon: FakeSignalCli;
let adapter: PlatformAdapter | undefined;
let warnings: string[];
let cursor: MemoryCursor;
let dir: string;

const open = (url = daemon.url, extra: Partial<Parameters<typeof createSignalAdapter>[0]> = {}): PlatformAdapter =>
  (adapter = createSignalAdapter({ httpUrl: url, account: BOT, retry: { baseMs: 20, maxMs: 100 }, ...extra }, { cursor, warn: (m) => warnings.push(m) }));

beforeEach(async () => {
  daemon = await startFakeSignalCli({ account: BOT, multiAccount: true, keepAliveMs: 50 });
  warnings = [];
  cursor = new MemoryCursor();
  dir = mkdtempSync(join(tmpdir(), 'hearth-signal-'));
});
afterEach(async () => {
  await adapter?.disconnect();
  adapter = undefined;
  await daemon.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Signal adapter: incoming', () => {
  it('normalizes a DM, a group message with a bot mention, a quote of the bot, and attachments; reactions and receipts are not messages', async () => {
    const h = recorder();
    await open().connect(h);
    expect(h.states.at(-1)).toMatchObject({ state: 'connected', account: BOT });

    daemon.receive(dataEnvelope(ALICE, 1_700_000_000_001, { message: 'hello bot' }));
    daemon.receive({ ...dataEnvelope(ALICE, 1_700_000_000_002, {}), dataMessage: undefined, receiptMessage: { when: 1, isDelivery: true, isRead: false, timestamps: [1] } });
    daemon.receive(dataEnvelope(ALICE, 1_700_000_000_003, { reaction: { emoji: '👍', targetAuthorNumber: BOT, targetSentTimestamp: 5, isRemove: false } }));
    daemon.receive(dataEnvelope(ALICE, 1_700_000_000_004, {
      message: '\uFFFC what is 2+2, ask \uFFFC',
      mentions: [{ name: BOT, number: BOT, uuid: 'aaaaaaaa-0000-4000-8000-000000000000', start: 0, length: 1 }, { name: '+15550000009', number: '+15550000009', uuid: 'bbbbbbbb-0000-4000-8000-000000000000', start: 19, length: 1 }],
      groupInfo: { groupId: GROUP_ID, groupName: 'Family', revision: 3, type: 'DELIVER' },
      quote: { id: 1_699_999_999_000, author: BOT, authorNumber: BOT, authorUuid: 'aaaaaaaa-0000-4000-8000-000000000000', text: 'earlier answer', attachments: [] },
    }));
    daemon.attachments.set('att-photo.jpg', Buffer.from('JPEGDATA'));
    daemon.receive(dataEnvelope(ALICE, 1_700_000_000_005, {
      message: 'look',
      attachments: [
        { contentType: 'image/jpeg', filename: 'cat.jpg', id: 'att-photo.jpg', size: 8, width: 10, height: 10, caption: null, uploadTimestamp: 1 },
        { contentType: 'audio/aac', filename: null, id: 'att-voice.aac', size: 3, width: null, height: null, caption: null, uploadTimestamp: 1 },
      ],
    }));
    await h.until(() => h.messages.length === 3, 'three messages');

    const [dm, group, media] = h.messages;
    expect(dm).toMatchObject({ platform: 'signal', messageId: `${ALICE.uuid}:1700000000001`, chat: { id: ALICE.number, type: 'dm' }, user: { id: ALICE.number, name: 'Alice', isBot: false }, text: 'hello bot', mentionsBot: false, sentAt: 1_700_000_000_001, attachments: [] });
    expect(group).toMatchObject({ chat: { id: GROUP_ID, type: 'group', title: 'Family' }, text: 'what is 2+2, ask @+15550000009', mentionsBot: true, replyTo: { messageId: `${BOT}:1699999999000`, fromBot: true } });
    expect(media?.attachments).toEqual([
      { kind: 'image', platformId: 'att-photo.jpg', name: 'cat.jpg', mimeType: 'image/jpeg', bytes: 8 },
      { kind: 'voice', platformId: 'att-voice.aac', mimeType: 'audio/aac', bytes: 3 },
    ]);
    expect(warnings).toEqual([]);

    const destination = join(dir, 'cat.jpg');
    await adapter!.download(media!.attachments[0]!, destination);
    expect(readFileSync(destination, 'utf8')).toBe('JPEGDATA');
    expect(daemon.rpcCalls.at(-1)).toEqual({ method: 'getAttachment', params: { id: 'att-photo.jpg', account: BOT } });
  });

  it('skips malformed events with a warning and keeps delivering the ones after them', async () => {
    const h = recorder();
    await open().connect(h);
    daemon.receiveRaw('{not json');
    daemon.receiveRaw(JSON.stringify({ account: BOT, envelope: { source: ALICE.number, timestamp: 'yesterday', dataMessage: { message: 'x' } } }));
    daemon.receiveRaw(JSON.stringify({ account: BOT, exception: { message: 'Untrusted identity', type: 'UntrustedIdentityException' }, envelope: { sourceNumber: ALICE.number, sourceUuid: ALICE.uuid, timestamp: 5 } }));
    daemon.receive(dataEnvelope(ALICE, 1_700_000_000_010, { message: 'still here' }));
    await h.until(() => h.messages.length === 1, 'the good message');
    expect(h.messages[0]?.text).toBe('still here');
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/^signal: skipped a receive event that is not JSON/);
    expect(warnings[1]).toMatch(/envelope of an unexpected shape \(timestamp/);
    expect(warnings[2]).toMatch(/could not decrypt a message from \+15550000002 \(Untrusted identity\)/);
  });
});

describe('Signal adapter: the event stream', () => {
  it('reconnects after the stream drops, resumes with Last-Event-ID, and neither loses nor repeats a message', async () => {
    const h = recorder();
    await open().connect(h);
    daemon.receive(dataEnvelope(ALICE, 1_700_000_000_020, { message: 'one' }));
    await h.until(() => h.messages.length === 1, 'the first message');
    // Let the cursor write land (it follows onMessage), then cut the stream and send while it is down.
    await h.until(() => cursor.values.size === 1, 'the cursor');
    const statesBefore = h.states.length;
    daemon.dropStreams();
    daemon.receive(dataEnvelope(ALICE, 1_700_000_000_021, { message: 'two' }));
    await h.until(() => h.messages.length === 2, 'the message sent while the stream was down');
    daemon.receive(dataEnvelope(ALICE, 1_700_000_000_022, { message: 'three' }));
    await h.until(() => h.messages.length === 3, 'a message after the reconnect');

    expect(h.messages.map((m) => m.text)).toEqual(['one', 'two', 'three']);
    const after = h.states.slice(statesBefore).map((s) => s.state);
    expect(after).toEqual(['retrying', 'connected']);
    expect(h.states[statesBefore]).toMatchObject({ attempt: 1, reason: expect.stringMatching(/^(the event stream broke: terminated|signal-cli closed the event stream)/) });
    expect(daemon.streamConnections).toHaveLength(2);
    expect(daemon.streamConnections[0]).toBeUndefined();
    expect(daemon.streamConnections[1]).toMatch(/^\d+-1$/);
  });

  it('a restart on the same cursor resumes after the last message handled', async () => {
    const first = recorder();
    await open().connect(first);
    daemon.receive(dataEnvelope(ALICE, 1_700_000_000_030, { message: 'before restart' }));
    await first.until(() => cursor.values.size === 1, 'the cursor');
    await adapter!.disconnect();
    expect(first.states.at(-1)).toEqual({ state: 'stopped' });

    daemon.receive(dataEnvelope(ALICE, 1_700_000_000_031, { message: 'while stopped' }));
    const second = recorder();
    await open().connect(second);
    await second.until(() => second.messages.length === 1, 'the missed message');
    expect(second.messages.map((m) => m.text)).toEqual(['while stopped']);
  });

  it('a daemon that is not up yet: retrying, then connected when it starts', async () => {
    const port = await freePort();
    const h = recorder();
    await open(`http://127.0.0.1:${port}`).connect(h);
    expect(h.states.at(-1)).toMatchObject({ state: 'retrying', attempt: 1 });
    expect((h.states.at(-1) as { reason: string }).reason).toMatch(/ECONNREFUSED/);
    const late = await startFakeSignalCli({ account: BOT, port });
    try {
      await h.until(() => h.states.at(-1)?.state === 'connected', 'connected');
      late.receive(dataEnvelope(ALICE, 1_700_000_000_040, { message: 'hi' }));
      await h.until(() => h.messages.length === 1, 'a message');
    } finally {
      await adapter?.disconnect();
      adapter = undefined;
      await late.close();
    }
  });

  it('an account the daemon does not have fails for good instead of retrying', async () => {
    const h = recorder();
    adapter = createSignalAdapter({ httpUrl: daemon.url, account: '+15559999999', retry: { baseMs: 20 } }, { cursor, warn: (m) => warnings.push(m) });
    await adapter.connect(h);
    expect(h.states.map((s) => s.state)).toEqual(['connecting', 'failed']);
    expect((h.states[1] as { reason: string }).reason).toMatch(/has no account \+15559999999/);
  });

  it('a silent stream (no keep-alive) counts as dead and is reconnected', async () => {
    await daemon.close();
    daemon = await startFakeSignalCli({ account: BOT, keepAliveMs: 60_000 });
    const h = recorder();
    await open(daemon.url, { idleTimeoutMs: 150 }).connect(h);
    await h.until(() => h.states.some((s) => s.state === 'retrying'), 'a retry');
    expect(h.states.find((s) => s.state === 'retrying')).toMatchObject({ reason: 'no data or keep-alive from signal-cli for 0 s' });
    await h.until(() => daemon.streamConnections.length >= 2, 'a second connection');
  });
});

describe('Signal adapter: outgoing', () => {
  it('sends to a person and to a group, quotes, files and typing with signal-cli parameters', async () => {
    const h = recorder();
    await open().connect(h);
    const sent = await adapter!.send({ chatId: ALICE.number, text: 'four', replyTo: `${ALICE.uuid}:1700000000001` });
    expect(sent.messageId).toMatch(/^\+15550000001:\d+$/);
    await adapter!.send({ chatId: GROUP_ID, text: 'hi all' });
    const file = join(dir, 'report.txt');
    writeFileSync(file, 'report');
    await adapter!.sendFile({ chatId: ALICE.number, path: file, caption: 'the report' });
    await adapter!.typing(GROUP_ID);

    expect(daemon.rpcCalls).toEqual([
      { method: 'send', params: { recipient: [ALICE.number], message: 'four', quoteTimestamp: 1_700_000_000_001, quoteAuthor: ALICE.uuid, account: BOT } },
      { method: 'send', params: { groupId: GROUP_ID, message: 'hi all', account: BOT } },
      { method: 'send', params: { recipient: [ALICE.number], message: 'the report', attachments: [file], account: BOT } },
      { method: 'sendTyping', params: { groupId: GROUP_ID, account: BOT } },
    ]);
    expect(adapter!.limits).toEqual({ maxMessageChars: 2000, canEdit: false, minEditIntervalMs: 0, hasButtons: false });
  });

  it('refuses what it cannot send, with errors that say why', async () => {
    await open().connect(recorder());
    await expect(adapter!.send({ chatId: ALICE.number, text: 'x'.repeat(2001) })).rejects.toThrow(/may hold 2000 characters; this one has 2001/);
    daemon.unregistered.add('+15550000077');
    await expect(adapter!.send({ chatId: '+15550000077', text: 'hi' })).rejects.toThrow(/signal-cli refused send: The user \+15550000077 is not registered\. \(JSON-RPC error -1\)/);
    await expect(adapter!.sendFile({ chatId: ALICE.number, path: join(dir, 'missing.txt') })).rejects.toThrow(/cannot send .*missing\.txt on Signal: ENOENT/);
    await expect(adapter!.edit(ALICE.number, 'x:1', 'new')).rejects.toThrow(/not edited/);
    await expect(adapter!.download({ kind: 'file', platformId: 'nope' }, join(dir, 'nope'))).rejects.toThrow(/An error occurred reading attachment: nope/);
    // Buttons cannot be sent: the text goes, with one warning.
    await adapter!.send({ chatId: ALICE.number, text: 'Approve? /approve abc', actions: [{ id: 'approve:abc:once', label: 'Approve' }] });
    await adapter!.send({ chatId: ALICE.number, text: 'again', actions: [{ id: 'approve:abc:once', label: 'Approve' }] });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/carry no buttons/);
  });
});

describe('gateway.signal config', () => {
  it('needs the account; http_url defaults to the daemon default', () => {
    const parsed = GatewaySection.parse({ signal: { account: BOT } });
    expect(signalOptionsFromConfig(parsed.signal!)).toEqual({ httpUrl: 'http://127.0.0.1:8080', account: BOT });
    let error: unknown;
    try {
      signalOptionsFromConfig(GatewaySection.parse({ signal: {} }).signal!);
    } catch (err) {
      error = err;
    }
    expect(isHearthError(error, 'config_invalid')).toBe(true);
    expect(GatewaySection.safeParse({ signal: { account: '5550001' } }).success).toBe(false);
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
