import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, SocketModeReceiver, webApi, type Logger } from '@slack/bolt';
import { errorMessage } from '../../errors.js';
import type {
  ActionEvent, AdapterContext, AdapterHandlers, AdapterState, Attachment, ChatAction, OutgoingFile, OutgoingMessage,
  PlatformAdapter, PlatformLimits,
} from '../types.js';
import { normalizeSlackActions, normalizeSlackCommand, normalizeSlackMessage, slackMessageId, type SlackFileRef, type SlackIdentity } from './slack-events.js';
import { boltLogger, redact } from './slack-log.js';
import { SlackOutbox } from './slack-outbox.js';

/**
 * Slack (issue 13) on @slack/bolt: Socket Mode (an outgoing WebSocket opened with `apps.connections.open`; no port
 * to expose) or the Events API over HTTP with Bolt's signature check. The gateway sees `MessageEvent`s whose id is
 * `channel:ts`, so a delivery Slack repeats (an envelope whose ack was lost, `X-Slack-Retry-Num`) is one message.
 *
 * Connection states are this adapter's own, not Bolt's: the Socket Mode client runs with its reconnect turned
 * off, and every (re)connect is `auth.test` with the bot token, then the socket. A refused token
 * (`invalid_auth`, `not_authed`, …) is `bad_token` and stops; anything else is `retrying` with backoff.
 */
export interface SlackAdapterOptions {
  mode: 'socket' | 'events';
  /** xoxb-…: every Web API call. */
  botToken: string;
  /** xapp-…: Socket Mode's `apps.connections.open`. */
  appToken?: string;
  /** Events API mode: checks each request's `X-Slack-Signature`. */
  signingSecret?: string;
  /** The Web API root, default https://slack.com/api. */
  apiUrl?: string;
  /** Events API mode: where to listen (always a loopback host). */
  events?: { port: number; path: string; host?: string };
  /** Reconnect delays: the first retry waits `initialMs`, doubling up to `maxMs` (default 1 s … 60 s). */
  backoff?: { initialMs: number; maxMs: number };
  /** Socket Mode keep-alive: how long a ping to Slack may wait for its pong (default 5 s). */
  pingTimeoutMs?: number;
}

export interface SlackAdapter extends PlatformAdapter {
  /** Events API mode, once listening: the URL Slack (or a tunnel) posts to. */
  readonly eventsUrl: string | undefined;
}

/**
 * Slack's hard limit is 40,000 characters, but it advises keeping a message under 4,000 for readability, and
 * escaping (`<` → `&lt;`) lengthens the text: the gateway splits at 3,900. Edits: Slack allows about one
 * message write per second per channel, so a streaming answer grows at most every 1.2 s.
 */
export const SLACK_LIMITS: PlatformLimits = { maxMessageChars: 3900, canEdit: true, minEditIntervalMs: 1200, hasButtons: true };

/** Slack errors that mean the credential itself is refused: retrying cannot help. */
const AUTH_ERRORS = new Set(['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired', 'team_disabled', 'user_removed_from_team', 'not_allowed_token_type']);
const RECENT_IDS = 2000;

export function createSlackAdapter(options: SlackAdapterOptions, ctx: AdapterContext): SlackAdapter {
  return new SlackBoltAdapter(options, ctx);
}

class SlackBoltAdapter implements SlackAdapter {
  readonly platform = 'slack' as const;
  readonly limits = SLACK_LIMITS;
  private readonly apiUrl: string;
  private readonly web: webApi.WebClient;
  private readonly outbox: SlackOutbox;
  private readonly logger: Logger;
  private handlers: AdapterHandlers | undefined;
  private identity: SlackIdentity | undefined;
  private app: App | undefined;
  private socket: SocketModeReceiver | undefined;
  private http: HTTPReceiver | undefined;
  private listening: AddressInfo | undefined;
  private state: AdapterState = { state: 'stopped' };
  private stopping = false;
  /** True between a hello and the socket closing: a close then is a drop to recover from, not a failed attempt. */
  private live = false;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private lastDropReason: string | undefined;
  private settleConnect: (() => void) | undefined;
  /** Message ids handed to the gateway (or being handed): Slack's repeats and the app_mention twin of a message are dropped here. */
  private readonly recent = new Set<string>();
  private readonly userNames = new Map<string, Promise<string | undefined>>();
  private namesAllowed = true;
  private readonly redactSecrets: (text: string) => string;

  private readonly warn: (message: string) => void;

  constructor(private readonly options: SlackAdapterOptions, ctx: AdapterContext) {
    if (options.mode === 'socket' && !options.appToken) throw new Error('Slack Socket Mode needs an app-level token (xapp-…, scope connections:write)');
    if (options.mode === 'events' && !options.signingSecret) throw new Error('Slack Events API mode needs the app\'s signing secret');
    this.apiUrl = withSlash(options.apiUrl ?? 'https://slack.com/api/');
    const secrets = [options.botToken, options.appToken, options.signingSecret].filter((v): v is string => v !== undefined && v !== '');
    // Every line this adapter (or Bolt inside it) logs passes here: no token, secret or Socket Mode ticket leaves.
    this.warn = (message) => ctx.warn(redact(message, secrets));
    this.logger = boltLogger(this.warn);
    // Own retries are the adapter's backoff; Web API calls retry twice on network errors, then fail to the caller.
    this.web = new webApi.WebClient(options.botToken, {
      slackApiUrl: this.apiUrl, logger: this.logger, timeout: 30_000, retryConfig: { retries: 2, factor: 2, minTimeout: 250 },
    });
    this.outbox = new SlackOutbox(this.web, options.botToken, this.apiUrl, ctx.cursor, this.warn);
    this.redactSecrets = (text) => redact(text, secrets);
  }

  get eventsUrl(): string | undefined {
    if (this.listening === undefined) return undefined;
    return `http://127.0.0.1:${this.listening.port}${this.options.events?.path ?? '/slack/events'}`;
  }

  connect(handlers: AdapterHandlers): Promise<void> {
    this.handlers = handlers;
    this.stopping = false;
    this.attempt = 0;
    this.setState({ state: 'connecting' });
    return new Promise((resolve) => {
      this.settleConnect = resolve;
      void this.tryConnect();
    });
  }

  async disconnect(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.retryTimer);
    this.live = false;
    try {
      if (this.socket !== undefined) await this.socket.client.disconnect();
      if (this.http !== undefined && this.listening !== undefined) await this.http.stop();
    } finally {
      this.listening = undefined;
      this.setState({ state: 'stopped' });
      this.settle();
    }
  }

  send(message: OutgoingMessage): Promise<{ messageId: string }> {
    return this.outbox.send(message);
  }

  edit(chatId: string, messageId: string, text: string, actions?: readonly ChatAction[]): Promise<void> {
    return this.outbox.edit(chatId, messageId, text, actions);
  }

  sendFile(file: OutgoingFile): Promise<{ messageId: string }> {
    return this.outbox.sendFile(file);
  }

  download(attachment: Attachment, destination: string): Promise<void> {
    return this.outbox.download(attachment, destination);
  }

  /**
   * Slack has no typing indicator for bots: the RTM `user_typing` call does not exist in Socket Mode or the Web
   * API. Nothing is sent; the gateway's streamed first message is what shows the agent is working.
   */
  async typing(): Promise<void> {}

  // ── connection ──────────────────────────────────────────────────────────────────────────────────────────────

  private async tryConnect(): Promise<void> {
    // Which token a refusal is about: auth.test checks the bot token, apps.connections.open the app-level one.
    let token = 'bot token (xoxb-…)';
    try {
      const auth = await this.web.auth.test();
      if (this.stopping) return;
      if (!auth.user_id) throw new Error('auth.test named no bot user');
      this.identity = { botUserId: auth.user_id, ...(auth.bot_id ? { botId: auth.bot_id } : {}), botThreads: this.outbox.botThreads };
      this.ensureApp(auth.user_id, auth.bot_id);
      token = 'app-level token (xapp-…)';
      if (this.socket !== undefined) await this.socket.client.start();
      else await this.listen();
      if (this.stopping) return;
      this.attempt = 0;
      this.live = true;
      this.lastDropReason = undefined;
      this.setState({ state: 'connected', since: Date.now(), ...(auth.team ? { account: `${auth.user ?? auth.user_id}@${auth.team}` } : {}) });
      this.settle();
    } catch (err) {
      if (this.stopping) return;
      const slackError = platformErrorOf(err);
      if (slackError !== undefined && AUTH_ERRORS.has(slackError)) {
        this.setState({ state: 'bad_token', reason: `Slack refused the ${token} (${slackError}): check the token and its app's installation` });
        this.settle();
        return;
      }
      this.scheduleRetry(this.redactSecrets(this.lastDropReason ?? errorMessage(err)));
    }
  }

  private scheduleRetry(reason: string): void {
    this.attempt += 1;
    const { initialMs, maxMs } = this.options.backoff ?? { initialMs: 1000, maxMs: 60_000 };
    const base = Math.min(maxMs, initialMs * 2 ** (this.attempt - 1));
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.setState({ state: 'retrying', attempt: this.attempt, nextRetryAt: Date.now() + delay, reason });
    this.retryTimer = setTimeout(() => void this.tryConnect(), delay);
  }

  private onSocketClosed(): void {
    if (!this.live || this.stopping) return;
    this.live = false;
    this.scheduleRetry(this.lastDropReason ?? 'the Socket Mode connection closed');
  }

  private async listen(): Promise<void> {
    if (this.http === undefined || this.listening !== undefined) return;
    const events = this.options.events ?? { port: 3000, path: '/slack/events' };
    // Loopback only: a tunnel or reverse proxy forwards Slack's HTTPS here; nothing listens on a public address.
    const server = await this.http.start({ port: events.port, host: loopbackHost(events.host) });
    this.listening = server.address() as AddressInfo;
  }

  /** Bolt's App and receiver, built once the bot's identity is known (so Bolt needs no auth.test of its own). */
  private ensureApp(botUserId: string, botId: string | undefined): void {
    if (this.app !== undefined) return;
    const clientOptions = { slackApiUrl: this.apiUrl, logger: this.logger };
    let receiver: SocketModeReceiver | HTTPReceiver;
    if (this.options.mode === 'socket') {
      this.socket = new SocketModeReceiver({
        appToken: this.options.appToken as string,
        logger: this.logger,
        autoReconnectEnabled: false,
        clientPingTimeout: this.options.pingTimeoutMs ?? 5000,
        installerOptions: { clientOptions: { ...clientOptions, retryConfig: { retries: 0 } } },
      });
      this.socket.client.on('disconnected', () => this.onSocketClosed());
      this.socket.client.on('ws_message', (data: unknown) => this.noteDisconnectNotice(data));
      receiver = this.socket;
    } else {
      this.http = new HTTPReceiver({
        signingSecret: this.options.signingSecret as string,
        endpoints: [this.options.events?.path ?? '/slack/events'],
        logger: this.logger,
        // Acknowledge at once (Slack wants the 200 within 3 s); the gateway queues the message itself.
        processBeforeResponse: false,
      });
      receiver = this.http;
    }
    const app = new App({ receiver, token: this.options.botToken, botUserId, ...(botId ? { botId } : {}), logger: this.logger, clientOptions });
    app.event('message', async ({ event }) => this.onSlackMessage(event));
    app.event('app_mention', async ({ event }) => this.onSlackMessage(event));
    app.action(/.*/, async ({ ack, body }) => {
      await ack();
      await this.onSlackAction(body);
    });
    app.command(/.*/, async ({ ack, body }) => {
      await ack();
      await this.onSlackCommand(body);
    });
    app.error(async (err) => this.warn(`slack: an event handler failed: ${errorMessage(err)}`));
    this.app = app;
  }

  /** Slack's `disconnect` message says why the socket is about to close; kept for the retrying state. */
  private noteDisconnectNotice(data: unknown): void {
    if (typeof data !== 'string' || !data.includes('"disconnect"')) return;
    try {
      const parsed = JSON.parse(data) as { type?: string; reason?: string };
      if (parsed.type === 'disconnect') this.lastDropReason = `Slack asked to reconnect (${parsed.reason ?? 'no reason given'})`;
    } catch {
      // Not JSON: the Socket Mode client logs and ignores it too; there is nothing to note.
    }
  }

  // ── incoming ────────────────────────────────────────────────────────────────────────────────────────────────

  private async onSlackMessage(raw: unknown): Promise<void> {
    const handlers = this.handlers;
    const identity = this.identity;
    if (handlers === undefined || identity === undefined) return;
    let normalized;
    try {
      normalized = normalizeSlackMessage(raw, identity);
    } catch (err) {
      this.warn(`slack: skipped a malformed message event: ${errorMessage(err)}`);
      return;
    }
    if (normalized.kind === 'skip') {
      if (!normalized.quiet) this.warn(`slack: skipped an event: ${normalized.reason}`);
      return;
    }
    const { event, files } = normalized;
    if (!this.claim(event.messageId)) return;
    this.outbox.rememberFiles(files as SlackFileRef[]);
    const name = event.user.name ?? (event.user.isBot ? undefined : await this.userName(event.user.id));
    try {
      await handlers.onMessage(name === undefined ? event : { ...event, user: { ...event.user, name } });
    } catch (err) {
      // Let a repeat of this message through again: the gateway did not take it.
      this.recent.delete(event.messageId);
      this.warn(`slack: the gateway did not take message ${event.messageId}: ${errorMessage(err)}`);
    }
  }

  private async onSlackCommand(body: unknown): Promise<void> {
    const handlers = this.handlers;
    if (handlers === undefined) return;
    let event;
    try {
      event = normalizeSlackCommand(body, Date.now());
    } catch (err) {
      this.warn(`slack: skipped a malformed slash command: ${errorMessage(err)}`);
      return;
    }
    if (!this.claim(event.messageId)) return;
    try {
      await handlers.onMessage(event);
    } catch (err) {
      this.recent.delete(event.messageId);
      this.warn(`slack: the gateway did not take command ${event.text}: ${errorMessage(err)}`);
    }
  }

  private async onSlackAction(body: unknown): Promise<void> {
    const handlers = this.handlers;
    if (handlers === undefined) return;
    let actions: ActionEvent[];
    try {
      actions = normalizeSlackActions(body);
    } catch (err) {
      this.warn(`slack: skipped a malformed button press: ${errorMessage(err)}`);
      return;
    }
    for (const action of actions) {
      try {
        await handlers.onAction(action);
      } catch (err) {
        this.warn(`slack: the gateway did not take the press of ${action.actionId}: ${errorMessage(err)}`);
      }
    }
  }

  /** True the first time an id is seen; the oldest ids are forgotten past RECENT_IDS (the gateway's store dedupes for good). */
  private claim(messageId: string): boolean {
    if (this.recent.has(messageId)) return false;
    this.recent.add(messageId);
    if (this.recent.size > RECENT_IDS) this.recent.delete(this.recent.values().next().value as string);
    return true;
  }

  /** The sender's display name via users.info (scope users:read), cached; without the scope names are left out. */
  private userName(userId: string): Promise<string | undefined> {
    if (!this.namesAllowed) return Promise.resolve(undefined);
    // The lookup itself is cached, so messages arriving together ask once.
    const cached = this.userNames.get(userId);
    if (cached !== undefined) return cached;
    const lookup = this.lookUpUserName(userId);
    this.userNames.set(userId, lookup);
    if (this.userNames.size > RECENT_IDS) this.userNames.delete(this.userNames.keys().next().value as string);
    return lookup;
  }

  private async lookUpUserName(userId: string): Promise<string | undefined> {
    try {
      const info = await this.web.users.info({ user: userId });
      return info.user?.profile?.display_name || info.user?.real_name || info.user?.name || undefined;
    } catch (err) {
      const code = platformErrorOf(err);
      // Slack's answer (user_not_found, …) holds for this user; a network failure is asked again next time.
      if (code === undefined) this.userNames.delete(userId);
      if (code === 'missing_scope') {
        this.namesAllowed = false;
        this.warn('slack: the bot token lacks users:read, so messages carry user ids without names');
      } else {
        this.warn(`slack: users.info for ${userId} failed: ${errorMessage(err)}`);
      }
      return undefined;
    }
  }

  private setState(state: AdapterState): void {
    this.state = state;
    this.handlers?.onState(state);
  }

  private settle(): void {
    const settle = this.settleConnect;
    this.settleConnect = undefined;
    settle?.();
  }
}

/** The Slack error string of a Web API platform error (`invalid_auth`), else undefined. */
export function platformErrorOf(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, data } = err as { code?: unknown; data?: { error?: unknown } };
  return code === webApi.ErrorCode.PlatformError && typeof data?.error === 'string' ? data.error : undefined;
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

function loopbackHost(host: string | undefined): string {
  const chosen = host ?? '127.0.0.1';
  if (chosen !== '127.0.0.1' && chosen !== '::1' && chosen !== 'localhost') throw new Error(`the Slack Events API listener binds loopback only, not ${chosen}`);
  return chosen;
}

export { slackMessageId };
