import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import {
  Client, DiscordAPIError, Events, GatewayIntentBits, Partials, REST, Routes,
  type APIMessage, type ButtonInteraction, type ChatInputCommandInteraction, type Interaction,
} from 'discord.js';
import { errorMessage } from '../../errors.js';
import {
  MessageEvent, type ActionEvent, type AdapterContext, type AdapterHandlers, type AdapterState, type Attachment,
  type ChatAction, type OutgoingFile, type OutgoingMessage, type PlatformAdapter, type PlatformLimits,
} from '../types.js';
import { applicationCommands, DEFAULT_SLASH_COMMANDS, slashCommandText, type SlashCommand } from './discord-commands.js';
import { ChannelCursors } from './discord-cursor.js';
import { guardedStrategy } from './discord-guard.js';
import { normalizeDiscordMessage, parseAttachmentPlatformId, RawMessage } from './discord-message.js';
import { actionRows, DISCORD_MAX_CHARS, outgoingText } from './discord-outgoing.js';
import { closeCodeState } from './discord-close-codes.js';

/**
 * Discord through discord.js 14. The Client holds the Gateway WebSocket (IDENTIFY, heartbeats, RESUME with the
 * session id and sequence after a drop, replaying what was dispatched meanwhile); the adapter turns its
 * dispatches into the gateway's events and reports the connection's state. Outgoing calls go through a REST
 * client of the adapter's own, so replies still go out while the Gateway reconnects.
 *
 * Reconnects: discord.js resumes a dropped session by itself, retrying every half second. When that keeps
 * failing (Discord or the network is down: each failed try also costs discord.js the session), the adapter takes
 * over with exponential backoff and a fresh login, then fetches each known channel's history after its cursor
 * (`ChannelCursors`), as it does after a restart, so the messages sent while it was away are answered. The
 * gateway de-duplicates by message id, so the overlap between a replay and a catch-up is harmless.
 */

export interface DiscordAdapterOptions {
  /** The bot token, from `gateway.discord.token_env` or the keychain. Never logged. */
  token: string;
  /** The REST root without the version (`https://discord.com/api`); its `GET /gateway/bot` names the Gateway URL. */
  apiRoot?: string;
  /** Registered as slash commands on connect; `[]` registers none. Default: the gateway's chat commands. */
  slashCommands?: readonly SlashCommand[];
  /** Backoff of the logins the adapter runs itself: the first, and after discord.js's own resumes kept failing. */
  backoff?: { initialMs: number; maxMs: number };
  /** discord.js reconnect attempts in a row without success before the adapter takes over with backoff. */
  quickReconnects?: number;
  /** The catch-up after a new session skips messages older than this (an answer days late helps no one). */
  catchUpMaxAgeMs?: number;
  /** Only for a caller that names the env var in messages: "reset the token … and update DISCORD_TOKEN". */
  tokenSource?: string;
}

const DEFAULT_API_ROOT = 'https://discord.com/api';
/** Edits share the 5-per-5-seconds per-channel message bucket with sends. */
const MIN_EDIT_INTERVAL_MS = 1200;
/** Messages per history page, Discord's maximum, and pages per channel in one catch-up. */
const PAGE = 100;
const MAX_PAGES = 10;
/** Sent and pressed messages remembered with their channel, so an edit finds a thread's message. */
const REMEMBERED_MESSAGES = 2000;

export function createDiscordAdapter(options: DiscordAdapterOptions, ctx: AdapterContext): PlatformAdapter {
  return new DiscordAdapter(options, ctx);
}

class DiscordAdapter implements PlatformAdapter {
  readonly platform = 'discord' as const;
  readonly limits: PlatformLimits = { maxMessageChars: DISCORD_MAX_CHARS, canEdit: true, minEditIntervalMs: MIN_EDIT_INTERVAL_MS, hasButtons: true };

  private readonly apiRoot: string;
  private readonly rest: REST;
  private readonly cursors: ChannelCursors;
  private handlers: AdapterHandlers | null = null;
  private client: Client | null = null;
  private stopped = true;
  /** Set once a state retrying cannot fix was reported (bad token, disallowed intents). */
  private terminal = false;
  private state: AdapterState = { state: 'stopped' };
  private botId = '';
  private account = '';
  private commandsRegistered = false;
  private failedReconnects = 0;
  /** Times in a row the adapter replaced a failing discord.js client; reset by a working session. */
  private takeovers = 0;
  private readonly sleeping = new Set<() => void>();
  /** message id → channel id, for messages in threads (edit only gets the chat id). */
  private readonly messageChannels = new Map<string, string>();

  constructor(private readonly options: DiscordAdapterOptions, private readonly ctx: AdapterContext) {
    this.apiRoot = options.apiRoot ?? DEFAULT_API_ROOT;
    this.rest = new REST({ api: this.apiRoot }).setToken(options.token);
    this.cursors = new ChannelCursors(ctx.cursor);
  }

  async connect(handlers: AdapterHandlers): Promise<void> {
    if (!this.stopped) throw new Error('the Discord adapter is already connected');
    this.handlers = handlers;
    this.stopped = false;
    this.terminal = false;
    this.report({ state: 'connecting' });
    await this.loginWithBackoff();
  }

  async disconnect(): Promise<void> {
    this.stopped = true;
    for (const wake of this.sleeping) wake();
    const client = this.client;
    this.client = null;
    await client?.destroy();
    this.report({ state: 'stopped' });
  }

  async send(message: OutgoingMessage): Promise<{ messageId: string }> {
    const channelId = message.threadId ?? message.chatId;
    const sent = await this.call(() => this.rest.post(Routes.channelMessages(channelId), {
      body: {
        content: outgoingText(message.text),
        // The agent's text must not ping @everyone, roles or users.
        allowed_mentions: { parse: [], replied_user: false },
        components: actionRows(message.actions ?? []),
        ...(message.replyTo === undefined ? {} : { message_reference: { message_id: message.replyTo, fail_if_not_exists: false } }),
      },
    })) as APIMessage;
    this.remember(sent.id, channelId);
    return { messageId: sent.id };
  }

  async edit(chatId: string, messageId: string, text: string, actions?: readonly ChatAction[]): Promise<void> {
    const channelId = this.messageChannels.get(messageId) ?? chatId;
    await this.call(() => this.rest.patch(Routes.channelMessage(channelId, messageId), {
      body: {
        content: outgoingText(text),
        allowed_mentions: { parse: [], replied_user: false },
        // Without `actions` the buttons stay as they are; `[]` removes them (an answered approval).
        ...(actions === undefined ? {} : { components: actionRows(actions) }),
      },
    }));
  }

  async sendFile(file: OutgoingFile): Promise<{ messageId: string }> {
    const channelId = file.threadId ?? file.chatId;
    const data = await readFile(file.path);
    const sent = await this.call(() => this.rest.post(Routes.channelMessages(channelId), {
      body: { ...(file.caption === undefined ? {} : { content: outgoingText(file.caption) }), allowed_mentions: { parse: [] } },
      files: [{ name: basename(file.path), data }],
    })) as APIMessage;
    this.remember(sent.id, channelId);
    return { messageId: sent.id };
  }

  async download(attachment: Attachment, destination: string): Promise<void> {
    const { channelId, messageId, attachmentId } = parseAttachmentPlatformId(attachment.platformId);
    // A fresh copy of the message: the CDN URLs in it are signed and the ones seen at receipt may have expired.
    const message = RawMessage.parse(await this.call(() => this.rest.get(Routes.channelMessage(channelId, messageId))));
    const found = message.attachments.find((a) => a.id === attachmentId);
    if (found === undefined) throw new Error(`Discord message ${messageId} no longer has attachment ${attachmentId} (deleted or edited away)`);
    const response = await fetch(found.url);
    if (!response.ok || response.body === null) throw new Error(`downloading Discord attachment ${found.filename} failed: HTTP ${response.status}`);
    await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(destination));
  }

  async typing(chatId: string, threadId?: string): Promise<void> {
    await this.call(() => this.rest.post(Routes.channelTyping(threadId ?? chatId)));
  }

  // ── connection ──────────────────────────────────────────────────────────────────────────────────────────

  /** Logs in until it works, the token is refused, or `disconnect` is called; waits longer after each failure. */
  private async loginWithBackoff(): Promise<void> {
    const { initialMs, maxMs } = this.options.backoff ?? { initialMs: 1000, maxMs: 60_000 };
    for (let attempt = 1; !this.stopped && !this.terminal; attempt += 1) {
      const client = this.buildClient();
      this.client = client;
      try {
        await client.login(this.options.token);
        return;
      } catch (err) {
        if (this.client === client) this.client = null;
        await client.destroy().catch((e: unknown) => this.ctx.warn(`discord: closing a failed client: ${errorMessage(e)}`));
        if (this.stopped || this.terminal) return;
        if (isTokenRefused(err)) return this.fail({ state: 'bad_token', reason: this.badTokenReason('the REST API answered 401 Unauthorized') });
        const delay = Math.min(maxMs, initialMs * 2 ** (attempt - 1));
        this.report({ state: 'retrying', attempt, nextRetryAt: Date.now() + delay, reason: `login failed: ${errorMessage(err)}` });
        await this.sleep(delay);
      }
    }
  }

  private buildClient(): Client {
    const client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages, GatewayIntentBits.MessageContent],
      // DM channels are not in the cache until a message arrives in one; without the partial discord.js drops it.
      partials: [Partials.Channel],
      rest: { api: this.apiRoot },
      ws: { buildStrategy: guardedStrategy((reason, packet) => this.ctx.warn(`discord: skipped a malformed ${String(packet.t ?? 'gateway')} dispatch (seq ${String(packet.s ?? '?')}): ${reason}`)) },
    });
    client.on(Events.Raw, (packet: { t?: string; d?: unknown }) => {
      if (packet.t === 'MESSAGE_CREATE') this.onMessagePayload(packet.d, 'live');
    });
    client.on(Events.InteractionCreate, (interaction) => void this.onInteraction(interaction));
    client.on(Events.ShardReady, () => this.onSession(client, 'new'));
    client.on(Events.ShardResume, () => this.onSession(client, 'resumed'));
    client.on(Events.ShardReconnecting, () => this.onReconnecting(client));
    client.on(Events.ShardDisconnect, (event) => this.onUnrecoverableClose(client, event.code));
    client.on(Events.ShardError, (error) => this.ctx.warn(`discord: gateway connection error: ${error.message}`));
    client.on(Events.Error, (error) => this.ctx.warn(`discord: ${error.message}`));
    client.on(Events.Warn, (message) => this.ctx.warn(`discord: ${message}`));
    return client;
  }

  private onSession(client: Client, kind: 'new' | 'resumed'): void {
    if (client !== this.client || this.stopped) return;
    this.failedReconnects = 0;
    this.takeovers = 0;
    this.botId = client.user?.id ?? this.botId;
    this.account = client.user?.tag ?? this.account;
    this.report({ state: 'connected', since: Date.now(), account: this.account });
    if (kind === 'resumed') return; // discord.js replayed what was dispatched meanwhile: nothing to catch up
    void this.catchUp();
    if (!this.commandsRegistered) void this.registerCommands(client);
  }

  private onReconnecting(client: Client): void {
    if (client !== this.client || this.stopped || this.terminal) return;
    this.failedReconnects += 1;
    const limit = this.options.quickReconnects ?? 5;
    if (this.failedReconnects <= limit) {
      // discord.js tries again half a second after a close, resuming the session when it can.
      this.report({ state: 'retrying', attempt: this.failedReconnects, nextRetryAt: Date.now() + 500, reason: 'the Gateway connection closed; resuming the session' });
      return;
    }
    // discord.js would keep trying every half second; back off instead, with a fresh login. The login itself
    // may succeed at REST and fail at the socket again, so the backoff grows across takeovers until a session works.
    this.client = null;
    this.failedReconnects = 0;
    this.takeovers += 1;
    const { initialMs, maxMs } = this.options.backoff ?? { initialMs: 1000, maxMs: 60_000 };
    const delay = Math.min(maxMs, initialMs * 2 ** (this.takeovers - 1));
    this.report({ state: 'retrying', attempt: limit + this.takeovers, nextRetryAt: Date.now() + delay, reason: `the Gateway keeps refusing the connection; backing off for ${delay} ms` });
    void client.destroy()
      .catch((e: unknown) => this.ctx.warn(`discord: closing the failing client: ${errorMessage(e)}`))
      .then(() => this.sleep(delay))
      .then(() => (this.stopped || this.terminal ? undefined : this.loginWithBackoff()))
      .catch((e: unknown) => this.fail({ state: 'failed', reason: `reconnecting failed: ${errorMessage(e)}` }));
  }

  private onUnrecoverableClose(client: Client, code: number): void {
    if (client !== this.client || this.stopped) return;
    const state = closeCodeState(code, this.badTokenReason(`the Gateway closed with ${code} (authentication failed)`));
    this.client = null;
    void client.destroy().catch((e: unknown) => this.ctx.warn(`discord: closing the client: ${errorMessage(e)}`));
    this.fail(state);
  }

  /** A state retrying cannot fix: report it and stop every retry loop. */
  private fail(state: AdapterState): void {
    this.terminal = true;
    for (const wake of this.sleeping) wake();
    this.report(state);
  }

  private badTokenReason(what: string): string {
    const where = this.options.tokenSource === undefined ? 'where Hearth reads it' : `in ${this.options.tokenSource}`;
    return `Discord refused the bot token: ${what}. Reset the token in the developer portal (Bot → Reset Token) and update it ${where}.`;
  }

  private report(state: AdapterState): void {
    this.state = state;
    this.handlers?.onState(state);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.sleeping.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleeping.add(wake);
    });
  }

  /** A REST call; a 401 means the token was revoked while running, which no retry fixes. */
  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      if (err instanceof DiscordAPIError && err.status === 401 && this.state.state !== 'bad_token') {
        this.fail({ state: 'bad_token', reason: this.badTokenReason('a REST call answered 401 Unauthorized') });
      }
      throw err;
    }
  }

  private async registerCommands(client: Client): Promise<void> {
    const list = this.options.slashCommands ?? DEFAULT_SLASH_COMMANDS;
    const applicationId = client.application?.id;
    if (list.length === 0 || applicationId === undefined) return;
    try {
      await this.call(() => this.rest.put(Routes.applicationCommands(applicationId), { body: applicationCommands(list) }));
      this.commandsRegistered = true;
    } catch (err) {
      this.ctx.warn(`discord: registering slash commands failed (typed commands still work): ${errorMessage(err)}`);
    }
  }

  // ── incoming ────────────────────────────────────────────────────────────────────────────────────────────

  private onMessagePayload(payload: unknown, via: 'live' | 'catch-up'): void {
    const handlers = this.handlers;
    if (handlers === null) return;
    let normalized;
    try {
      normalized = normalizeDiscordMessage(payload, { botId: this.botId, threadParentOf: (id) => this.threadParent(id) });
    } catch (err) {
      this.ctx.warn(`discord: skipped a malformed message (${via}): ${errorMessage(err)}`);
      return;
    }
    if (normalized.kind === 'skip') {
      if (!normalized.quiet) this.ctx.warn(`discord: skipped a message: ${normalized.reason}`);
      return;
    }
    const { event } = normalized;
    const channelId = event.threadId ?? event.chat.id;
    const done = this.cursors.begin(channelId, event.messageId);
    handlers.onMessage(event).then(done, (err: unknown) => {
      this.ctx.warn(`discord: the gateway failed on message ${event.messageId}: ${errorMessage(err)}`);
      done();
    });
  }

  private threadParent(channelId: string): string | undefined {
    const channel = this.client?.channels.cache.get(channelId);
    return channel?.isThread() ? (channel.parentId ?? undefined) : undefined;
  }

  /** After a new session: each known channel's messages after its cursor, oldest first. */
  private async catchUp(): Promise<void> {
    const oldest = Date.now() - (this.options.catchUpMaxAgeMs ?? 24 * 3600_000);
    for (const channelId of this.cursors.channels()) {
      const after = this.cursors.last(channelId);
      if (after === undefined) continue;
      try {
        const missed = await this.history(channelId, after);
        let stale = 0;
        for (const payload of missed) {
          const sent = Date.parse(String((payload as { timestamp?: unknown }).timestamp));
          if (sent < oldest) {
            stale += 1;
            continue;
          }
          this.onMessagePayload(payload, 'catch-up');
        }
        if (stale > 0) this.ctx.warn(`discord: ${stale} message(s) in channel ${channelId} were older than the catch-up window and not answered`);
      } catch (err) {
        this.ctx.warn(`discord: catching up on channel ${channelId} failed: ${errorMessage(err)}`);
      }
    }
  }

  private async history(channelId: string, after: string): Promise<unknown[]> {
    const all: unknown[] = [];
    let cursor = after;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const batch = await this.call(() => this.rest.get(Routes.channelMessages(channelId), { query: new URLSearchParams({ after: cursor, limit: String(PAGE) }) })) as { id: string }[];
      // Discord answers newest first; the catch-up answers in the order they were written.
      const ordered = [...batch].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
      all.push(...ordered);
      const newest = ordered.at(-1);
      if (batch.length < PAGE || newest === undefined) return all;
      cursor = newest.id;
    }
    this.ctx.warn(`discord: channel ${channelId} has more than ${PAGE * MAX_PAGES} missed messages; only the first ${PAGE * MAX_PAGES} are answered`);
    return all;
  }

  private async onInteraction(interaction: Interaction): Promise<void> {
    try {
      if (interaction.isButton()) await this.onButton(interaction);
      else if (interaction.isChatInputCommand()) await this.onSlashCommand(interaction);
      else this.ctx.warn(`discord: ignored an interaction of type ${interaction.type} (only buttons and slash commands are used)`);
    } catch (err) {
      this.ctx.warn(`discord: handling interaction ${interaction.id} failed: ${errorMessage(err)}`);
    }
  }

  private async onButton(interaction: ButtonInteraction): Promise<void> {
    this.remember(interaction.message.id, interaction.channelId);
    // Discord wants an answer within 3 s; type 6 (deferred update) acknowledges without changing the message.
    await interaction.deferUpdate().catch((err: unknown) => this.ctx.warn(`discord: acknowledging button ${interaction.customId} failed: ${errorMessage(err)}`));
    const parent = this.threadParent(interaction.channelId);
    const event: ActionEvent = {
      platform: 'discord',
      chat: { id: parent ?? interaction.channelId, type: interaction.guildId === null ? 'dm' : 'group' },
      user: { id: interaction.user.id, name: interaction.user.globalName ?? interaction.user.username },
      ...(parent === undefined ? {} : { threadId: interaction.channelId }),
      actionId: interaction.customId,
      messageId: interaction.message.id,
    };
    await this.handlers?.onAction(event);
  }

  /**
   * A slash command becomes the text line it stands for. Discord requires an answer to the interaction itself
   * within 3 s, so it is answered at once with the command line (shown under "used /status"); the gateway's reply
   * follows as an ordinary message.
   */
  private async onSlashCommand(interaction: ChatInputCommandInteraction): Promise<void> {
    const text = slashCommandText(interaction);
    await interaction.reply({ content: text, allowedMentions: { parse: [] } })
      .catch((err: unknown) => this.ctx.warn(`discord: answering /${interaction.commandName} failed: ${errorMessage(err)}`));
    const parent = this.threadParent(interaction.channelId);
    const event = MessageEvent.parse({
      platform: 'discord',
      messageId: interaction.id,
      chat: { id: parent ?? interaction.channelId, type: interaction.guildId === null ? 'dm' : 'group' },
      ...(parent === undefined ? {} : { threadId: interaction.channelId }),
      user: { id: interaction.user.id, name: interaction.user.globalName ?? interaction.user.username, isBot: interaction.user.bot },
      text,
      mentionsBot: true, // a slash command is addressed to this bot by construction
      sentAt: interaction.createdTimestamp,
    });
    await this.handlers?.onMessage(event);
  }

  private remember(messageId: string, channelId: string): void {
    this.messageChannels.delete(messageId);
    this.messageChannels.set(messageId, channelId);
    if (this.messageChannels.size > REMEMBERED_MESSAGES) {
      const oldest = this.messageChannels.keys().next().value;
      if (oldest !== undefined) this.messageChannels.delete(oldest);
    }
  }
}

function isTokenRefused(err: unknown): boolean {
  // discord.js turns the 401 of GET /gateway/bot into its TokenInvalid error.
  return (err instanceof DiscordAPIError && err.status === 401) || (err as { code?: unknown } | null)?.code === 'TokenInvalid';
}
