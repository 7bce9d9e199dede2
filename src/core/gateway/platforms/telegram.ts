import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, stat, unlink } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { Bot, GrammyError, InputFile } from 'grammy';
import { splitMessage } from '../split-message.js';
import type {
  AdapterContext, AdapterHandlers, AdapterState, Attachment, ChatAction, OutgoingFile, OutgoingMessage, PlatformAdapter, PlatformLimits,
} from '../types.js';
import { backoffDelay, classifyFailure, redact, TelegramApiError, toTelegramApiError, type BackoffOptions, type FailureVerdict } from './telegram-errors.js';
import { chatRef, inlineKeyboard, MAX_CAPTION_CHARS, MAX_MESSAGE_CHARS, requireMessageId, threadParams } from './telegram-outgoing.js';
import { ALLOWED_UPDATES, messageRef, normalizeUpdate, updateId, type BotIdentity } from './telegram-update.js';
import { startWebhookServer, type WebhookServer, type WebhookVerdict } from './telegram-webhook.js';

/**
 * Telegram through grammY's Bot API client (issue 13). Updates come by long polling `getUpdates` or by webhook;
 * either way each one is handed to the gateway and only then is the update offset stored (`AdapterContext.cursor`),
 * so a restart neither loses an update (Telegram keeps what was not confirmed) nor repeats one (the stored offset
 * confirms it, and a webhook redelivery below it is dropped).
 *
 * The polling loop is the adapter's own, not `bot.start()`: grammY's loop keeps the offset in memory only, retries
 * on a fixed delay and reports nothing, while the gateway needs the persisted cursor and the adapter's state.
 */

export const TELEGRAM_LIMITS: PlatformLimits = {
  maxMessageChars: MAX_MESSAGE_CHARS,
  canEdit: true,
  // Telegram starts answering 429 to a chat edited much more than once a second.
  minEditIntervalMs: 1000,
  hasButtons: true,
};

export interface TelegramWebhookOptions {
  /** The public URL given to `setWebhook` (https for the real Telegram). */
  url: string;
  /** The loopback port the endpoint listens on (0: any free one). */
  port: number;
  path?: string;
  /** The secret token; unset: a fresh random one each connect, which `setWebhook` hands to Telegram. */
  secret?: string;
}

export interface TelegramAdapterOptions {
  token: string;
  /** Default https://api.telegram.org. */
  apiRoot?: string;
  mode?: 'polling' | 'webhook';
  webhook?: TelegramWebhookOptions;
  /** Long-poll length in seconds (default 30). */
  pollTimeoutS?: number;
  backoff?: BackoffOptions;
  /** How often a handler may fail on one update before it is skipped with a warning (default 5). */
  maxHandlerAttempts?: number;
}

/** The cursor key: `{ offset, at }`, the next update id to ask for and when it was stored. */
const OFFSET_KEY = 'update_offset';
/**
 * Telegram keeps unconfirmed updates for 24 hours, and after a week without updates it may restart the ids at a
 * random value. An offset older than a day therefore confirms nothing that still exists and may wrongly hide new
 * updates: it is not used.
 */
const OFFSET_TTL_MS = 24 * 60 * 60 * 1000;
/** The longest `retry_after` an outgoing call waits out before giving up; longer belongs to the caller. */
const MAX_SEND_RETRY_AFTER_S = 60;

/** grammY types its signals with the abort-controller polyfill's class; Node's own AbortSignal is what it gets and handles. */
type SdkSignal = Parameters<Bot['api']['getMe']>[0];
const sdkSignal = (signal: AbortSignal): SdkSignal => signal as unknown as SdkSignal;

export function createTelegramAdapter(options: TelegramAdapterOptions, ctx: AdapterContext): TelegramAdapter {
  return new TelegramAdapter(options, ctx);
}

export class TelegramAdapter implements PlatformAdapter {
  readonly platform = 'telegram' as const;
  readonly limits = TELEGRAM_LIMITS;
  private readonly bot: Bot;
  private readonly token: string;
  private readonly apiRoot: string;
  private readonly pollTimeoutS: number;
  private readonly maxHandlerAttempts: number;
  private handlers: AdapterHandlers | undefined;
  private identity: BotIdentity | undefined;
  private abort: AbortController | undefined;
  private loop: Promise<void> | undefined;
  private server: WebhookServer | undefined;
  private webhookSecret = '';
  /** Webhook updates are handled one at a time, in arrival order, like polled ones. */
  private webhookChain: Promise<unknown> = Promise.resolve();
  private cursor: { offset: number; at: number } | undefined;
  private readonly failures = new Map<number, number>();
  private state: AdapterState = { state: 'stopped' };

  constructor(private readonly options: TelegramAdapterOptions, private readonly ctx: AdapterContext) {
    if (options.token === '') throw new RangeError('the Telegram bot token is empty');
    if ((options.mode ?? 'polling') === 'webhook' && options.webhook === undefined) throw new RangeError('Telegram webhook mode needs the webhook options');
    // setWebhook refuses any other secret with a 400; saying so here names the setting to fix.
    const secret = options.webhook?.secret;
    if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret)) {
      throw new RangeError('the Telegram webhook secret must be 1 to 256 characters of A-Z, a-z, 0-9, _ and -');
    }
    this.token = options.token;
    this.apiRoot = (options.apiRoot ?? 'https://api.telegram.org').replace(/\/+$/, '');
    this.pollTimeoutS = options.pollTimeoutS ?? 30;
    this.maxHandlerAttempts = options.maxHandlerAttempts ?? 5;
    this.bot = new Bot(this.token, { client: { apiRoot: this.apiRoot } });
  }

  async connect(handlers: AdapterHandlers): Promise<void> {
    if (this.loop !== undefined) throw new Error('the Telegram adapter is already connected');
    this.handlers = handlers;
    this.cursor = this.readCursor();
    const abort = new AbortController();
    this.abort = abort;
    this.setState({ state: 'connecting' });
    await new Promise<void>((ready) => {
      this.loop = this.run(abort.signal, ready).catch((err: unknown) => {
        // run() handles the Bot API's failures itself; what lands here is a bug or a broken cursor store.
        this.setState({ state: 'failed', reason: redact(err instanceof Error ? err.message : String(err), this.token) });
        ready();
      });
    });
  }

  async disconnect(): Promise<void> {
    this.abort?.abort();
    await this.loop;
    await this.server?.close();
    this.server = undefined;
    this.webhookSecret = '';
    this.loop = undefined;
    this.abort = undefined;
    if (this.state.state !== 'stopped') this.setState({ state: 'stopped' });
  }

  async send(message: OutgoingMessage): Promise<{ messageId: string }> {
    if (message.text.trim() === '') throw new TelegramApiError('sendMessage', 'Telegram does not send an empty message');
    // The gateway splits long answers itself; this is the guard for a caller that did not.
    const parts = splitMessage(message.text, MAX_MESSAGE_CHARS);
    const chat = chatRef(message.chatId);
    const keyboard = message.actions !== undefined && message.actions.length > 0 ? inlineKeyboard(message.actions) : undefined;
    let last: { chat: { id: number }; message_id: number } | undefined;
    for (const [i, part] of parts.entries()) {
      const replyTo = i === 0 && message.replyTo !== undefined ? requireMessageId(message.replyTo) : undefined;
      last = await this.call('sendMessage', () => this.bot.api.sendMessage(chat, part, {
        ...threadParams(message.threadId),
        ...(replyTo === undefined ? {} : { reply_parameters: { message_id: replyTo, allow_sending_without_reply: true } }),
        // Buttons go under the last part, where the reader ends up.
        ...(keyboard !== undefined && i === parts.length - 1 ? { reply_markup: keyboard } : {}),
      }));
    }
    if (last === undefined) throw new TelegramApiError('sendMessage', 'nothing was sent');
    return { messageId: messageRef(last.chat.id, last.message_id) };
  }

  async edit(chatId: string, messageId: string, text: string, actions?: readonly ChatAction[]): Promise<void> {
    if (text.length > MAX_MESSAGE_CHARS) {
      throw new TelegramApiError('editMessageText', `an edit of ${text.length} characters does not fit one Telegram message (${MAX_MESSAGE_CHARS}); split it before editing`);
    }
    try {
      await this.call('editMessageText', () => this.bot.api.editMessageText(chatRef(chatId), requireMessageId(messageId), text, {
        ...(actions !== undefined && actions.length > 0 ? { reply_markup: inlineKeyboard(actions) } : {}),
      }));
    } catch (err) {
      // A streaming answer whose last edit repeats the text: Telegram says so with a 400, and nothing is wrong.
      if (err instanceof TelegramApiError && err.status === 400 && /message is not modified/i.test(err.message)) return;
      throw err;
    }
  }

  async sendFile(file: OutgoingFile): Promise<{ messageId: string }> {
    const info = await stat(file.path).catch((err: unknown) => {
      throw new TelegramApiError('sendDocument', `cannot send ${file.path}: ${err instanceof Error ? err.message : String(err)}`);
    });
    if (!info.isFile()) throw new TelegramApiError('sendDocument', `cannot send ${file.path}: not a file`);
    const caption = file.caption ?? '';
    const captionFits = caption.length <= MAX_CAPTION_CHARS;
    const sent = await this.call('sendDocument', () => this.bot.api.sendDocument(chatRef(file.chatId), new InputFile(file.path), {
      ...threadParams(file.threadId),
      ...(caption !== '' && captionFits ? { caption } : {}),
    }));
    // A caption too long for Telegram's 1,024 characters follows as its own message rather than being cut.
    if (caption !== '' && !captionFits) await this.send({ chatId: file.chatId, ...(file.threadId === undefined ? {} : { threadId: file.threadId }), text: caption });
    return { messageId: messageRef(sent.chat.id, sent.message_id) };
  }

  async download(attachment: Attachment, destination: string): Promise<void> {
    const file = await this.call('getFile', () => this.bot.api.getFile(attachment.platformId));
    if (file.file_path === undefined) throw new TelegramApiError('getFile', `Telegram has no downloadable copy of file ${attachment.platformId}`);
    const url = `${this.apiRoot}/file/bot${this.token}/${file.file_path}`;
    let response: Response;
    try {
      response = await fetch(url);
    } catch (err) {
      throw toTelegramApiError('download', err, this.token);
    }
    if (!response.ok || response.body === null) {
      throw new TelegramApiError('download', `Telegram answered ${response.status} to the download of file ${attachment.platformId}`, response.status);
    }
    // Into a side file first, so a failed transfer never leaves a truncated file under the real name.
    const partial = `${destination}.part-${randomBytes(4).toString('hex')}`;
    try {
      await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(partial, { mode: 0o600 }));
      await rename(partial, destination);
    } catch (err) {
      await unlink(partial).catch(() => undefined);
      throw toTelegramApiError('download', err, this.token);
    }
  }

  async typing(chatId: string, threadId?: string): Promise<void> {
    await this.call('sendChatAction', () => this.bot.api.sendChatAction(chatRef(chatId), 'typing', threadParams(threadId)));
  }

  // ---- receiving -------------------------------------------------------------------------------------------

  private async run(signal: AbortSignal, ready: () => void): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.setUp(signal);
        break;
      } catch (err) {
        if (signal.aborted) return ready();
        if (!(await this.recover(classifyFailure(err, this.token), attempt, signal))) return ready();
      }
    }
    this.setState({ state: 'connected', since: Date.now(), ...(this.identity === undefined ? {} : { account: this.identity.username }) });
    ready();
    if ((this.options.mode ?? 'polling') === 'polling') await this.poll(signal);
  }

  /** `getMe` for the bot's name, then the receiving side: no webhook (polling), or the endpoint and `setWebhook`. */
  private async setUp(signal: AbortSignal): Promise<void> {
    const me = await this.bot.api.getMe(sdkSignal(signal));
    this.identity = { id: me.id, username: me.username };
    const webhook = this.options.webhook;
    if ((this.options.mode ?? 'polling') === 'polling' || webhook === undefined) {
      // getUpdates answers 409 while a webhook is set; deleting it keeps the updates Telegram holds.
      await this.bot.api.deleteWebhook({ drop_pending_updates: false }, sdkSignal(signal));
      return;
    }
    // Once per connect: the endpoint checks the secret it was started with, also across setWebhook retries.
    if (this.webhookSecret === '') this.webhookSecret = webhook.secret ?? randomBytes(32).toString('base64url');
    this.server ??= await startWebhookServer(
      { port: webhook.port, path: webhook.path ?? '/telegram/webhook', secret: this.webhookSecret },
      (raw) => this.onWebhookUpdate(raw),
      (message) => this.ctx.warn(message),
    );
    await this.bot.api.setWebhook(webhook.url, {
      secret_token: this.webhookSecret,
      allowed_updates: [...ALLOWED_UPDATES],
      // One delivery at a time keeps the updates in order, which the offset check relies on.
      max_connections: 1,
      drop_pending_updates: false,
    }, sdkSignal(signal));
  }

  /** The webhook server's port (tests, and the log line of `hearth gateway`). */
  get webhookPort(): number | undefined {
    return this.server?.port;
  }

  private async poll(signal: AbortSignal): Promise<void> {
    let attempt = 0;
    while (!signal.aborted) {
      // After a failure, a poll that answers at once tells sooner that the server is back.
      const timeout = attempt > 0 ? 0 : this.pollTimeoutS;
      let updates: unknown[];
      try {
        const offset = this.freshOffset();
        updates = await this.bot.api.getUpdates(
          { ...(offset === undefined ? {} : { offset }), timeout, allowed_updates: [...ALLOWED_UPDATES] },
          // A long poll that outlives its timeout by far is a dead connection, not a quiet chat.
          sdkSignal(AbortSignal.any([signal, AbortSignal.timeout((timeout + 15) * 1000)])),
        );
      } catch (err) {
        if (signal.aborted) return;
        attempt += 1;
        if (!(await this.recover(classifyFailure(err, this.token), attempt, signal))) return;
        continue;
      }
      if (attempt > 0) {
        attempt = 0;
        this.setState({ state: 'connected', since: Date.now(), ...(this.identity === undefined ? {} : { account: this.identity.username }) });
      }
      for (const raw of updates) {
        if (signal.aborted) return;
        const failures = await this.handleOnce(raw);
        if (failures > 0) {
          // The offset stays, so the same update comes again after a pause; the connection itself is fine.
          await sleep(backoffDelay(failures, this.options.backoff), undefined, { signal }).catch(() => undefined);
          break;
        }
      }
    }
  }

  /**
   * A failed call: stop for good (bad token, a request Telegram refuses) or report `retrying` and wait. Returns
   * whether to try again.
   */
  private async recover(verdict: FailureVerdict, attempt: number, signal: AbortSignal): Promise<boolean> {
    if (verdict.kind === 'bad_token') {
      this.setState({ state: 'bad_token', reason: verdict.reason });
      return false;
    }
    if (verdict.kind === 'fatal') {
      this.setState({ state: 'failed', reason: verdict.reason });
      return false;
    }
    const wait = verdict.retryAfterMs ?? backoffDelay(attempt, this.options.backoff);
    this.setState({ state: 'retrying', attempt, nextRetryAt: Date.now() + wait, reason: verdict.reason });
    try {
      await sleep(wait, undefined, { signal });
      return true;
    } catch {
      return false; // disconnect() during the wait
    }
  }

  private async onWebhookUpdate(raw: unknown): Promise<WebhookVerdict> {
    const turn = this.webhookChain.then(async () => ((await this.handleOnce(raw)) === 0 ? 'handled' as const : 'retry' as const));
    // The chain only orders the updates; each request still sees its own outcome through `turn`.
    this.webhookChain = turn.catch(() => undefined);
    return turn;
  }

  /**
   * Hands one update to the gateway and, once that resolved, stores the offset past it. Returns 0 when the update
   * is done with (handled, skipped, or given up on with a warning) and the number of failures so far when the
   * handler failed and the update should come again.
   */
  private async handleOnce(raw: unknown): Promise<number> {
    const handlers = this.handlers;
    const bot = this.identity;
    if (handlers === undefined || bot === undefined) return 1;
    const id = updateId(raw);
    const offset = this.freshOffset();
    if (id !== undefined && offset !== undefined && id < offset) return 0; // delivered again, already handled
    const update = normalizeUpdate(raw, bot);
    try {
      if (update.kind === 'message') await handlers.onMessage(update.event);
      else if (update.kind === 'action') {
        await handlers.onAction(update.event);
        await this.answerButton(update.callbackQueryId);
      } else {
        if (update.warn) this.ctx.warn(`telegram: skipped update ${id ?? '(no id)'}: ${update.reason}`);
        if (update.callbackQueryId !== undefined) await this.answerButton(update.callbackQueryId, 'Hearth cannot handle this button.');
      }
    } catch (err) {
      const failures = (id === undefined ? 0 : (this.failures.get(id) ?? 0)) + 1;
      const why = redact(err instanceof Error ? err.message : String(err), this.token);
      if (id === undefined || failures >= this.maxHandlerAttempts) {
        this.ctx.warn(`telegram: gave up on update ${id ?? '(no id)'} after ${failures} failed attempt(s): ${why}`);
        if (update.kind === 'action') await this.answerButton(update.callbackQueryId, 'Hearth could not handle this button.');
      } else {
        this.failures.set(id, failures);
        this.ctx.warn(`telegram: handling update ${id} failed (attempt ${failures} of ${this.maxHandlerAttempts}), it comes again: ${why}`);
        return failures;
      }
    }
    if (id !== undefined) {
      this.failures.delete(id);
      this.storeOffset(id + 1);
    }
    return 0;
  }

  /** Stops the spinner on the pressed button; a failure here must not make the press count as unhandled. */
  private async answerButton(callbackQueryId: string, text?: string): Promise<void> {
    try {
      await this.call('answerCallbackQuery', () => this.bot.api.answerCallbackQuery(callbackQueryId, text === undefined ? {} : { text }));
    } catch (err) {
      this.ctx.warn(`telegram: could not answer button press ${callbackQueryId}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private readCursor(): { offset: number; at: number } | undefined {
    const stored = this.ctx.cursor.get(OFFSET_KEY);
    if (stored === undefined) return undefined;
    try {
      const value = JSON.parse(stored) as { offset?: unknown; at?: unknown };
      if (typeof value.offset === 'number' && Number.isSafeInteger(value.offset) && typeof value.at === 'number') return { offset: value.offset, at: value.at };
    } catch {
      // reported below
    }
    this.ctx.warn('telegram: the stored update offset is unreadable; starting from the updates Telegram still holds');
    return undefined;
  }

  private freshOffset(): number | undefined {
    return this.cursor !== undefined && Date.now() - this.cursor.at < OFFSET_TTL_MS ? this.cursor.offset : undefined;
  }

  private storeOffset(offset: number): void {
    if (this.freshOffset() !== undefined && this.cursor !== undefined && offset <= this.cursor.offset) return;
    this.cursor = { offset, at: Date.now() };
    this.ctx.cursor.set(OFFSET_KEY, JSON.stringify(this.cursor));
  }

  /** One outgoing Bot API call; a 429 is waited out (up to a minute) and tried again, other failures are typed errors. */
  private async call<T>(method: string, fn: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        const retryAfter = err instanceof GrammyError && err.error_code === 429 ? err.parameters.retry_after : undefined;
        if (retryAfter === undefined || retryAfter > MAX_SEND_RETRY_AFTER_S || attempt >= 3) throw toTelegramApiError(method, err, this.token);
        await sleep(retryAfter * 1000);
      }
    }
  }

  private setState(state: AdapterState): void {
    this.state = state;
    this.handlers?.onState(state);
  }
}
