import { z } from 'zod';
import { MessageEvent, type Attachment } from '../types.js';

/**
 * Discord messages (the API's message object, https://discord.com/developers/docs/resources/message) turned into
 * the gateway's `MessageEvent`. One path for both ways a message reaches the adapter: a MESSAGE_CREATE dispatch
 * and a `GET /channels/:id/messages` page fetched to catch up after a new session. Only the fields Hearth reads
 * are declared; the schema is the check that a payload is well formed, so a malformed one is a logged skip that
 * names the field, never a half-filled event or a crash inside discord.js.
 */

const snowflake = z.string().regex(/^\d{1,20}$/, { error: 'expected a snowflake id' });

const RawUser = z.object({
  id: snowflake,
  username: z.string(),
  global_name: z.string().nullish(),
  bot: z.boolean().optional(),
});

/** Discord sets this attachment flag on voice messages (recorded in the client, sent as audio/ogg). */
const VOICE_MESSAGE_FLAG = 1 << 13;

const RawAttachment = z.object({
  id: snowflake,
  filename: z.string(),
  size: z.number().int().nonnegative(),
  url: z.string(),
  content_type: z.string().optional(),
  flags: z.number().int().optional(),
});

/** Message types a person writes: DEFAULT and REPLY. The rest are system notices (joins, pins, boosts, …). */
const USER_MESSAGE_TYPES = new Set([0, 19]);

export const RawMessage = z.object({
  id: snowflake,
  channel_id: snowflake,
  guild_id: snowflake.optional(),
  author: RawUser,
  content: z.string(),
  timestamp: z.string().refine((s) => !Number.isNaN(Date.parse(s)), { error: 'expected an ISO timestamp' }),
  type: z.number().int().default(0),
  webhook_id: snowflake.optional(),
  mentions: z.array(z.object({ id: snowflake })).default([]),
  attachments: z.array(RawAttachment).default([]),
  message_reference: z.object({ message_id: snowflake.optional() }).optional(),
  referenced_message: z.object({ author: z.object({ id: snowflake }) }).nullish(),
});
export type RawMessage = z.infer<typeof RawMessage>;

/** What the adapter knows that a message payload does not say. */
export interface MessageContext {
  botId: string;
  /** The parent channel when `channelId` is a thread (from discord.js's channel cache), else undefined. */
  threadParentOf(channelId: string): string | undefined;
}

export type NormalizedMessage =
  | { kind: 'message'; event: MessageEvent }
  /** Not a message for the agent; `quiet` ones (the bot's own echo) are not worth a log line. */
  | { kind: 'skip'; reason: string; quiet: boolean };

/** A message payload as a MessageEvent, or why it is none. Throws (a ZodError naming the field) on a malformed payload. */
export function normalizeDiscordMessage(raw: unknown, context: MessageContext): NormalizedMessage {
  const msg = RawMessage.parse(raw);
  if (msg.author.id === context.botId) return { kind: 'skip', reason: 'the bot\'s own message', quiet: true };
  if (!USER_MESSAGE_TYPES.has(msg.type)) return { kind: 'skip', reason: `message ${msg.id} is a system notice (type ${msg.type})`, quiet: true };
  const parent = context.threadParentOf(msg.channel_id);
  const mentionsBot = msg.mentions.some((u) => u.id === context.botId) || mentionPattern(context.botId).test(msg.content);
  const replyId = msg.message_reference?.message_id;
  const event = MessageEvent.parse({
    platform: 'discord',
    messageId: msg.id,
    // A thread is a channel of its own in Discord; the chat is the channel it hangs off, the thread its id.
    chat: { id: parent ?? msg.channel_id, type: msg.guild_id === undefined ? 'dm' : 'group' },
    ...(parent === undefined ? {} : { threadId: msg.channel_id }),
    user: { id: msg.author.id, name: msg.author.global_name ?? msg.author.username, isBot: msg.author.bot === true || msg.webhook_id !== undefined },
    text: stripBotMention(msg.content, context.botId),
    attachments: msg.attachments.map((a) => attachmentOf(msg, a)),
    ...(replyId === undefined ? {} : { replyTo: { messageId: replyId, fromBot: msg.referenced_message?.author.id === context.botId } }),
    mentionsBot,
    sentAt: Date.parse(msg.timestamp),
  });
  return { kind: 'message', event };
}

function mentionPattern(botId: string): RegExp {
  return new RegExp(`<@!?${botId}>`);
}

/** The bot's own `<@id>` / `<@!id>` removed, so the gateway sees `/new`, not `<@123> /new`. Other mentions stay. */
export function stripBotMention(content: string, botId: string): string {
  return content.replace(new RegExp(`<@!?${botId}>\\s*`, 'g'), '').trim();
}

/**
 * The attachment's `platformId` is `channel:message:attachment`, not its URL: Discord's CDN URLs are signed and
 * expire after about a day, so a download fetches the message again for a fresh URL.
 */
function attachmentOf(msg: RawMessage, a: z.infer<typeof RawAttachment>): Attachment {
  return {
    kind: attachmentKind(a.content_type, a.flags),
    platformId: attachmentPlatformId(msg.channel_id, msg.id, a.id),
    name: a.filename,
    ...(a.content_type === undefined ? {} : { mimeType: a.content_type }),
    bytes: a.size,
  };
}

export function attachmentKind(contentType: string | undefined, flags: number | undefined): Attachment['kind'] {
  if (((flags ?? 0) & VOICE_MESSAGE_FLAG) !== 0) return 'voice';
  const type = (contentType ?? '').split('/')[0];
  if (type === 'image') return 'image';
  if (type === 'audio') return 'audio';
  if (type === 'video') return 'video';
  return 'file';
}

export function attachmentPlatformId(channelId: string, messageId: string, attachmentId: string): string {
  return `${channelId}:${messageId}:${attachmentId}`;
}

export function parseAttachmentPlatformId(platformId: string): { channelId: string; messageId: string; attachmentId: string } {
  const match = /^(\d+):(\d+):(\d+)$/.exec(platformId);
  if (!match) throw new Error(`"${platformId}" is not a Discord attachment id (expected channel:message:attachment)`);
  return { channelId: match[1] as string, messageId: match[2] as string, attachmentId: match[3] as string };
}

/** Snowflakes order by time; compared as integers (they exceed a double). */
export function snowflakeAfter(a: string, b: string): boolean {
  return BigInt(a) > BigInt(b);
}
