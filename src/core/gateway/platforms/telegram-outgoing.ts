import type { InlineKeyboardMarkup } from 'grammy/types';
import type { ChatAction } from '../types.js';
import { telegramMessageId } from './telegram-update.js';

/** What the Bot API accepts in one message and one caption (https://core.telegram.org/bots/api#sendmessage). */
export const MAX_MESSAGE_CHARS = 4096;
export const MAX_CAPTION_CHARS = 1024;
/** `callback_data` is 1-64 bytes. */
const MAX_CALLBACK_BYTES = 64;

/** A chat id as the Bot API wants it: numeric ids as numbers, `@channelname` as text. */
export function chatRef(chatId: string): number | string {
  return /^-?\d+$/.test(chatId) ? Number(chatId) : chatId;
}

/** `message_thread_id` for a forum topic, omitted outside one. */
export function threadParams(threadId: string | undefined): { message_thread_id?: number } {
  if (threadId === undefined) return {};
  const id = Number(threadId);
  if (!Number.isSafeInteger(id)) throw new RangeError(`"${threadId}" is not a Telegram forum topic id`);
  return { message_thread_id: id };
}

/** The Telegram message id inside one of this adapter's ids, or a clear error. */
export function requireMessageId(ref: string): number {
  const id = telegramMessageId(ref);
  if (id === undefined) throw new RangeError(`"${ref}" is not a Telegram message id`);
  return id;
}

/**
 * Buttons as an inline keyboard. A few short labels share one row (approve / always / deny); longer ones get a row
 * each, so Telegram does not cut their labels on a phone.
 */
export function inlineKeyboard(actions: readonly ChatAction[]): InlineKeyboardMarkup {
  for (const a of actions) {
    const bytes = Buffer.byteLength(a.id);
    if (bytes === 0 || bytes > MAX_CALLBACK_BYTES) throw new RangeError(`button "${a.label}" has an id of ${bytes} bytes; Telegram allows 1 to ${MAX_CALLBACK_BYTES}`);
  }
  const button = (a: ChatAction): InlineKeyboardMarkup['inline_keyboard'][number][number] =>
    ({ text: a.label, callback_data: a.id, ...(a.style === undefined ? {} : { style: a.style }) });
  const oneRow = actions.length <= 3 && actions.reduce((n, a) => n + a.label.length, 0) <= 36;
  return { inline_keyboard: oneRow ? [actions.map(button)] : actions.map((a) => [button(a)]) };
}
