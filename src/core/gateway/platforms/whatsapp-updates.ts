import { z } from 'zod';
import { MessageEvent, type ActionEvent, type Attachment } from '../types.js';

/**
 * A Cloud API webhook body (`{object: 'whatsapp_business_account', entry: [{changes: [{field: 'messages', value}]}]}`)
 * → the messages and button presses in it. `value.statuses` (sent/delivered/read receipts) are not messages and
 * are ignored; each message that does not fit is skipped with its reason while the others in the batch go on.
 * Every WhatsApp chat is a DM with the business number: the chat id is the sender's WhatsApp id.
 */

const Media = z.object({ id: z.string().min(1), mime_type: z.string().optional(), filename: z.string().optional(), caption: z.string().optional(), voice: z.boolean().optional() });

const Message = z.object({
  from: z.string().min(1),
  id: z.string().min(1),
  timestamp: z.string().regex(/^\d+$/),
  type: z.string(),
  text: z.object({ body: z.string() }).optional(),
  context: z.object({ from: z.string().optional(), id: z.string().optional() }).optional(),
  interactive: z.object({
    type: z.string(),
    button_reply: z.object({ id: z.string().min(1), title: z.string().optional() }).optional(),
    list_reply: z.object({ id: z.string().min(1), title: z.string().optional() }).optional(),
  }).optional(),
  button: z.object({ text: z.string().optional(), payload: z.string().optional() }).optional(),
  image: Media.optional(),
  document: Media.optional(),
  audio: Media.optional(),
  video: Media.optional(),
  sticker: Media.optional(),
  location: z.object({ latitude: z.number(), longitude: z.number(), name: z.string().optional(), address: z.string().optional() }).optional(),
});

const Value = z.object({
  metadata: z.object({ phone_number_id: z.string(), display_phone_number: z.string().optional() }),
  contacts: z.array(z.object({ wa_id: z.string(), profile: z.object({ name: z.string().optional() }).optional() })).optional(),
  messages: z.array(z.unknown()).optional(),
  statuses: z.array(z.unknown()).optional(),
  errors: z.array(z.object({ code: z.number().optional(), title: z.string().optional(), message: z.string().optional() })).optional(),
});

const Payload = z.object({
  object: z.literal('whatsapp_business_account'),
  entry: z.array(z.object({ changes: z.array(z.object({ field: z.string(), value: z.unknown() })) })),
});

export type WhatsAppUpdate = { kind: 'message'; event: MessageEvent } | { kind: 'action'; event: ActionEvent; wamid: string };

export interface WhatsAppBatch {
  updates: WhatsAppUpdate[];
  /** Why each skipped part was skipped, for `ctx.warn`. */
  skipped: string[];
}

const MEDIA_KINDS = { image: 'image', document: 'file', audio: 'audio', video: 'video', sticker: 'image' } as const;

export function normalizeWhatsAppPayload(raw: Buffer, phoneNumberId: string): WhatsAppBatch {
  const updates: WhatsAppUpdate[] = [];
  const skipped: string[] = [];
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    return { updates, skipped: ['a webhook body that is not JSON'] };
  }
  const payload = Payload.safeParse(json);
  if (!payload.success) return { updates, skipped: [`a webhook body of an unexpected shape (${firstIssue(payload.error)})`] };
  for (const entry of payload.data.entry) {
    for (const change of entry.changes) {
      if (change.field !== 'messages') continue;
      const value = Value.safeParse(change.value);
      if (!value.success) {
        skipped.push(`a messages change of an unexpected shape (${firstIssue(value.error)})`);
        continue;
      }
      if (value.data.metadata.phone_number_id !== phoneNumberId) {
        skipped.push(`an update for phone number id ${value.data.metadata.phone_number_id}, not ${phoneNumberId}`);
        continue;
      }
      for (const error of value.data.errors ?? []) skipped.push(`an error Meta reported: ${error.title ?? error.message ?? 'untitled'} (code ${error.code ?? '?'})`);
      const names = new Map((value.data.contacts ?? []).map((c) => [c.wa_id, c.profile?.name]));
      const business = value.data.metadata.display_phone_number?.replace(/\D/g, '');
      for (const rawMessage of value.data.messages ?? []) {
        const one = normalizeMessage(rawMessage, names, business);
        if (typeof one === 'string') skipped.push(one);
        else if (one !== undefined) updates.push(one);
      }
    }
  }
  return { updates, skipped };
}

function normalizeMessage(raw: unknown, names: Map<string, string | undefined>, business: string | undefined): WhatsAppUpdate | string | undefined {
  const parsed = Message.safeParse(raw);
  if (!parsed.success) return `a message of an unexpected shape (${firstIssue(parsed.error)})`;
  const m = parsed.data;
  const name = names.get(m.from);
  const user = { id: m.from, ...(name ? { name } : {}) };
  const chat = { id: m.from, type: 'dm' as const };

  if (m.type === 'interactive') {
    const reply = m.interactive?.button_reply ?? m.interactive?.list_reply;
    if (reply === undefined) return `an interactive message ${m.id} of type ${m.interactive?.type ?? 'unknown'}, which Hearth does not handle`;
    return { kind: 'action', wamid: m.id, event: { platform: 'whatsapp', chat, user, actionId: reply.id, messageId: m.context?.id ?? m.id } };
  }
  if (m.type === 'reaction') return undefined;

  let text = '';
  const attachments: Attachment[] = [];
  if (m.type === 'text') {
    if (m.text === undefined) return `a text message ${m.id} without text`;
    text = m.text.body;
  } else if (m.type === 'button') {
    // A quick-reply button under a template message: what the user tapped is what they said.
    text = m.button?.text ?? m.button?.payload ?? '';
  } else if (m.type === 'location' && m.location !== undefined) {
    const place = [m.location.name, m.location.address].filter(Boolean).join(', ');
    text = `[location ${m.location.latitude}, ${m.location.longitude}${place ? ` (${place})` : ''}]`;
  } else if (m.type in MEDIA_KINDS) {
    const media = m[m.type as keyof typeof MEDIA_KINDS];
    if (media === undefined) return `a ${m.type} message ${m.id} without its media`;
    const kind: Attachment['kind'] = m.type === 'audio' && media.voice === true ? 'voice' : MEDIA_KINDS[m.type as keyof typeof MEDIA_KINDS];
    attachments.push({ kind, platformId: media.id, ...(media.filename ? { name: media.filename } : {}), ...(media.mime_type ? { mimeType: media.mime_type } : {}) });
    text = media.caption ?? '';
  } else {
    return `a ${m.type} message ${m.id}, which Hearth does not handle`;
  }

  const event = MessageEvent.safeParse({
    platform: 'whatsapp',
    messageId: m.id,
    chat,
    user: { ...user, isBot: false },
    text,
    attachments,
    ...(m.context?.id ? { replyTo: { messageId: m.context.id, fromBot: business !== undefined && m.context.from?.replace(/\D/g, '') === business } } : {}),
    mentionsBot: false,
    sentAt: Number(m.timestamp) * 1000,
  });
  if (!event.success) return `a message ${m.id} that does not normalize (${firstIssue(event.error)})`;
  return { kind: 'message', event: event.data };
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue === undefined ? 'invalid' : `${issue.path.join('.') || 'value'}: ${issue.message}`;
}
