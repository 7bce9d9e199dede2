import { stat, writeFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import type { GatewaySection } from '../../config/schema-gateway.js';
import { HearthError } from '../../errors.js';
import type { z } from 'zod';
import type { AdapterContext, AdapterHandlers, AdapterState, Attachment, ChatAction, OutgoingFile, OutgoingMessage, PlatformAdapter, PlatformLimits } from '../types.js';
import { describeFetchError, SignalRpc, SignalRpcError } from './signal-rpc.js';
import { backoffDelay, sleep } from './retry-backoff.js';
import { readServerSentEvents } from './signal-sse.js';
import { normalizeSignalReceive, signalMessageId } from './signal-updates.js';

/**
 * Signal through a `signal-cli daemon --http` the user runs and links to the bot's number.
 *
 * Why the HTTP interface and not the TCP socket: both speak the same JSON-RPC, but over HTTP each call is its own
 * request (no id bookkeeping over one shared socket, a timeout per call), incoming messages arrive as Server-Sent
 * Events whose ids let a reconnect resume where it left off (`Last-Event-ID`: signal-cli keeps the last 1,000
 * events and replays the ones a client missed), and `GET /api/v1/check` gives a health check. A dropped stream is
 * reconnected with backoff; the last event id handled is kept in the cursor store so a restart resumes too, and
 * the gateway drops what it already saw by message id (`author:timestamp`).
 *
 * Attachments: incoming ones are fetched through the `getAttachment` RPC (base64), so the daemon may run in a
 * container or on another host; outgoing files are passed to `send` as file paths, which the daemon must be able
 * to read (same host or a shared volume).
 */

export interface SignalAdapterOptions {
  /** The daemon's HTTP interface, e.g. `http://127.0.0.1:8080`. */
  httpUrl: string;
  /** The bot's number, as registered or linked in signal-cli. */
  account: string;
  /** Reconnect backoff: the first delay and the cap (default 1 s and 60 s), with jitter. */
  retry?: { baseMs?: number; maxMs?: number };
  /** No byte on the stream for this long means it is dead (signal-cli sends a keep-alive every 15 s). */
  idleTimeoutMs?: number;
}

type SignalConfig = NonNullable<z.infer<typeof GatewaySection>['signal']>;

/** The adapter's options from `gateway.signal` (no secrets: the daemon holds the account's keys). */
export function signalOptionsFromConfig(section: SignalConfig): SignalAdapterOptions {
  if (section.account === undefined) {
    throw new HearthError('config_invalid', 'gateway.signal.account is not set: put the bot\'s Signal number there (as registered or linked in signal-cli, e.g. +15551234567)', { details: { key: 'gateway.signal.account' } });
  }
  return { httpUrl: section.http_url, account: section.account };
}

/** Above about 2,000 characters Signal sends the body as a long-text attachment, which linked devices can show cut off; the gateway splits instead. */
const SIGNAL_LIMITS: PlatformLimits = { maxMessageChars: 2000, canEdit: false, minEditIntervalMs: 0, hasButtons: false };

/** The cursor key for the last SSE event id handled. */
const LAST_EVENT_ID = 'signal:last_event_id';

const PHONE = /^\+\d{6,15}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A chat id is a person (number or ACI, a DM) or else a group (signal-cli's base64 group id). */
const target = (chatId: string): Record<string, unknown> => (PHONE.test(chatId) || UUID.test(chatId) ? { recipient: [chatId] } : { groupId: chatId });

export function createSignalAdapter(options: SignalAdapterOptions, ctx: AdapterContext): PlatformAdapter {
  return new SignalAdapter(options, ctx);
}

class SignalAdapter implements PlatformAdapter {
  readonly platform = 'signal' as const;
  readonly limits = SIGNAL_LIMITS;
  private readonly rpc: SignalRpc;
  private handlers: AdapterHandlers | undefined;
  private stop: AbortController | undefined;
  private loop: Promise<void> | undefined;
  private settleConnect: (() => void) | undefined;
  private warnedActions = false;

  constructor(private readonly options: SignalAdapterOptions, private readonly ctx: AdapterContext) {
    this.rpc = new SignalRpc({ httpUrl: options.httpUrl, account: options.account });
  }

  /** Resolves at the first outcome: connected, retrying (the daemon is down: it keeps trying) or failed. */
  async connect(handlers: AdapterHandlers): Promise<void> {
    if (this.loop !== undefined) throw new Error('the Signal adapter is already connected');
    this.handlers = handlers;
    this.stop = new AbortController();
    const settled = new Promise<void>((resolve) => (this.settleConnect = resolve));
    this.setState({ state: 'connecting' });
    this.loop = this.run(this.stop.signal);
    await settled;
  }

  async disconnect(): Promise<void> {
    this.stop?.abort(new Error('disconnected'));
    await this.loop;
    this.loop = undefined;
    this.stop = undefined;
    if (this.handlers !== undefined) this.setState({ state: 'stopped' });
  }

  async send(message: OutgoingMessage): Promise<{ messageId: string }> {
    if (message.text.length > SIGNAL_LIMITS.maxMessageChars) {
      throw new SignalRpcError('refused', `a Signal message may hold ${SIGNAL_LIMITS.maxMessageChars} characters; this one has ${message.text.length} (split it first)`);
    }
    if (message.actions !== undefined && message.actions.length > 0) this.warnButtons(message.actions);
    const params: Record<string, unknown> = { ...target(message.chatId), message: message.text };
    const quoted = message.replyTo === undefined ? undefined : parseMessageId(message.replyTo);
    if (quoted !== undefined) {
      params.quoteTimestamp = quoted.timestamp;
      params.quoteAuthor = quoted.author;
    }
    return { messageId: await this.sendRpc(params) };
  }

  async edit(_chatId: string, _messageId: string, _text: string, _actions?: readonly ChatAction[]): Promise<void> {
    throw new SignalRpcError('refused', 'Signal messages are not edited by Hearth (limits.canEdit is false): send a new message');
  }

  async sendFile(file: OutgoingFile): Promise<{ messageId: string }> {
    const path = resolvePath(file.path);
    const info = await stat(path).catch((err: unknown) => {
      throw new SignalRpcError('refused', `cannot send ${path} on Signal: ${describeFetchError(err)}`, { cause: err });
    });
    if (!info.isFile()) throw new SignalRpcError('refused', `cannot send ${path} on Signal: not a file`);
    return { messageId: await this.sendRpc({ ...target(file.chatId), message: file.caption ?? '', attachments: [path] }) };
  }

  async download(attachment: Attachment, destination: string): Promise<void> {
    const result = await this.rpc.call('getAttachment', { id: attachment.platformId });
    const data = typeof result === 'object' && result !== null ? (result as { data?: unknown }).data : undefined;
    if (typeof data !== 'string') throw new SignalRpcError('bad_response', `signal-cli returned no data for attachment ${attachment.platformId}`);
    await writeFile(destination, Buffer.from(data, 'base64'), { mode: 0o600 });
  }

  async typing(chatId: string): Promise<void> {
    await this.rpc.call('sendTyping', target(chatId));
  }

  /** `send` answers `{timestamp, results: [{type}]}`; a recipient it could not reach is a failure, not a sent message. */
  private async sendRpc(params: Record<string, unknown>): Promise<string> {
    const result = await this.rpc.call('send', params);
    const reply = (typeof result === 'object' && result !== null ? result : {}) as { timestamp?: unknown; results?: unknown };
    if (typeof reply.timestamp !== 'number') throw new SignalRpcError('bad_response', 'signal-cli answered send without the message timestamp');
    if (Array.isArray(reply.results) && reply.results.length > 0) {
      const failed = reply.results.map((r) => (typeof r === 'object' && r !== null ? (r as { type?: unknown }).type : undefined)).filter((type) => type !== 'SUCCESS');
      if (failed.length === reply.results.length) throw new SignalRpcError('rpc', `signal-cli could not deliver the message (${failed.map(String).join(', ')})`);
    }
    return signalMessageId(this.options.account, reply.timestamp);
  }

  private warnButtons(actions: readonly ChatAction[]): void {
    if (this.warnedActions) return;
    this.warnedActions = true;
    this.ctx.warn(`signal: messages carry no buttons (limits.hasButtons is false); ${actions.length} action(s) left out: answer with /approve ID or /deny ID`);
  }

  private setState(state: AdapterState): void {
    this.handlers?.onState(state);
    if (state.state !== 'connecting') {
      this.settleConnect?.();
      this.settleConnect = undefined;
    }
  }

  private async run(signal: AbortSignal): Promise<void> {
    let attempt = 0;
    while (!signal.aborted) {
      let reason: string;
      try {
        const outcome = await this.streamOnce(signal, () => (attempt = 0));
        if (outcome === 'fatal') return;
        reason = 'signal-cli closed the event stream';
      } catch (err) {
        if (signal.aborted) return;
        reason = describeFetchError(err);
      }
      attempt += 1;
      const delay = backoffDelay(attempt, this.options.retry);
      this.setState({ state: 'retrying', attempt, nextRetryAt: Date.now() + delay, reason });
      await sleep(delay, signal);
    }
  }

  /** One connection to the event stream: 'closed' when the daemon ended it, 'fatal' when retrying cannot help. */
  private async streamOnce(signal: AbortSignal, onConnected: () => void): Promise<'closed' | 'fatal'> {
    const url = new URL('/api/v1/events', this.options.httpUrl);
    url.searchParams.set('account', this.options.account);
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    const lastEventId = this.ctx.cursor.get(LAST_EVENT_ID);
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    const stream = new AbortController();
    const stopStream = (): void => stream.abort(signal.reason);
    signal.addEventListener('abort', stopStream, { once: true });
    const idleMs = this.options.idleTimeoutMs ?? 45_000;
    // The same limit for the response headers: a daemon that accepts the connection and says nothing is as dead.
    const headerTimer = setTimeout(() => stream.abort(new Error(`signal-cli sent no response to the event stream request for ${Math.round(idleMs / 1000)} s`)), idleMs);
    let connected = false;
    try {
      const response = await fetch(url, { headers, signal: stream.signal });
      clearTimeout(headerTimer);
      if (response.status === 400) {
        await response.body?.cancel();
        this.setState({ state: 'failed', reason: `the signal-cli daemon at ${this.options.httpUrl} has no account ${this.options.account}: register or link it in signal-cli, or fix gateway.signal.account` });
        return 'fatal';
      }
      if (response.status !== 200 || response.body === null) {
        await response.body?.cancel();
        throw new Error(`signal-cli answered the event stream with HTTP ${response.status}${response.status === 404 ? ' (is this a signal-cli daemon started with --http?)' : ''}`);
      }
      if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
        await response.body.cancel();
        throw new Error(`signal-cli answered the event stream with ${response.headers.get('content-type') ?? 'no content type'}, not text/event-stream`);
      }
      onConnected();
      connected = true;
      this.setState({ state: 'connected', since: Date.now(), account: this.options.account });
      const body = watchIdle(response.body, idleMs, () => stream.abort(new Error(`no data or keep-alive from signal-cli for ${Math.round(idleMs / 1000)} s`)));
      for await (const event of readServerSentEvents(body)) {
        if (event.event !== 'receive') continue;
        await this.deliver(event.data);
        // Only after the gateway took it: a crash before this line replays the event, and the gateway drops the repeat.
        if (event.id !== undefined) this.ctx.cursor.set(LAST_EVENT_ID, event.id);
      }
      return 'closed';
    } catch (err) {
      // The idle watchdog aborts with its own reason; say that rather than "This operation was aborted".
      if (stream.signal.aborted && !signal.aborted && stream.signal.reason instanceof Error) throw stream.signal.reason;
      if (connected && !signal.aborted) throw new Error(`the event stream broke: ${describeFetchError(err)}`, { cause: err });
      throw err;
    } finally {
      clearTimeout(headerTimer);
      signal.removeEventListener('abort', stopStream);
      stream.abort(new Error('stream finished'));
    }
  }

  private async deliver(data: string): Promise<void> {
    const update = normalizeSignalReceive(data, { account: this.options.account });
    if (update.kind === 'skipped') {
      this.ctx.warn(`signal: skipped ${update.reason}`);
      return;
    }
    if (update.kind === 'ignored' || this.handlers === undefined) return;
    try {
      await this.handlers.onMessage(update.event);
    } catch (err) {
      // Reconnecting from the last event handled makes signal-cli send this one again.
      throw new Error(`the gateway did not take Signal message ${update.event.messageId}: ${describeFetchError(err)}`, { cause: err });
    }
  }
}

/** `author:timestamp` back into signal-cli's quote parameters; ids of another shape quote nothing. */
function parseMessageId(id: string): { author: string; timestamp: number } | undefined {
  const colon = id.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const timestamp = Number(id.slice(colon + 1));
  return Number.isSafeInteger(timestamp) ? { author: id.slice(0, colon), timestamp } : undefined;
}

/** Passes the stream through, calling `onIdle` when no chunk came for `ms`. */
async function* watchIdle(body: AsyncIterable<Uint8Array>, ms: number, onIdle: () => void): AsyncGenerator<Uint8Array> {
  let timer = setTimeout(onIdle, ms);
  try {
    for await (const chunk of body) {
      // Paused while the consumer handles the chunk: a slow turn hand-off is not a dead stream.
      clearTimeout(timer);
      yield chunk;
      timer = setTimeout(onIdle, ms);
    }
  } finally {
    clearTimeout(timer);
  }
}
