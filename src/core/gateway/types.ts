import { z } from 'zod';

/**
 * The contract between the gateway and one chat platform (issue 13). An adapter turns the platform's own
 * updates into `MessageEvent`s and carries the gateway's replies back through the platform's SDK; everything
 * else (who may talk to the agent, which session a message belongs to, ordering, approvals, chat commands) is
 * the gateway's, so the five platforms cannot drift apart in policy.
 */

export const PLATFORMS = ['telegram', 'discord', 'slack', 'whatsapp', 'signal'] as const;
export const Platform = z.enum(PLATFORMS);
export type Platform = z.infer<typeof Platform>;

/** `dm`: a one-to-one chat with the bot. `group`: a group, guild channel or Slack channel. */
export const ChatType = z.enum(['dm', 'group']);
export type ChatType = z.infer<typeof ChatType>;

export const Attachment = z.object({
  kind: z.enum(['image', 'file', 'audio', 'voice', 'video']),
  /** The platform's id for the file, used to download it through the adapter. */
  platformId: z.string().min(1),
  name: z.string().optional(),
  mimeType: z.string().optional(),
  bytes: z.number().int().nonnegative().optional(),
});
export type Attachment = z.infer<typeof Attachment>;

/** One incoming message, normalized. Adapters build it with `MessageEvent.parse`, so a malformed update is an error, not a half-filled event. */
export const MessageEvent = z.object({
  platform: Platform,
  /** The platform's message id: the key for de-duplication across reconnects and restarts. */
  messageId: z.string().min(1),
  chat: z.object({ id: z.string().min(1), type: ChatType, title: z.string().optional() }),
  user: z.object({ id: z.string().min(1), name: z.string().optional(), isBot: z.boolean().default(false) }),
  /** A thread inside the chat (Discord/Slack threads, Telegram forum topics). */
  threadId: z.string().optional(),
  text: z.string(),
  attachments: z.array(Attachment).default([]),
  /** The message this one answers, and whether that message was the bot's own (reply gating in groups). */
  replyTo: z.object({ messageId: z.string(), fromBot: z.boolean() }).optional(),
  /** True when the text names the bot (@mention); groups answer only mentions and replies by default. */
  mentionsBot: z.boolean().default(false),
  /** Epoch ms, from the platform. */
  sentAt: z.number().int().nonnegative(),
});
export type MessageEvent = z.infer<typeof MessageEvent>;

/** A button under a message (Telegram inline keyboard, Discord components, Slack Block Kit). */
export interface ChatAction {
  /** What the gateway gets back when it is pressed, e.g. `approve:<id>:once`. At most 64 bytes (Telegram's limit). */
  id: string;
  label: string;
  style?: 'primary' | 'danger';
}

/** A button press, normalized. */
export interface ActionEvent {
  platform: Platform;
  chat: { id: string; type: ChatType };
  user: { id: string; name?: string };
  threadId?: string;
  actionId: string;
  /** The message the button was under. */
  messageId: string;
}

export interface OutgoingMessage {
  chatId: string;
  threadId?: string;
  text: string;
  /** Reply to this message id where the platform supports replies. */
  replyTo?: string;
  actions?: readonly ChatAction[];
}

export interface OutgoingFile {
  chatId: string;
  threadId?: string;
  path: string;
  caption?: string;
}

/** What the app and `hearth gateway status` show per adapter. */
export type AdapterState =
  | { state: 'stopped' }
  | { state: 'connecting' }
  | { state: 'connected'; since: number; account?: string }
  | { state: 'retrying'; attempt: number; nextRetryAt: number; reason: string }
  /** A credential the platform refused: retrying cannot help until the user fixes it. */
  | { state: 'bad_token'; reason: string }
  | { state: 'failed'; reason: string };

export interface AdapterHandlers {
  onMessage(event: MessageEvent): Promise<void>;
  onAction(event: ActionEvent): Promise<void>;
  onState(state: AdapterState): void;
}

export interface PlatformLimits {
  /** Longest text one message may carry, in the unit the platform counts (characters for all five today). */
  maxMessageChars: number;
  /** Whether a sent message can be edited, so a streaming answer grows in place. */
  canEdit: boolean;
  /** Fewest milliseconds between two edits of one message that the platform tolerates. */
  minEditIntervalMs: number;
  /** Whether messages can carry buttons; without them approvals are answered with `/approve ID`. */
  hasButtons: boolean;
}

/**
 * One platform. `connect` resolves once the adapter receives (or has failed for good: `bad_token`); after that
 * it reconnects with backoff by itself and reports through `onState`. A restart must neither lose nor repeat a
 * message: adapters persist their cursor (update offset, sequence, event id) through `AdapterContext.cursor`
 * and the gateway de-duplicates by `messageId`.
 */
export interface PlatformAdapter {
  readonly platform: Platform;
  readonly limits: PlatformLimits;
  connect(handlers: AdapterHandlers): Promise<void>;
  disconnect(): Promise<void>;
  /** Returns the platform's id of the sent message. */
  send(message: OutgoingMessage): Promise<{ messageId: string }>;
  edit(chatId: string, messageId: string, text: string, actions?: readonly ChatAction[]): Promise<void>;
  sendFile(file: OutgoingFile): Promise<{ messageId: string }>;
  /** Downloads an attachment into `destination` (a file path). */
  download(attachment: Attachment, destination: string): Promise<void>;
  typing(chatId: string, threadId?: string): Promise<void>;
}

/** Durable state an adapter keeps between runs, namespaced by platform. */
export interface CursorStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

/** What the gateway hands an adapter when it builds one. */
export interface AdapterContext {
  cursor: CursorStore;
  /** Problems worth a log line that are not a state change (a malformed update that was skipped, with why). */
  warn(message: string): void;
}
