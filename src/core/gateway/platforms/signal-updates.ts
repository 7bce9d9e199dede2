import { z } from 'zod';
import { MessageEvent, type Attachment } from '../types.js';

/**
 * One `receive` event from signal-cli (the SSE `data:` of `GET /api/v1/events`: `{account, envelope, exception?}`,
 * signal-cli's JsonReceiveMessageHandler) → a `MessageEvent`, nothing (not a message for the agent), or a skip
 * with the reason. Only `envelope.dataMessage` carries what a user wrote to the bot; receipts, typing, calls,
 * stories, sync messages (the account's other devices), reactions, remote deletes, group updates and edits are
 * not messages to answer.
 */

const Mention = z.object({ number: z.string().nullish(), uuid: z.string().nullish(), name: z.string().nullish(), start: z.number().int().nonnegative(), length: z.number().int().nonnegative() });

const SignalAttachment = z.object({
  contentType: z.string().nullish(),
  filename: z.string().nullish(),
  id: z.string().nullish(),
  size: z.number().int().nonnegative().nullish(),
});

const DataMessage = z.object({
  timestamp: z.number().int().nonnegative().optional(),
  message: z.string().nullish(),
  reaction: z.unknown().optional(),
  remoteDelete: z.unknown().optional(),
  mentions: z.array(Mention).nullish(),
  attachments: z.array(SignalAttachment).nullish(),
  quote: z.object({ id: z.number().int(), authorNumber: z.string().nullish(), authorUuid: z.string().nullish(), author: z.string().nullish() }).nullish(),
  groupInfo: z.object({ groupId: z.string().min(1), groupName: z.string().nullish(), type: z.string().nullish() }).nullish(),
});

const Envelope = z.object({
  source: z.string().nullish(),
  sourceNumber: z.string().nullish(),
  sourceUuid: z.string().nullish(),
  sourceName: z.string().nullish(),
  timestamp: z.number().int().nonnegative(),
  dataMessage: z.unknown().optional(),
});

const Receive = z.object({
  account: z.string().optional(),
  envelope: z.unknown().optional(),
  exception: z.object({ message: z.string().nullish(), type: z.string().nullish() }).passthrough().optional(),
});

export type SignalUpdate =
  | { kind: 'message'; event: MessageEvent }
  /** Not for the agent (receipt, typing, reaction, …); nothing to log. */
  | { kind: 'ignored' }
  /** Malformed or unusable: the adapter logs the reason and moves on. */
  | { kind: 'skipped'; reason: string };

export interface SignalIdentity {
  /** The bot's number. */
  account: string;
  /** The bot's ACI, when known, to recognise mentions and quotes of the bot by UUID. */
  uuid?: string;
}

/** The sender's id for the gateway: the number (what an allowlist holds), else the ACI of a user who hides it. */
const senderId = (e: { sourceNumber?: string | null | undefined; sourceUuid?: string | null | undefined; source?: string | null | undefined }): string | undefined =>
  e.sourceNumber ?? e.sourceUuid ?? e.source ?? undefined;

/** Message ids are `author:timestamp`, the pair Signal itself uses to name a message (quotes, reactions). The ACI is preferred: a number can change hands. */
export const signalMessageId = (author: string, timestamp: number): string => `${author}:${timestamp}`;

export function normalizeSignalReceive(data: string, self: SignalIdentity): SignalUpdate {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return { kind: 'skipped', reason: 'a receive event that is not JSON' };
  }
  const receive = Receive.safeParse(json);
  if (!receive.success) return { kind: 'skipped', reason: `a receive event of an unexpected shape (${firstIssue(receive.error)})` };
  if (receive.data.account !== undefined && receive.data.account !== self.account) {
    return { kind: 'skipped', reason: `a receive event for account ${receive.data.account}, not ${self.account}` };
  }
  if (receive.data.envelope === undefined) {
    const why = receive.data.exception?.message ?? 'no envelope';
    return { kind: 'skipped', reason: `signal-cli could not receive a message (${why})` };
  }
  const envelope = Envelope.safeParse(receive.data.envelope);
  if (!envelope.success) return { kind: 'skipped', reason: `an envelope of an unexpected shape (${firstIssue(envelope.error)})` };
  const env = envelope.data;
  // An exception beside an envelope: signal-cli could not decrypt it (e.g. an untrusted identity); the user wrote something that is lost.
  if (receive.data.exception !== undefined) {
    return { kind: 'skipped', reason: `signal-cli could not decrypt a message from ${senderId(env) ?? 'an unknown sender'} (${receive.data.exception.message ?? 'no reason given'})` };
  }
  if (env.dataMessage === undefined || env.dataMessage === null) return { kind: 'ignored' };
  const parsedData = DataMessage.safeParse(env.dataMessage);
  if (!parsedData.success) return { kind: 'skipped', reason: `a dataMessage of an unexpected shape (${firstIssue(parsedData.error)})` };
  const dm = parsedData.data;
  if (dm.reaction !== undefined || dm.remoteDelete !== undefined) return { kind: 'ignored' };
  if (dm.groupInfo?.type === 'UPDATE' && (dm.message ?? '') === '') return { kind: 'ignored' };

  const user = senderId(env);
  const author = env.sourceUuid ?? user;
  if (user === undefined || author === undefined) return { kind: 'skipped', reason: 'a message with no sender' };

  const attachments: Attachment[] = [];
  for (const a of dm.attachments ?? []) {
    if (a.id === undefined || a.id === null || a.id === '') return { kind: 'skipped', reason: `a message from ${user} with an attachment signal-cli did not store (no id)` };
    attachments.push({ kind: attachmentKind(a.contentType ?? undefined, a.filename ?? undefined), platformId: a.id, ...(a.filename ? { name: a.filename } : {}), ...(a.contentType ? { mimeType: a.contentType } : {}), ...(a.size == null ? {} : { bytes: a.size }) });
  }
  const rawText = dm.message ?? '';
  if (rawText === '' && attachments.length === 0) return { kind: 'ignored' };

  const isSelf = (number: string | null | undefined, uuid: string | null | undefined): boolean =>
    (number != null && number === self.account) || (uuid != null && self.uuid !== undefined && uuid === self.uuid);
  const mentions = dm.mentions ?? [];
  const { text, mentionsBot } = renderMentions(rawText, mentions, isSelf);
  const quote = dm.quote ?? undefined;
  const quoteFromBot = quote ? isSelf(quote.authorNumber ?? quote.author, quote.authorUuid) : false;
  // A quote of the bot names the bot by its number, as `send` named the message it sent.
  const quoteAuthor = quote ? (quoteFromBot ? self.account : (quote.authorUuid ?? quote.authorNumber ?? quote.author ?? undefined)) : undefined;

  const candidate = {
    platform: 'signal',
    messageId: signalMessageId(author, env.timestamp),
    chat: dm.groupInfo
      ? { id: dm.groupInfo.groupId, type: 'group' as const, ...(dm.groupInfo.groupName ? { title: dm.groupInfo.groupName } : {}) }
      : { id: user, type: 'dm' as const },
    user: { id: user, ...(env.sourceName ? { name: env.sourceName } : {}), isBot: false },
    text,
    attachments,
    ...(quote && quoteAuthor !== undefined ? { replyTo: { messageId: signalMessageId(quoteAuthor, quote.id), fromBot: quoteFromBot } } : {}),
    mentionsBot,
    sentAt: env.timestamp,
  };
  const event = MessageEvent.safeParse(candidate);
  if (!event.success) return { kind: 'skipped', reason: `a message that does not normalize (${firstIssue(event.error)})` };
  return { kind: 'message', event: event.data };
}

/**
 * Signal puts U+FFFC where a mention stands and lists who it names. A mention of the bot is taken out (the text
 * is what was said to it); others become `@name` so the agent reads who was meant.
 */
function renderMentions(text: string, mentions: readonly z.infer<typeof Mention>[], isSelf: (n: string | null | undefined, u: string | null | undefined) => boolean): { text: string; mentionsBot: boolean } {
  let mentionsBot = false;
  let out = text;
  // From the end, so earlier offsets (UTF-16 units, as JavaScript counts) stay valid.
  for (const m of [...mentions].sort((a, b) => b.start - a.start)) {
    if (m.start + m.length > out.length) continue;
    const self = isSelf(m.number, m.uuid);
    mentionsBot ||= self;
    const replacement = self ? '' : `@${m.name ?? m.number ?? m.uuid ?? 'someone'}`;
    out = out.slice(0, m.start) + replacement + out.slice(m.start + m.length);
  }
  return { text: mentionsBot ? out.replace(/^\s+/, '').replace(/ {2,}/g, ' ') : out, mentionsBot };
}

/** Signal marks no voice note in signal-cli's JSON; a voice note is audio without a file name (the app names none). */
function attachmentKind(contentType: string | undefined, filename: string | undefined): Attachment['kind'] {
  if (contentType?.startsWith('image/')) return 'image';
  if (contentType?.startsWith('video/')) return 'video';
  if (contentType?.startsWith('audio/')) return filename ? 'audio' : 'voice';
  return 'file';
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue === undefined ? 'invalid' : `${issue.path.join('.') || 'value'}: ${issue.message}`;
}
