import { z } from 'zod';
import { MessageEvent, type ActionEvent, type Attachment, type ChatType } from '../types.js';
import { mentionsUser, readableSlackText } from './slack-text.js';

/**
 * Slack's events (`message`, `app_mention`, `block_actions`) as the gateway's `MessageEvent` and `ActionEvent`.
 * The schemas read only the fields used and let the rest through, so a new Slack field changes nothing and a
 * missing one is a clear error rather than a half-filled event.
 */

/** What the adapter knows about itself that the normalization needs. */
export interface SlackIdentity {
  botUserId: string;
  botId?: string;
  /** Threads (`channel:thread_ts`) the bot has written in: a later message there is a reply to the bot. */
  botThreads: ReadonlySet<string>;
}

const ts = z.string().regex(/^\d+\.\d+$/, { error: 'expected a Slack timestamp such as 1712345678.000100' });

const SlackFile = z.object({
  id: z.string().min(1),
  name: z.string().optional(),
  title: z.string().optional(),
  mimetype: z.string().optional(),
  size: z.number().int().nonnegative().optional(),
  subtype: z.string().optional(),
  url_private: z.string().optional(),
  url_private_download: z.string().optional(),
});

const SlackMessage = z.object({
  type: z.enum(['message', 'app_mention']),
  subtype: z.string().optional(),
  channel: z.string().min(1),
  channel_type: z.string().optional(),
  user: z.string().min(1).optional(),
  bot_id: z.string().min(1).optional(),
  username: z.string().optional(),
  text: z.string().default(''),
  ts,
  thread_ts: ts.optional(),
  parent_user_id: z.string().optional(),
  files: z.array(SlackFile).default([]),
});

/** Subtypes that carry a new message from someone; the rest (edits, deletions, joins, topic changes) are not messages to answer. */
const MESSAGE_SUBTYPES = new Set(['file_share', 'thread_broadcast', 'bot_message', 'me_message']);

export type SlackFileRef = z.infer<typeof SlackFile>;

export type NormalizedMessage =
  | { kind: 'message'; event: MessageEvent; files: SlackFileRef[] }
  /** `quiet`: the bot's own echo, which is expected on every send and not worth a log line. */
  | { kind: 'skip'; reason: string; quiet: boolean };

/** The gateway's message id for a Slack message: `ts` is unique only within its channel. */
export function slackMessageId(channel: string, messageTs: string): string {
  return `${channel}:${messageTs}`;
}

/** Splits a `channel:ts` message id; a bare ts is not enough to find a message, so it is refused. */
export function parseSlackMessageId(messageId: string): { channel: string; ts: string } {
  const match = /^([A-Z0-9]+):(\d+\.\d+)$/.exec(messageId);
  if (match === null) throw new Error(`"${messageId}" is not a Slack message id (channel:ts); file messages cannot be edited`);
  return { channel: match[1] as string, ts: match[2] as string };
}

/** IM channel ids start with D; mpim, private and public channels are groups. */
function chatTypeOf(channel: string, channelType: string | undefined): ChatType {
  if (channelType !== undefined) return channelType === 'im' ? 'dm' : 'group';
  return channel.startsWith('D') ? 'dm' : 'group';
}

function attachmentOf(file: SlackFileRef): Attachment {
  const mime = file.mimetype ?? '';
  const kind: Attachment['kind'] = file.subtype === 'slack_audio' ? 'voice'
    : mime.startsWith('image/') ? 'image'
    : mime.startsWith('audio/') ? 'audio'
    : mime.startsWith('video/') ? 'video'
    : 'file';
  return {
    kind,
    platformId: file.id,
    ...(file.name === undefined ? {} : { name: file.name }),
    ...(file.mimetype === undefined ? {} : { mimeType: file.mimetype }),
    ...(file.size === undefined ? {} : { bytes: file.size }),
  };
}

/** A `message` or `app_mention` event as a MessageEvent, or why it is not one. Throws on a malformed event. */
export function normalizeSlackMessage(raw: unknown, me: SlackIdentity): NormalizedMessage {
  const msg = SlackMessage.parse(raw);
  if (msg.subtype !== undefined && !MESSAGE_SUBTYPES.has(msg.subtype)) {
    return { kind: 'skip', reason: `a ${msg.subtype} event is not a new message`, quiet: false };
  }
  if (msg.user === me.botUserId || (me.botId !== undefined && msg.bot_id === me.botId)) {
    return { kind: 'skip', reason: 'the bot\'s own message', quiet: true };
  }
  const userId = msg.user ?? msg.bot_id;
  if (userId === undefined) throw new Error(`message ${msg.ts} in ${msg.channel} names no user or bot`);
  const inThread = msg.thread_ts !== undefined && msg.thread_ts !== msg.ts;
  const threadKey = inThread ? slackMessageId(msg.channel, msg.thread_ts as string) : undefined;
  const event = MessageEvent.parse({
    platform: 'slack',
    messageId: slackMessageId(msg.channel, msg.ts),
    chat: { id: msg.channel, type: chatTypeOf(msg.channel, msg.channel_type) },
    user: { id: userId, ...(msg.username === undefined ? {} : { name: msg.username }), isBot: msg.bot_id !== undefined },
    ...(inThread ? { threadId: msg.thread_ts } : {}),
    text: readableSlackText(msg.text, me.botUserId),
    attachments: msg.files.map(attachmentOf),
    // In a thread the message answers the thread's parent; it is the bot's when the bot started the thread or has written in it.
    ...(threadKey === undefined ? {} : {
      replyTo: { messageId: threadKey, fromBot: msg.parent_user_id === me.botUserId || me.botThreads.has(threadKey) },
    }),
    mentionsBot: msg.type === 'app_mention' || mentionsUser(msg.text, me.botUserId),
    sentAt: Math.round(Number(msg.ts) * 1000),
  });
  return { kind: 'message', event, files: msg.files };
}

const BlockActions = z.object({
  type: z.literal('block_actions'),
  user: z.object({ id: z.string().min(1), name: z.string().optional(), username: z.string().optional() }),
  channel: z.object({ id: z.string().min(1) }).optional(),
  container: z.object({ channel_id: z.string().optional(), message_ts: ts.optional(), thread_ts: ts.optional() }).default({}),
  message: z.object({ ts, thread_ts: ts.optional() }).optional(),
  actions: z.array(z.object({ action_id: z.string().min(1) })).min(1),
});

/** A `block_actions` interaction (a button press) as ActionEvents, one per action. Throws on a malformed payload. */
export function normalizeSlackActions(raw: unknown): ActionEvent[] {
  const body = BlockActions.parse(raw);
  const channel = body.channel?.id ?? body.container.channel_id;
  const messageTs = body.message?.ts ?? body.container.message_ts;
  if (channel === undefined || messageTs === undefined) throw new Error('a block_actions payload names no channel or message (only message buttons are handled)');
  const threadTs = body.message?.thread_ts ?? body.container.thread_ts;
  const name = body.user.name ?? body.user.username;
  return body.actions.map((action) => ({
    platform: 'slack',
    chat: { id: channel, type: chatTypeOf(channel, undefined) },
    user: { id: body.user.id, ...(name === undefined ? {} : { name }) },
    ...(threadTs !== undefined && threadTs !== messageTs ? { threadId: threadTs } : {}),
    actionId: action.action_id,
    messageId: slackMessageId(channel, messageTs),
  }));
}

const SlashCommand = z.object({
  command: z.string().regex(/^\/\S+$/, { error: 'expected a command such as /hearth' }),
  text: z.string().default(''),
  user_id: z.string().min(1),
  user_name: z.string().optional(),
  channel_id: z.string().min(1),
  trigger_id: z.string().min(1),
});

/**
 * A slash command as a message. Slack's client takes every line that starts with `/` as a command of its own, so
 * the gateway's `/new`, `/stop`, … reach the bot as `/hearth new` (the app registers `/hearth`): that becomes the
 * text `/new`; `/hearth` alone is `/help`. A command the app registered under another name passes as typed.
 * A command has no message ts: its id is `channel:cmd:<trigger_id>`, unique per invocation.
 */
export function normalizeSlackCommand(raw: unknown, now: number): MessageEvent {
  const cmd = SlashCommand.parse(raw);
  const args = cmd.text.trim();
  const text = cmd.command === '/hearth'
    ? (args === '' ? '/help' : args.startsWith('/') ? args : `/${args}`)
    : `${cmd.command}${args === '' ? '' : ` ${args}`}`;
  return MessageEvent.parse({
    platform: 'slack',
    messageId: `${cmd.channel_id}:cmd:${cmd.trigger_id}`,
    chat: { id: cmd.channel_id, type: chatTypeOf(cmd.channel_id, undefined) },
    user: { id: cmd.user_id, ...(cmd.user_name === undefined ? {} : { name: cmd.user_name }), isBot: false },
    text,
    // A command is addressed to the bot wherever it is typed.
    mentionsBot: true,
    sentAt: now,
  });
}
