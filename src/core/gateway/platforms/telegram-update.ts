import { z } from 'zod';
import { MessageEvent, type ActionEvent, type Attachment } from '../types.js';

/**
 * Bot API updates (https://core.telegram.org/bots/api#update) turned into the gateway's events. Only the fields
 * Hearth reads are declared; the zod schemas are the check that an update is well formed, so a malformed one is a
 * logged skip with the field that was wrong, never a half-filled event or a crash.
 *
 * Message ids are `<chat_id>:<message_id>`: Telegram numbers messages per chat, and the gateway de-duplicates by
 * `messageId` across all chats of the platform.
 */

/** The update kinds the adapter asks for (`allowed_updates`). Edits are left out on purpose, see `normalizeUpdate`. */
export const ALLOWED_UPDATES = ['message', 'callback_query'] as const;

const User = z.object({
  id: z.number().int(),
  is_bot: z.boolean(),
  first_name: z.string(),
  last_name: z.string().optional(),
  username: z.string().optional(),
});
type User = z.infer<typeof User>;

const Chat = z.object({
  id: z.number().int(),
  type: z.enum(['private', 'group', 'supergroup', 'channel']),
  title: z.string().optional(),
});

const Entity = z.object({
  type: z.string(),
  offset: z.number().int().nonnegative(),
  length: z.number().int().positive(),
  user: User.optional(),
});
type Entity = z.infer<typeof Entity>;

const fileFields = { file_id: z.string().min(1), file_size: z.number().int().nonnegative().optional() };
const PhotoSize = z.object({ ...fileFields, width: z.number().int(), height: z.number().int() });
const NamedFile = z.object({ ...fileFields, file_name: z.string().optional(), mime_type: z.string().optional() });

const Message = z.object({
  message_id: z.number().int(),
  date: z.number().int().nonnegative(),
  chat: Chat,
  from: User.optional(),
  message_thread_id: z.number().int().optional(),
  is_topic_message: z.boolean().optional(),
  text: z.string().optional(),
  caption: z.string().optional(),
  entities: z.array(Entity).optional(),
  caption_entities: z.array(Entity).optional(),
  reply_to_message: z.object({ message_id: z.number().int(), from: User.optional() }).optional(),
  photo: z.array(PhotoSize).min(1).optional(),
  document: NamedFile.optional(),
  voice: NamedFile.optional(),
  audio: NamedFile.optional(),
  video: NamedFile.optional(),
  video_note: NamedFile.optional(),
  animation: NamedFile.optional(),
});
type Message = z.infer<typeof Message>;

const CallbackQuery = z.object({
  id: z.string().min(1),
  from: User,
  /** Absent when the message is too old or the button was under an inline-mode message. */
  message: z.object({
    message_id: z.number().int(),
    chat: Chat,
    message_thread_id: z.number().int().optional(),
    is_topic_message: z.boolean().optional(),
  }).optional(),
  data: z.string().optional(),
});

const Update = z.object({
  update_id: z.number().int().nonnegative(),
  message: z.unknown().optional(),
  edited_message: z.unknown().optional(),
  callback_query: z.unknown().optional(),
});

/** What the bot knows about itself (from `getMe`), for mention and reply detection. */
export interface BotIdentity {
  id: number;
  username: string;
}

export type NormalizedUpdate =
  | { kind: 'message'; event: MessageEvent }
  | { kind: 'action'; event: ActionEvent; callbackQueryId: string }
  /** Not for the agent. `warn`: worth a log line (malformed or unsupported); service messages (joins, pins) are not. */
  | { kind: 'skip'; reason: string; warn: boolean; callbackQueryId?: string };

/** Content Telegram can carry that Hearth does not turn into text or attachments yet; skipped with a warning. */
const UNSUPPORTED_CONTENT = ['sticker', 'location', 'venue', 'contact', 'poll', 'dice', 'game', 'story', 'invoice', 'checklist', 'paid_media'];

export function updateId(raw: unknown): number | undefined {
  const parsed = z.object({ update_id: z.number().int().nonnegative() }).safeParse(raw);
  return parsed.success ? parsed.data.update_id : undefined;
}

export function normalizeUpdate(raw: unknown, bot: BotIdentity): NormalizedUpdate {
  const update = Update.safeParse(raw);
  if (!update.success) return malformed('update', update.error);
  const { message, edited_message, callback_query } = update.data;
  if (message !== undefined) return normalizeMessage(message, bot);
  if (callback_query !== undefined) return normalizeCallbackQuery(callback_query);
  if (edited_message !== undefined) {
    // Not requested (ALLOWED_UPDATES): an edit carries the id of a message that was already answered, so the
    // gateway's de-duplication would drop it, and answering it as new would be a second turn for one message.
    return { kind: 'skip', reason: 'an edited message (edits are not answered)', warn: false };
  }
  return { kind: 'skip', reason: `an update of a kind the adapter does not handle (${Object.keys(raw as object).filter((k) => k !== 'update_id').join(', ') || 'empty'})`, warn: true };
}

function normalizeMessage(raw: unknown, bot: BotIdentity): NormalizedUpdate {
  const parsed = Message.safeParse(raw);
  if (!parsed.success) return malformed('message', parsed.error);
  const m = parsed.data;
  if (m.chat.type === 'channel') return { kind: 'skip', reason: 'a channel post (channels are not chats with the agent)', warn: true };
  if (m.from === undefined) return { kind: 'skip', reason: `message ${m.message_id} in chat ${m.chat.id} has no sender`, warn: true };
  const attachments = attachmentsOf(m);
  const rawText = m.text ?? m.caption ?? '';
  if (rawText === '' && attachments.length === 0) {
    const content = UNSUPPORTED_CONTENT.find((key) => key in (raw as object));
    return content === undefined
      ? { kind: 'skip', reason: `a service message in chat ${m.chat.id}`, warn: false }
      : { kind: 'skip', reason: `message ${m.message_id} in chat ${m.chat.id} carries a ${content}, which is not supported`, warn: true };
  }
  const entities = (m.text !== undefined ? m.entities : m.caption_entities) ?? [];
  const { text, addressed } = stripOwnCommandSuffix(rawText, entities, bot);
  const threadId = m.is_topic_message === true && m.message_thread_id !== undefined ? String(m.message_thread_id) : undefined;
  // In a forum topic every message "replies" to the topic's first message; that is the topic, not a reply.
  const reply = m.reply_to_message !== undefined && !(threadId !== undefined && m.reply_to_message.message_id === m.message_thread_id)
    ? m.reply_to_message : undefined;
  const event = MessageEvent.safeParse({
    platform: 'telegram',
    messageId: messageRef(m.chat.id, m.message_id),
    chat: { id: String(m.chat.id), type: m.chat.type === 'private' ? 'dm' : 'group', title: m.chat.title },
    user: { id: String(m.from.id), name: displayName(m.from), isBot: m.from.is_bot },
    threadId,
    text,
    attachments,
    replyTo: reply === undefined ? undefined : { messageId: messageRef(m.chat.id, reply.message_id), fromBot: reply.from?.id === bot.id },
    mentionsBot: addressed || mentions(rawText, entities, bot),
    sentAt: m.date * 1000,
  });
  if (!event.success) return malformed('message', event.error);
  return { kind: 'message', event: event.data };
}

function normalizeCallbackQuery(raw: unknown): NormalizedUpdate {
  const parsed = CallbackQuery.safeParse(raw);
  if (!parsed.success) {
    const id = z.object({ id: z.string().min(1) }).safeParse(raw);
    return { ...malformed('callback_query', parsed.error), ...(id.success ? { callbackQueryId: id.data.id } : {}) };
  }
  const q = parsed.data;
  if (q.message === undefined) return { kind: 'skip', reason: `button press ${q.id} under a message the bot can no longer see`, warn: true, callbackQueryId: q.id };
  if (q.data === undefined || q.data === '') return { kind: 'skip', reason: `button press ${q.id} carries no callback data`, warn: true, callbackQueryId: q.id };
  const threadId = q.message.is_topic_message === true && q.message.message_thread_id !== undefined ? String(q.message.message_thread_id) : undefined;
  return {
    kind: 'action',
    callbackQueryId: q.id,
    event: {
      platform: 'telegram',
      chat: { id: String(q.message.chat.id), type: q.message.chat.type === 'private' ? 'dm' : 'group' },
      user: { id: String(q.from.id), name: displayName(q.from) },
      ...(threadId === undefined ? {} : { threadId }),
      actionId: q.data,
      messageId: messageRef(q.message.chat.id, q.message.message_id),
    },
  };
}

function attachmentsOf(m: Message): Attachment[] {
  const out: Attachment[] = [];
  // Telegram sends each photo in several sizes, smallest first; the largest is the one worth keeping.
  const photo = m.photo?.at(-1);
  if (photo !== undefined) out.push({ kind: 'image', platformId: photo.file_id, mimeType: 'image/jpeg', ...bytes(photo.file_size) });
  const named = (kind: Attachment['kind'], f: z.infer<typeof NamedFile> | undefined, defaultMime?: string): void => {
    if (f === undefined) return;
    const mimeType = f.mime_type ?? defaultMime;
    out.push({ kind, platformId: f.file_id, ...(f.file_name === undefined ? {} : { name: f.file_name }), ...(mimeType === undefined ? {} : { mimeType }), ...bytes(f.file_size) });
  };
  named('file', m.document);
  named('voice', m.voice, 'audio/ogg');
  named('audio', m.audio);
  named('video', m.video);
  named('video', m.video_note, 'video/mp4');
  named('video', m.animation);
  return out;
}

function bytes(size: number | undefined): { bytes?: number } {
  return size === undefined ? {} : { bytes: size };
}

/** `@botname` in the text, or a text mention (a user without a username, linked by id) of the bot. */
function mentions(text: string, entities: readonly Entity[], bot: BotIdentity): boolean {
  const handle = `@${bot.username}`.toLowerCase();
  return entities.some((e) =>
    (e.type === 'mention' && slice(text, e).toLowerCase() === handle) || (e.type === 'text_mention' && e.user?.id === bot.id));
}

/**
 * `/status@hearth_bot` is `/status` addressed to this bot: the suffix goes, so the gateway's commands read the
 * same in DMs and groups, and the message counts as addressed to the bot. A command naming another bot stays as it is.
 */
function stripOwnCommandSuffix(text: string, entities: readonly Entity[], bot: BotIdentity): { text: string; addressed: boolean } {
  const command = entities.find((e) => e.type === 'bot_command' && e.offset === 0);
  if (command === undefined) return { text, addressed: false };
  const word = slice(text, command);
  const at = word.indexOf('@');
  if (at < 0 || word.slice(at + 1).toLowerCase() !== bot.username.toLowerCase()) return { text, addressed: false };
  return { text: word.slice(0, at) + text.slice(command.length), addressed: true };
}

/** Entity offsets count UTF-16 code units, as JavaScript strings do. */
function slice(text: string, e: Entity): string {
  return text.slice(e.offset, e.offset + e.length);
}

function displayName(u: User): string {
  return u.last_name === undefined ? u.first_name : `${u.first_name} ${u.last_name}`;
}

export function messageRef(chatId: number | string, messageId: number): string {
  return `${chatId}:${messageId}`;
}

/** The Telegram message id in one of this adapter's message ids (`<chat>:<id>`); a bare number is accepted too. */
export function telegramMessageId(ref: string): number | undefined {
  const m = /^(?:-?\d+:)?(\d+)$/.exec(ref);
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

function malformed(what: string, error: z.ZodError): NormalizedUpdate {
  // Paths and messages only: the update itself holds what people wrote, which does not belong in a log line.
  const issues = error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
  return { kind: 'skip', reason: `a malformed ${what} (${issues})`, warn: true };
}
