import { readFile, stat, writeFile } from 'node:fs/promises';
import { basename, extname, resolve as resolvePath } from 'node:path';
import type { z } from 'zod';
import type { GatewaySection } from '../../config/schema-gateway.js';
import { HearthError } from '../../errors.js';
import type { AdapterContext, AdapterHandlers, AdapterState, Attachment, ChatAction, OutgoingFile, OutgoingMessage, PlatformAdapter, PlatformLimits } from '../types.js';
import { backoffDelay, sleep } from './retry-backoff.js';
import { GraphApiError, GraphClient } from './whatsapp-graph.js';
import { normalizeWhatsAppPayload } from './whatsapp-updates.js';
import { startWebhookServer, type WebhookServer } from './whatsapp-webhook.js';

/**
 * WhatsApp through the official Cloud API: webhooks in (whatsapp-webhook.ts, signature-checked), the Graph API out
 * (whatsapp-graph.ts). Meta retries a webhook it got no 200 for, with the same wamid: the wamid is the message id,
 * so the gateway drops the repeat. Business messages cannot be edited (`canEdit: false`); approvals get reply
 * buttons (at most 3, titles ≤ 20 characters) or, with 4–10 choices, a list message.
 *
 * Not here: the personal-account route (Baileys, QR linking) — Baileys is not a dependency of Hearth.
 */

export interface WhatsAppAdapterOptions {
  token: string;
  appSecret: string;
  verifyToken: string;
  phoneNumberId: string;
  graphApiRoot: string;
  graphApiVersion: string;
  webhook: { port: number; path: string };
  /** Backoff of the token check while the Graph API cannot be reached (default 1 s to 60 s). */
  retry?: { baseMs?: number; maxMs?: number };
}

export interface WhatsAppAdapter extends PlatformAdapter {
  /** The port the webhook listens on (config `webhook.port`; the one the OS picked for port 0). */
  readonly webhookPort: number | undefined;
}

type WhatsAppConfig = NonNullable<z.infer<typeof GatewaySection>['whatsapp']>;

/** The adapter's options from `gateway.whatsapp` and the environment variables it names. */
export function whatsAppOptionsFromConfig(section: WhatsAppConfig, env: NodeJS.ProcessEnv = process.env): WhatsAppAdapterOptions {
  const secret = (key: 'token_env' | 'app_secret_env' | 'verify_token_env', what: string): string => {
    const name = section[key];
    if (name === undefined) throw new HearthError('config_invalid', `gateway.whatsapp.${key} is not set: name the environment variable that holds the ${what}`, { details: { key: `gateway.whatsapp.${key}` } });
    const value = env[name];
    if (value === undefined || value === '') throw new HearthError('config_invalid', `gateway.whatsapp.${key} names ${name}, which is not set: export the ${what} in it`, { details: { key: `gateway.whatsapp.${key}` } });
    return value;
  };
  if (section.phone_number_id === undefined) {
    throw new HearthError('config_invalid', 'gateway.whatsapp.phone_number_id is not set: copy the phone number id from the app\'s WhatsApp › API setup page', { details: { key: 'gateway.whatsapp.phone_number_id' } });
  }
  return {
    token: secret('token_env', 'Graph API access token'),
    appSecret: secret('app_secret_env', 'Meta app secret'),
    verifyToken: secret('verify_token_env', 'webhook verify token'),
    phoneNumberId: section.phone_number_id,
    graphApiRoot: section.graph_api_root,
    graphApiVersion: section.graph_api_version,
    webhook: { port: section.webhook.port, path: section.webhook.path },
  };
}

const WHATSAPP_LIMITS: PlatformLimits = { maxMessageChars: 4096, canEdit: false, minEditIntervalMs: 0, hasButtons: true };
/** Cloud API limits for interactive messages. */
const BODY_MAX = 1024;
const BUTTONS_MAX = 3;
const BUTTON_TITLE_MAX = 20;
const LIST_ROWS_MAX = 10;
const ROW_TITLE_MAX = 24;
/** Documents may be up to 100 MB. */
const DOCUMENT_MAX_BYTES = 100 * 1024 * 1024;
/** Button presses the adapter remembers, so a webhook Meta sends again does not answer an approval twice. */
const SEEN_ACTIONS_MAX = 1000;

const MIME_BY_EXTENSION: Record<string, string> = {
  '.pdf': 'application/pdf', '.txt': 'text/plain', '.md': 'text/plain', '.csv': 'text/csv', '.json': 'application/json',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.zip': 'application/zip',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export function createWhatsAppAdapter(options: WhatsAppAdapterOptions, ctx: AdapterContext): WhatsAppAdapter {
  return new CloudApiAdapter(options, ctx);
}

class CloudApiAdapter implements WhatsAppAdapter {
  readonly platform = 'whatsapp' as const;
  readonly limits = WHATSAPP_LIMITS;
  private readonly graph: GraphClient;
  private handlers: AdapterHandlers | undefined;
  private server: WebhookServer | undefined;
  private stop: AbortController | undefined;
  private checking: Promise<void> | undefined;
  private readonly seenActions = new Set<string>();
  /** The last message each chat sent: typing indicators are sent "in reply" to one. */
  private readonly lastIncoming = new Map<string, string>();

  constructor(private readonly options: WhatsAppAdapterOptions, private readonly ctx: AdapterContext) {
    this.graph = new GraphClient({ root: options.graphApiRoot, version: options.graphApiVersion, token: options.token, phoneNumberId: options.phoneNumberId });
  }

  get webhookPort(): number | undefined {
    return this.server?.port;
  }

  /** Starts the webhook, then checks the token: resolves connected, bad_token, or retrying (it keeps checking). */
  async connect(handlers: AdapterHandlers): Promise<void> {
    if (this.server !== undefined) throw new Error('the WhatsApp adapter is already connected');
    this.handlers = handlers;
    this.stop = new AbortController();
    handlers.onState({ state: 'connecting' });
    try {
      this.server = await startWebhookServer({
        port: this.options.webhook.port,
        path: this.options.webhook.path,
        appSecret: this.options.appSecret,
        verifyToken: this.options.verifyToken,
        onPayload: (raw) => this.onPayload(raw),
        warn: (m) => this.ctx.warn(m),
      });
    } catch (err) {
      handlers.onState({ state: 'failed', reason: `the WhatsApp webhook cannot listen on 127.0.0.1:${this.options.webhook.port}: ${err instanceof Error ? err.message : String(err)}` });
      return;
    }
    let settle: () => void = () => undefined;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    this.checking = this.checkToken(this.stop.signal, settle);
    await settled;
  }

  async disconnect(): Promise<void> {
    this.stop?.abort();
    await this.checking;
    await this.server?.close();
    this.server = undefined;
    this.checking = undefined;
    if (this.handlers !== undefined) this.handlers.onState({ state: 'stopped' });
  }

  async send(message: OutgoingMessage): Promise<{ messageId: string }> {
    if (message.text.length > WHATSAPP_LIMITS.maxMessageChars) {
      throw new GraphApiError(`a WhatsApp message may hold ${WHATSAPP_LIMITS.maxMessageChars} characters; this one has ${message.text.length} (split it first)`);
    }
    const base = { recipient_type: 'individual', to: message.chatId, ...(message.replyTo === undefined ? {} : { context: { message_id: message.replyTo } }) };
    const actions = message.actions ?? [];
    if (actions.length === 0) return { messageId: await this.call(() => this.graph.sendMessage({ ...base, type: 'text', text: { body: message.text, preview_url: false } })) };
    let body = message.text;
    if (body.length > BODY_MAX || body.trim() === '') {
      // Interactive bodies are shorter than texts: the text goes first, the buttons under a short line.
      if (body.trim() !== '') await this.call(() => this.graph.sendMessage({ ...base, type: 'text', text: { body, preview_url: false } }));
      body = 'Choose:';
    }
    return { messageId: await this.call(() => this.graph.sendMessage({ ...base, type: 'interactive', interactive: this.interactive(body, actions) })) };
  }

  async edit(_chatId: string, _messageId: string, _text: string, _actions?: readonly ChatAction[]): Promise<void> {
    throw new GraphApiError('WhatsApp business messages cannot be edited (limits.canEdit is false): send a new message');
  }

  async sendFile(file: OutgoingFile): Promise<{ messageId: string }> {
    const path = resolvePath(file.path);
    const info = await stat(path).catch((err: unknown) => {
      throw new GraphApiError(`cannot send ${path} on WhatsApp: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    });
    if (!info.isFile()) throw new GraphApiError(`cannot send ${path} on WhatsApp: not a file`);
    if (info.size > DOCUMENT_MAX_BYTES) throw new GraphApiError(`cannot send ${path} on WhatsApp: ${info.size} bytes, over the 100 MB document limit`);
    const mimeType = MIME_BY_EXTENSION[extname(path).toLowerCase()] ?? 'application/octet-stream';
    const bytes = await readFile(path);
    const mediaId = await this.call(() => this.graph.uploadMedia(bytes, mimeType, basename(path)));
    const caption = file.caption === undefined ? {} : { caption: file.caption };
    const media = mimeType === 'image/png' || mimeType === 'image/jpeg'
      ? { type: 'image', image: { id: mediaId, ...caption } }
      : { type: 'document', document: { id: mediaId, filename: basename(path), ...caption } };
    return { messageId: await this.call(() => this.graph.sendMessage({ recipient_type: 'individual', to: file.chatId, ...media })) };
  }

  async download(attachment: Attachment, destination: string): Promise<void> {
    const { bytes } = await this.call(() => this.graph.downloadMedia(attachment.platformId));
    await writeFile(destination, bytes, { mode: 0o600 });
  }

  /** Marks the chat's last message read and shows "typing…"; with no message from the chat yet there is nothing to show it under. */
  async typing(chatId: string): Promise<void> {
    const last = this.lastIncoming.get(chatId);
    if (last !== undefined) await this.call(() => this.graph.markRead(last, true));
  }

  /** Buttons for up to 3 choices, a list for up to 10; more than 10 keeps the first 10 and says so. */
  private interactive(body: string, actions: readonly ChatAction[]): Record<string, unknown> {
    if (actions.length <= BUTTONS_MAX) {
      return { type: 'button', body: { text: body }, action: { buttons: actions.map((a) => ({ type: 'reply', reply: { id: a.id, title: clip(a.label, BUTTON_TITLE_MAX) } })) } };
    }
    if (actions.length > LIST_ROWS_MAX) this.ctx.warn(`whatsapp: a list message holds ${LIST_ROWS_MAX} choices; ${actions.length - LIST_ROWS_MAX} of ${actions.length} left out`);
    const rows = actions.slice(0, LIST_ROWS_MAX).map((a) => ({ id: a.id, title: clip(a.label, ROW_TITLE_MAX), ...(a.label.length > ROW_TITLE_MAX ? { description: clip(a.label, 72) } : {}) }));
    return { type: 'list', body: { text: body }, action: { button: 'Choose', sections: [{ title: 'Choices', rows }] } };
  }

  /** A Graph call; a refused token also turns the state to bad_token. */
  private async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (err instanceof GraphApiError && err.badToken) this.handlers?.onState({ state: 'bad_token', reason: err.message });
      throw err;
    }
  }

  private async checkToken(signal: AbortSignal, settle: () => void): Promise<void> {
    for (let attempt = 1; !signal.aborted; attempt += 1) {
      let state: AdapterState;
      try {
        const phone = await this.graph.phoneNumber();
        state = { state: 'connected', since: Date.now(), ...(phone.displayPhoneNumber ? { account: phone.displayPhoneNumber } : {}) };
      } catch (err) {
        if (signal.aborted) break;
        if (err instanceof GraphApiError && err.badToken) state = { state: 'bad_token', reason: err.message };
        else {
          const delay = backoffDelay(attempt, this.options.retry);
          this.handlers?.onState({ state: 'retrying', attempt, nextRetryAt: Date.now() + delay, reason: err instanceof Error ? err.message : String(err) });
          settle();
          await sleep(delay, signal);
          continue;
        }
      }
      this.handlers?.onState(state);
      break;
    }
    settle();
  }

  private async onPayload(raw: Buffer): Promise<void> {
    const batch = normalizeWhatsAppPayload(raw, this.options.phoneNumberId);
    for (const reason of batch.skipped) this.ctx.warn(`whatsapp: skipped ${reason}`);
    if (this.handlers === undefined) throw new Error('the adapter is not connected');
    for (const update of batch.updates) {
      if (update.kind === 'message') {
        await this.handlers.onMessage(update.event);
        this.lastIncoming.set(update.event.chat.id, update.event.messageId);
        continue;
      }
      if (this.seenActions.has(update.wamid)) continue;
      await this.handlers.onAction(update.event);
      this.remember(update.wamid);
      this.lastIncoming.set(update.event.chat.id, update.wamid);
    }
  }

  private remember(wamid: string): void {
    this.seenActions.add(wamid);
    if (this.seenActions.size > SEEN_ACTIONS_MAX) this.seenActions.delete(this.seenActions.values().next().value as string);
  }
}

const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
