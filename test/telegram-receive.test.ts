import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  alice, aliceDm, bob, connectAdapter, forum, group, startFakeTelegram, waitFor, type AdapterRun, type FakeTelegram,
} from './fixtures/telegram-bot-api-server.js';

/**
 * Incoming Telegram updates through grammY's client, long-polled from a Bot API server on 127.0.0.1
 * (fixtures/telegram-bot-api-server.ts), turned into the gateway's events. Catches wrong fields (DM vs group, the
 * per-chat message id, forum topics), mentions and replies that gate group messages read wrongly, attachments
 * lost or not downloadable, button presses left unanswered, and a malformed update that crashes the loop or
 * stops the cursor.
 */
let fake: FakeTelegram;
let run: AdapterRun;
let dir: string;

beforeEach(async () => {
  fake = await startFakeTelegram();
  run = await connectAdapter(fake);
  dir = mkdtempSync(join(tmpdir(), 'hearth-tg-'));
});
afterEach(async () => {
  await run?.adapter.disconnect();
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

const next = (n: number) => waitFor(() => run.messages.length >= n && run.messages[n - 1], `message ${n}`);

describe('Telegram messages in', () => {
  it('reports connected with the bot username from getMe', () => {
    expect(run.states.map((s) => s.state)).toEqual(['connecting', 'connected']);
    expect(run.lastState()).toMatchObject({ state: 'connected', account: 'hearth_test_bot' });
    // Polling mode clears a webhook (getUpdates answers 409 while one is set) but keeps the pending updates.
    expect(fake.callsTo('deleteWebhook')[0]?.params).toMatchObject({ drop_pending_updates: false });
  });

  it('turns a DM into a dm event with the per-chat message id, sender and time', async () => {
    const { messageId } = fake.pushMessage(aliceDm, alice, 'hello there');
    const e = await next(1);
    expect(e).toMatchObject({
      platform: 'telegram',
      messageId: `111:${messageId}`,
      chat: { id: '111', type: 'dm' },
      user: { id: '111', name: 'Alice Liddell', isBot: false },
      text: 'hello there',
      attachments: [],
      mentionsBot: false,
    });
    expect(e.threadId).toBeUndefined();
    expect(e.replyTo).toBeUndefined();
    expect(Math.abs(e.sentAt - Date.now())).toBeLessThan(5_000);
    expect(fake.callsTo('getUpdates')[0]?.params.allowed_updates).toEqual(['message', 'callback_query']);
  });

  it('reads group messages: chat title, @mention of the bot (any case), a mention of someone else, a text mention by id', async () => {
    fake.pushMessage(group, bob, 'hey @Hearth_Test_Bot look', { entities: [{ type: 'mention', offset: 4, length: 16 }] });
    fake.pushMessage(group, bob, 'hey @other_bot look', { entities: [{ type: 'mention', offset: 4, length: 10 }] });
    // "@hearth_test_bot" written without an entity is not a mention Telegram made (e.g. inside a code span).
    fake.pushMessage(group, bob, 'see `@hearth_test_bot`', { entities: [{ type: 'code', offset: 4, length: 18 }] });
    fake.pushMessage(group, bob, 'Hearth, look', { entities: [{ type: 'text_mention', offset: 0, length: 6, user: fake.bot }] });
    await next(4);
    expect(run.messages.map((m) => [m.chat.type, m.mentionsBot])).toEqual([['group', true], ['group', false], ['group', false], ['group', true]]);
    expect(run.messages[0]?.chat).toEqual({ id: '-100500', type: 'group', title: 'Team' });
    expect(run.messages[0]?.user).toEqual({ id: '222', name: 'Bob', isBot: false });
  });

  it('marks replies to the bot apart from replies to people', async () => {
    const mine = await run.adapter.send({ chatId: String(group.id), text: 'I am the bot' });
    const botMessageId = Number(mine.messageId.split(':')[1]);
    const people = fake.pushMessage(group, alice, 'a person wrote this');
    fake.pushMessage(group, bob, 'answering the bot', { reply_to_message: { message_id: botMessageId, date: 1, chat: group, from: fake.bot, text: 'I am the bot' } });
    fake.pushMessage(group, bob, 'answering alice', { reply_to_message: { message_id: people.messageId, date: 1, chat: group, from: alice, text: 'x' } });
    await next(3);
    expect(run.messages[1]?.replyTo).toEqual({ messageId: mine.messageId, fromBot: true });
    expect(run.messages[2]?.replyTo).toEqual({ messageId: `-100500:${people.messageId}`, fromBot: false });
  });

  it('strips this bot\'s name from a command and counts it as addressed; a command for another bot stays as it is', async () => {
    fake.pushMessage(group, bob, '/status@hearth_test_bot now', { entities: [{ type: 'bot_command', offset: 0, length: 23 }] });
    fake.pushMessage(group, bob, '/status@other_bot', { entities: [{ type: 'bot_command', offset: 0, length: 17 }] });
    await next(2);
    expect(run.messages.map((m) => [m.text, m.mentionsBot])).toEqual([['/status now', true], ['/status@other_bot', false]]);
  });

  it('gives a forum topic as the thread, and does not take the topic root for a reply', async () => {
    fake.pushMessage(forum, alice, 'in topic 42', {
      message_thread_id: 42, is_topic_message: true,
      reply_to_message: { message_id: 42, date: 1, chat: forum, from: fake.bot, forum_topic_created: { name: 'T', icon_color: 1 } },
    });
    // A reply thread in a plain supergroup also has message_thread_id, but is no topic.
    fake.pushMessage(group, alice, 'no topic', { message_thread_id: 9 });
    await next(2);
    expect(run.messages[0]).toMatchObject({ threadId: '42', chat: { id: '-100600', type: 'group' } });
    expect(run.messages[0]?.replyTo).toBeUndefined();
    expect(run.messages[1]?.threadId).toBeUndefined();
  });

  it('lists photos (largest size), documents and voice notes as attachments and downloads them through getFile', async () => {
    const photoBytes = Buffer.from('jpeg-bytes-of-the-large-photo');
    const small = fake.addFile(Buffer.from('thumb'), 'photos/small.jpg');
    const large = fake.addFile(photoBytes, 'photos/file_7.jpg');
    const docBytes = Buffer.from('%PDF-1.7 fake');
    const doc = fake.addFile(docBytes, 'documents/report.pdf');
    const voice = fake.addFile(Buffer.from('OggS....'), 'voice/file_9.oga');
    fake.pushMessage(aliceDm, alice, '', {
      text: undefined, caption: 'look at this',
      photo: [{ file_id: small, file_unique_id: 's', width: 90, height: 60, file_size: 5 }, { file_id: large, file_unique_id: 'l', width: 1280, height: 853, file_size: photoBytes.length }],
    });
    fake.pushMessage(aliceDm, alice, '', { text: undefined, document: { file_id: doc, file_unique_id: 'd', file_name: 'report.pdf', mime_type: 'application/pdf', file_size: docBytes.length } });
    fake.pushMessage(aliceDm, alice, '', { text: undefined, voice: { file_id: voice, file_unique_id: 'v', duration: 3 } });
    await next(3);
    const [photo, file, note] = run.messages;
    expect(photo?.text).toBe('look at this');
    expect(photo?.attachments).toEqual([{ kind: 'image', platformId: large, mimeType: 'image/jpeg', bytes: photoBytes.length }]);
    expect(file?.attachments).toEqual([{ kind: 'file', platformId: doc, name: 'report.pdf', mimeType: 'application/pdf', bytes: docBytes.length }]);
    expect(note?.attachments).toEqual([{ kind: 'voice', platformId: voice, mimeType: 'audio/ogg' }]);

    await run.adapter.download(photo!.attachments[0]!, join(dir, 'photo.jpg'));
    await run.adapter.download(file!.attachments[0]!, join(dir, 'report.pdf'));
    expect(readFileSync(join(dir, 'photo.jpg'))).toEqual(photoBytes);
    expect(readFileSync(join(dir, 'report.pdf'))).toEqual(docBytes);
    expect(fake.callsTo('getFile').map((c) => c.params.file_id)).toEqual([large, doc]);
  });

  it('fails a download of an unknown file with a clear error and leaves no partial file', async () => {
    await expect(run.adapter.download({ kind: 'file', platformId: 'nope' }, join(dir, 'x.bin'))).rejects.toThrow(/getFile.*400.*invalid file_id/);
    expect(readdirSync(dir)).toEqual([]);
    // The token is in every Bot API URL; it must not reach an error message.
    await run.adapter.download({ kind: 'file', platformId: 'nope' }, join(dir, 'x.bin')).catch((err: Error) => expect(err.message).not.toContain(fake.token));
  });

  it('skips a malformed update with a warning, keeps running, and moves the cursor past it', async () => {
    const broken = fake.push({ message: { message_id: 'not-a-number', chat: { type: 'private' }, text: 'x' } });
    const unknownKind = fake.push({ poll_answer: { poll_id: '1' } });
    const sticker = fake.pushMessage(aliceDm, alice, '', { text: undefined, sticker: { file_id: 'st', width: 1, height: 1 } });
    const join_ = fake.pushMessage(group, bob, '', { text: undefined, new_chat_members: [bob] });
    fake.pushMessage(aliceDm, alice, 'still here');
    const e = await next(1);
    expect(e.text).toBe('still here');
    expect(run.messages).toHaveLength(1);
    expect(run.warnings.some((w) => w.includes(`skipped update ${broken}: a malformed message (message_id`))).toBe(true);
    expect(run.warnings.some((w) => w.includes(`skipped update ${unknownKind}:`) && w.includes('poll_answer'))).toBe(true);
    expect(run.warnings.some((w) => w.includes(`skipped update ${sticker.updateId}:`) && w.includes('sticker'))).toBe(true);
    // A member joining is not a problem worth a log line.
    expect(run.warnings.some((w) => w.includes(`update ${join_.updateId}`))).toBe(false);
    // What people wrote does not go into the log.
    expect(run.warnings.join('\n')).not.toContain('still here');
    const stored = JSON.parse(run.cursor.get('update_offset') ?? '{}') as { offset: number };
    expect(stored.offset).toBeGreaterThan(broken);
    await waitFor(() => !fake.pending().includes(broken), 'the malformed update confirmed');
  });

  it('turns a button press into an action event and answers the callback query', async () => {
    const sent = await run.adapter.send({
      chatId: '111', text: 'Run `rm -rf build`?',
      actions: [{ id: 'approve:a1:once', label: 'Approve', style: 'primary' }, { id: 'deny:a1', label: 'Deny', style: 'danger' }],
    });
    const botMessage = fake.sent(111)[0];
    expect(botMessage?.reply_markup).toEqual({ inline_keyboard: [[
      { text: 'Approve', callback_data: 'approve:a1:once', style: 'primary' },
      { text: 'Deny', callback_data: 'deny:a1', style: 'danger' },
    ]] });
    const query = fake.pushPress(aliceDm, alice, botMessage!.message_id, 'approve:a1:once');
    const action = await waitFor(() => run.actions[0], 'the action');
    expect(action).toEqual({ platform: 'telegram', chat: { id: '111', type: 'dm' }, user: { id: '111', name: 'Alice Liddell' }, actionId: 'approve:a1:once', messageId: sent.messageId });
    await waitFor(() => fake.answeredQueries.has(query), 'answerCallbackQuery');
    expect(fake.answeredQueries.get(query)).toEqual({});
  });

  it('answers a press it cannot use (no callback data) so the button stops spinning, and warns', async () => {
    const id = '99';
    fake.push({ callback_query: { id, from: alice, chat_instance: 'c', game_short_name: 'g', message: { message_id: 1, date: 1, chat: aliceDm } } });
    fake.pushMessage(aliceDm, alice, 'after');
    await next(1);
    expect(run.actions).toEqual([]);
    expect(run.warnings.some((w) => w.includes('carries no callback data'))).toBe(true);
    // The fake only accepts answers to queries it issued; this one was pushed raw, so the answer is refused and that is logged.
    expect(fake.callsTo('answerCallbackQuery').map((c) => c.params.callback_query_id)).toEqual([id]);
  });
});
