import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine } from '../engine.js';
import { errorMessage, isHearthError } from '../errors.js';
import { parseApprovalAction, parseApprovalCommand, shortId, type ChatApproval } from './approval-prompts.js';
import { IMMEDIATE_COMMANDS, infoCommand, parseCommand, skillActivation, type ParsedCommand } from './chat-commands.js';
import { runChatTurn } from './chat-turn.js';
import { GatewayStore } from './gateway-store.js';
import { KeyedQueue } from './keyed-queue.js';
import { gatewayMessageSender } from './message-sender.js';
import type { MessageSender } from '../tools/send-message.js';
import { PairingStore } from './pairing.js';
import { pairingReply } from './pairing-reply.js';
import { accessPolicy, addressedToBot, sessionKey, type AccessPolicy } from './routing.js';
import { splitMessage } from './split-message.js';
import type { ActionEvent, AdapterContext, AdapterState, MessageEvent, Platform, PlatformAdapter } from './types.js';

export interface GatewayOptions {
  engine: Engine;
  /** The gateway's tables; pass the one the adapters' cursors were built on (default: a new one on the engine's store). */
  store?: GatewayStore;
  /** Built with `Gateway.adapterContext` so their cursors live in the gateway's store. */
  adapters: readonly PlatformAdapter[];
  /** Every adapter state change (the CLI writes them to the status file). */
  onState?: (platform: Platform, state: AdapterState) => void;
  warn?: (message: string) => void;
  now?: () => number;
  /** How long `stop` lets running turns finish before interrupting them (default 10 s). */
  stopGraceMs?: number;
}

/** Finished message ids are kept this long for de-duplication; no platform redelivers later than that. */
const DEDUPE_WINDOW_MS = 7 * 24 * 3600_000;

/**
 * One gateway, many adapters (issue 13). Every incoming message is taken in durably (de-duplicated by the
 * platform's message id), authorized (deny by default: admins, allowlists, paired users), routed to its chat's
 * session and run through the engine's AgentHost in that session's queue: a chat's messages in order, chats side by
 * side, never two turns of one session at once. Approvals go through the engine's one broker; the chat shows them
 * and only the turn's owner or an admin can answer. Adapters only speak their platform.
 */
export class Gateway {
  readonly store: GatewayStore;
  readonly pairing: PairingStore;
  private readonly access: AccessPolicy;
  private readonly adapters = new Map<Platform, PlatformAdapter>();
  private readonly states = new Map<Platform, AdapterState>();
  private readonly queue: KeyedQueue;
  /** Running turns by session key. */
  private readonly running = new Map<string, { sessionId: string; ownerId: string }>();
  private readonly approvals = new Map<string, ChatApproval>();
  private readonly clarifications = new Map<string, { id: string; ownerId: string }>();
  private readonly warn: (message: string) => void;
  private readonly now: () => number;
  private stopping = false;

  constructor(private readonly options: GatewayOptions) {
    const { engine } = options;
    this.now = options.now ?? Date.now;
    this.warn = options.warn ?? (() => undefined);
    this.store = options.store ?? new GatewayStore(engine.sessions.store.db, this.now);
    this.pairing = new PairingStore(engine.sessions.store.db, this.now);
    this.access = accessPolicy({
      admins: () => engine.config.current().gateway.admins,
      allowedUsers: (platform) => allowedUsersOf(engine.config.current().gateway, platform),
      isPaired: (platform, userId) => this.pairing.isPaired(platform, userId),
    });
    this.queue = new KeyedQueue((key, err) => this.warn(`chat ${key}: ${errorMessage(err)}`));
    for (const adapter of options.adapters) {
      if (this.adapters.has(adapter.platform)) throw new Error(`two ${adapter.platform} adapters were configured; one gateway runs one per platform`);
      this.adapters.set(adapter.platform, adapter);
      this.states.set(adapter.platform, { state: 'stopped' });
    }
  }

  /** What an adapter is built with: its cursor store and the gateway's log. */
  static adapterContext(store: GatewayStore, platform: Platform, warn: (message: string) => void): AdapterContext {
    return { cursor: store.cursors(platform), warn: (message) => warn(`${platform}: ${message}`) };
  }

  /** What the agent's send_message/send_file tools send through while this gateway runs (attach it to the engine's MessagingHub). */
  messageSender(): MessageSender {
    return gatewayMessageSender(this.store, (platform) => this.adapters.get(platform));
  }

  adapterStates(): Record<string, AdapterState> {
    return Object.fromEntries(this.states);
  }

  /** Picks up what the last run left unanswered, then connects every adapter. An adapter that fails to connect is reported, not fatal. */
  async start(): Promise<void> {
    this.store.pruneFinished(this.now() - DEDUPE_WINDOW_MS);
    this.recover();
    await Promise.all(
      [...this.adapters.values()].map(async (adapter) => {
        this.setState(adapter.platform, { state: 'connecting' });
        try {
          await adapter.connect({
            onMessage: (event) => this.onMessage(event),
            onAction: (event) => this.onAction(event),
            onState: (state) => this.setState(adapter.platform, state),
          });
        } catch (err) {
          this.setState(adapter.platform, { state: 'failed', reason: errorMessage(err) });
          this.warn(`${adapter.platform}: could not connect: ${errorMessage(err)}`);
        }
      }),
    );
  }

  /**
   * Stops taking messages, lets running turns finish (up to `stopGraceMs`), then interrupts the rest. Messages
   * still waiting stay in the store and are answered by the next start.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(
      [...this.adapters.values()].map(async (adapter) => {
        await adapter.disconnect().catch((err: unknown) => this.warn(`${adapter.platform}: disconnect failed: ${errorMessage(err)}`));
        this.setState(adapter.platform, { state: 'stopped' });
      }),
    );
    const grace = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), this.options.stopGraceMs ?? 10_000).unref());
    if ((await Promise.race([this.queue.idle(), grace])) === 'late') {
      for (const { sessionId } of this.running.values()) this.options.engine.sessions.host.interrupt(sessionId);
      await this.queue.idle();
    }
  }

  /** Resolves when every message taken in so far has been handled (tests and the benchmark wait on it). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  /** The adapter's entry point for one message. Resolves once the message is stored, before it is answered. */
  async onMessage(event: MessageEvent): Promise<void> {
    if (this.stopping || event.user.isBot) return;
    if (!this.store.admit(event)) return;
    try {
      await this.take(event);
    } catch (err) {
      // Stored, so never retried: a reply that failed must not make the adapter hold its cursor back.
      this.store.finish(event);
      this.warn(`${event.platform}: message ${event.messageId} in chat ${event.chat.id}: ${errorMessage(err)}`);
    }
  }

  private async take(event: MessageEvent): Promise<void> {
    const settings = this.options.engine.config.current().gateway;
    if (!this.access.isAllowed(event.platform, event.user.id)) {
      this.store.finish(event);
      return this.unknownSender(event, settings.unknown_dm);
    }
    if (!addressedToBot(event, { groupRequireMention: settings.group_require_mention })) {
      this.store.finish(event);
      return;
    }
    const key = sessionKey(event, { groupSessionsPerUser: settings.group_sessions_per_user });
    const command = parseCommand(event.text);
    if (command !== null && IMMEDIATE_COMMANDS.has(command.name)) {
      this.store.finish(event);
      return this.immediateCommand(event, key, command);
    }
    const clarify = this.clarifications.get(key);
    if (command === null && clarify !== undefined && clarify.ownerId === event.user.id) {
      this.clarifications.delete(key);
      this.store.finish(event);
      this.options.engine.sessions.host.answerClarify(clarify.id, event.text);
      return;
    }
    const turn = this.running.get(key);
    if (command === null && turn !== undefined && settings.while_busy === 'steer' && this.options.engine.sessions.host.steer(turn.sessionId, event.text)) {
      this.store.finish(event);
      return;
    }
    void this.queue.push(key, () => this.handleQueued(key, event));
  }

  /** Messages taken in by the last run but never answered: waiting ones run now, cut-off ones are reported. */
  private recover(): void {
    const settings = this.options.engine.config.current().gateway;
    for (const entry of this.store.unfinished()) {
      if (entry.state === 'invalid') {
        this.warn(`${entry.platform}: message ${entry.messageId} left from the last run cannot be read back (${entry.reason}); it is dropped`);
        this.store.finish({ platform: entry.platform as Platform, messageId: entry.messageId });
        continue;
      }
      const { event } = entry;
      const key = sessionKey(event, { groupSessionsPerUser: settings.group_sessions_per_user });
      if (entry.state === 'pending') {
        void this.queue.push(key, () => this.handleQueued(key, event));
        continue;
      }
      // Its turn had started: running it again could repeat what its tools did. The user is told instead.
      void this.queue.push(key, async () => {
        this.store.finish(event);
        await this.reply(event, 'Hearth restarted while answering this message, so the answer was cut off. Send it again to continue.');
      });
    }
  }

  private async handleQueued(key: string, event: MessageEvent): Promise<void> {
    if (this.stopping) return; // Stays pending in the store: the next start answers it.
    const command = parseCommand(event.text);
    if (command?.name === '/new') {
      this.store.finish(event);
      return this.newSession(event, key);
    }
    let text = event.text;
    if (command !== null) {
      const activation = skillActivation(this.options.engine, command);
      if (activation === null) {
        this.store.finish(event);
        return this.reply(event, `Unknown command ${command.name}. /help lists them.`);
      }
      text = activation;
    }
    text = await this.withAttachments(event, text);
    if (text.trim() === '') {
      this.store.finish(event);
      return;
    }
    this.store.markRunning(event);
    try {
      await this.turn(key, event, text);
    } finally {
      this.store.finish(event);
    }
  }

  private async turn(key: string, event: MessageEvent, text: string): Promise<void> {
    const { host } = this.options.engine.sessions;
    const adapter = this.adapterFor(event.platform);
    let sessionId = this.sessionFor(key, event);
    this.running.set(key, { sessionId, ownerId: event.user.id });
    try {
      const context = {
        host,
        adapter,
        event,
        get sessionId() {
          return sessionId;
        },
        onSessionMoved: (moved: string) => {
          sessionId = moved;
          this.store.setSession(key, moved);
        },
        registerApproval: (approval: ChatApproval) => void this.approvals.set(approval.id, approval),
        withdrawApproval: (id: string) => {
          const approval = this.approvals.get(id);
          this.approvals.delete(id);
          return approval;
        },
        setClarify: (id: string | null) => (id === null ? this.clarifications.delete(key) : this.clarifications.set(key, { id, ownerId: event.user.id })),
        warn: this.warn,
        now: this.now,
      };
      try {
        await runChatTurn(context, text);
      } catch (err) {
        // The session was deleted behind the gateway's back (`hearth sessions`, the desktop): start a new one.
        if (!isHearthError(err, 'session_not_found')) throw err;
        this.store.dropSession(key);
        sessionId = this.sessionFor(key, event);
        await runChatTurn(context, text);
      }
    } finally {
      this.running.delete(key);
    }
  }

  private sessionFor(key: string, event: MessageEvent): string {
    const known = this.store.sessionFor(key);
    if (known !== undefined) return known;
    const title = event.chat.type === 'dm' ? `${event.platform}: ${event.user.name ?? event.user.id}` : `${event.platform}: ${event.chat.title ?? event.chat.id}`;
    const sessionId = this.options.engine.sessions.host.startSession({ source: 'gateway', title });
    this.store.setSession(key, sessionId);
    return sessionId;
  }

  private async newSession(event: MessageEvent, key: string): Promise<void> {
    const sessionId = this.store.sessionFor(key);
    if (sessionId !== undefined) await this.options.engine.sessions.host.endSession(sessionId);
    this.store.dropSession(key);
    await this.reply(event, 'New conversation: it starts with your next message.');
  }

  private async immediateCommand(event: MessageEvent, key: string, command: ParsedCommand): Promise<void> {
    const { host } = this.options.engine.sessions;
    if (command.name === '/approve' || command.name === '/deny') return this.textApproval(event, command);
    if (command.name === '/stop') {
      const turn = this.running.get(key);
      return this.reply(event, turn !== undefined && host.interrupt(turn.sessionId) ? 'Stopping.' : 'Nothing is running.');
    }
    const view = { sessionId: this.store.sessionFor(key), running: this.running.has(key), queued: Math.max(0, this.queue.size(key) - (this.running.has(key) ? 1 : 0)) };
    const text = infoCommand(this.options.engine, command.name, view);
    if (text !== null) await this.reply(event, text);
  }

  private async textApproval(event: MessageEvent, command: ParsedCommand): Promise<void> {
    const parsed = parseApprovalCommand(command.name as '/approve' | '/deny', command.args);
    if ('error' in parsed) return this.reply(event, parsed.error);
    const inChat = [...this.approvals.values()].filter((a) => a.platform === event.platform && a.chatId === event.chat.id);
    const prefix = parsed.idPrefix?.replace(/-/g, '').toLowerCase() ?? null;
    const matches = prefix === null ? inChat : inChat.filter((a) => shortId(a.id).toLowerCase().startsWith(prefix) || a.id.replace(/-/g, '').toLowerCase().startsWith(prefix));
    if (matches.length !== 1 || matches[0] === undefined) {
      const open = inChat.map((a) => shortId(a.id)).join(', ');
      return this.reply(event, matches.length === 0 ? `No open approval ${prefix === null ? 'in this chat' : `matches ${parsed.idPrefix ?? ''}`}.${open === '' ? '' : ` Open: ${open}.`}` : `Several approvals are open (${open}): name one, e.g. ${command.name} ${shortId(matches[0]?.id ?? '')}.`);
    }
    return this.answer(matches[0], { platform: event.platform, chatId: event.chat.id, threadId: event.threadId, userId: event.user.id }, parsed.decision);
  }

  /** A button press. Only approval buttons exist today; anything else is reported. */
  async onAction(event: ActionEvent): Promise<void> {
    try {
      await this.action(event);
    } catch (err) {
      this.warn(`${event.platform}: button ${event.actionId.slice(0, 64)} in chat ${event.chat.id}: ${errorMessage(err)}`);
    }
  }

  private async action(event: ActionEvent): Promise<void> {
    const parsed = parseApprovalAction(event.actionId);
    if (parsed === null) {
      this.warn(`${event.platform}: a button press with an unknown action id "${event.actionId.slice(0, 64)}" was ignored`);
      return;
    }
    const approval = this.approvals.get(parsed.id);
    const where = { platform: event.platform, chatId: event.chat.id, threadId: event.threadId, userId: event.user.id };
    if (approval === undefined) return this.send(where, 'That approval is no longer open (answered, timed out, or the turn ended).');
    return this.answer(approval, where, parsed.decision);
  }

  private async answer(approval: ChatApproval, from: { platform: Platform; chatId: string; threadId: string | undefined; userId: string }, decision: Parameters<Engine['sessions']['host']['answerApproval']>[1]): Promise<void> {
    const owner = from.platform === approval.platform && from.userId === approval.ownerId;
    if (!owner && !this.access.isAdmin(from.platform, from.userId)) {
      this.warn(`${from.platform}: user ${from.userId} tried to answer approval ${shortId(approval.id)} owned by ${approval.ownerId}; refused`);
      return this.send(from, `Only ${approval.ownerName ?? 'the person who asked'} or an admin can answer this approval.`);
    }
    if (!this.options.engine.sessions.host.answerApproval(approval.id, decision)) {
      this.approvals.delete(approval.id);
      return this.send(from, 'That approval is no longer open (answered, timed out, or the turn ended).');
    }
  }

  private async unknownSender(event: MessageEvent, policy: 'pair' | 'ignore'): Promise<void> {
    if (event.chat.type !== 'dm' || policy === 'ignore') {
      this.warn(`${event.platform}: ignored a message from ${event.user.id}, who is not allowed (allowlist, admins or pairing)`);
      return;
    }
    const outcome = this.pairing.request(event.platform, event.user);
    const text = pairingReply(outcome, event.platform);
    if (text === null) {
      this.warn(`${event.platform}: no pairing code for ${event.user.id}: ${outcome.kind}`);
      return;
    }
    await this.reply(event, text);
  }

  /** Attachments are saved into the workspace and named in the message, so the agent can open them with its tools. */
  private async withAttachments(event: MessageEvent, text: string): Promise<string> {
    if (event.attachments.length === 0) return text;
    const adapter = this.adapterFor(event.platform);
    const folder = join(this.options.engine.workspace, 'chat-files', event.platform, safeName(event.chat.id));
    mkdirSync(folder, { recursive: true });
    const lines: string[] = [];
    for (const [i, attachment] of event.attachments.entries()) {
      const path = join(folder, `${safeName(event.messageId)}-${i + 1}-${safeName(attachment.name ?? attachment.kind)}`);
      try {
        await adapter.download(attachment, path);
        lines.push(`[${attachment.kind} attached: ${path}]`);
      } catch (err) {
        lines.push(`[${attachment.kind} attached but could not be downloaded: ${errorMessage(err)}]`);
      }
    }
    return [text, ...lines].filter((l) => l.trim() !== '').join('\n');
  }

  private reply(event: MessageEvent, text: string): Promise<void> {
    return this.send({ platform: event.platform, chatId: event.chat.id, threadId: event.threadId }, text, event.messageId);
  }

  private async send(to: { platform: Platform; chatId: string; threadId: string | undefined }, text: string, replyTo?: string): Promise<void> {
    const adapter = this.adapterFor(to.platform);
    for (const piece of splitMessage(text, adapter.limits.maxMessageChars)) {
      await adapter.send({ chatId: to.chatId, ...(to.threadId === undefined ? {} : { threadId: to.threadId }), text: piece, ...(replyTo === undefined ? {} : { replyTo }) });
    }
  }

  private adapterFor(platform: Platform): PlatformAdapter {
    const adapter = this.adapters.get(platform);
    if (adapter === undefined) throw new Error(`no ${platform} adapter is running`);
    return adapter;
  }

  private setState(platform: Platform, state: AdapterState): void {
    this.states.set(platform, state);
    this.options.onState?.(platform, state);
  }
}

/** `gateway.<platform>.allowed_users`, for whichever platform sections the schema has. */
function allowedUsersOf(settings: object, platform: Platform): readonly string[] {
  const section: unknown = (settings as Partial<Record<string, unknown>>)[platform];
  if (typeof section !== 'object' || section === null || !('allowed_users' in section)) return [];
  const users = (section as { allowed_users: unknown }).allowed_users;
  return Array.isArray(users) ? users.map(String) : [];
}

function safeName(text: string): string {
  return text.replace(/[^\w.-]+/g, '_').slice(0, 80) || 'file';
}
