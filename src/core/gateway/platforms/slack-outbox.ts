import { createWriteStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { webApi } from '@slack/bolt';
import type { Attachment, ChatAction, CursorStore, OutgoingFile, OutgoingMessage } from '../types.js';
import { parseSlackMessageId, slackMessageId, type SlackFileRef } from './slack-events.js';
import { actionBlocks, SLACK_HARD_LIMIT, slackMrkdwn } from './slack-text.js';

/**
 * What the adapter sends: chat.postMessage / chat.update (text as escaped mrkdwn, buttons as Block Kit), files
 * through files.uploadV2 (getUploadURLExternal → upload → completeUploadExternal), downloads of the files users
 * send (`url_private_download` with the bot token). It also remembers the threads the bot has written in,
 * across restarts, so a later message in such a thread counts as a reply to the bot.
 */
const THREADS_KEY = 'bot_threads';
const MAX_THREADS = 500;
const MAX_FILE_URLS = 1000;
/** Slack's upload limit. */
const MAX_UPLOAD_BYTES = 1024 ** 3;

export class SlackOutbox {
  readonly botThreads: Set<string>;
  private readonly fileUrls = new Map<string, string>();

  constructor(
    private readonly web: webApi.WebClient,
    private readonly botToken: string,
    private readonly apiUrl: string,
    private readonly cursor: CursorStore,
    warn: (message: string) => void,
  ) {
    this.botThreads = new Set(loadThreads(cursor.get(THREADS_KEY), warn));
  }

  /**
   * `replyTo` is not used: Slack's only form of reply is a thread, and answering a top-level message in a new
   * thread would move the conversation into another gateway session (threads get their own). Answers go where the
   * message was: the same thread, or the channel or DM itself.
   */
  async send(message: OutgoingMessage): Promise<{ messageId: string }> {
    checkLength(message.text);
    const threadTs = message.threadId;
    const res = await this.web.chat.postMessage({
      channel: message.chatId,
      text: slackMrkdwn(message.text),
      ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
      ...(message.actions !== undefined && message.actions.length > 0 ? { blocks: actionBlocks(message.text, message.actions) } : {}),
      // The agent's links stay links; a preview card under every answer is noise.
      unfurl_links: false,
      unfurl_media: false,
    });
    if (!res.ts) throw new Error(`chat.postMessage to ${message.chatId} returned no ts`);
    const channel = res.channel ?? message.chatId;
    if (threadTs !== undefined) this.rememberThread(slackMessageId(channel, threadTs));
    return { messageId: slackMessageId(channel, res.ts) };
  }

  /** Replaces the text; the buttons are the ones given now (none removes them, as after an approval is answered). */
  async edit(chatId: string, messageId: string, text: string, actions?: readonly ChatAction[]): Promise<void> {
    checkLength(text);
    const { ts } = parseSlackMessageId(messageId);
    // chat.update keeps a message's old blocks unless told otherwise: [] clears them.
    await this.web.chat.update({
      channel: chatId, ts, text: slackMrkdwn(text), blocks: actions !== undefined && actions.length > 0 ? actionBlocks(text, actions) : [],
    });
  }

  /**
   * Uploads with files.uploadV2. Slack shares the file into the channel asynchronously and returns no message
   * ts, so the id is `channel:file:<file id>`: enough to name it, not to edit it (an edit refuses it clearly).
   */
  async sendFile(file: OutgoingFile): Promise<{ messageId: string }> {
    const info = await stat(file.path);
    if (!info.isFile()) throw new Error(`${file.path} is not a file`);
    if (info.size > MAX_UPLOAD_BYTES) throw new Error(`${file.path} is ${info.size} bytes; Slack takes files up to 1 GB`);
    if (file.caption !== undefined) checkLength(file.caption);
    const common = {
      file: await readFile(file.path),
      filename: basename(file.path),
      ...(file.caption === undefined ? {} : { initial_comment: slackMrkdwn(file.caption) }),
    };
    const res = await this.web.filesUploadV2(file.threadId === undefined
      ? { ...common, channel_id: file.chatId }
      : { ...common, channel_id: file.chatId, thread_ts: file.threadId });
    const fileId = res.files.flatMap((done) => done.files ?? []).find((f) => f.id)?.id;
    if (fileId === undefined) throw new Error(`files.completeUploadExternal for ${file.path} named no file`);
    if (file.threadId !== undefined) this.rememberThread(slackMessageId(file.chatId, file.threadId));
    return { messageId: `${file.chatId}:file:${fileId}` };
  }

  /** The private download URLs of files seen in messages, so a download needs no files.info call. */
  rememberFiles(files: readonly SlackFileRef[]): void {
    for (const file of files) {
      const url = file.url_private_download ?? file.url_private;
      if (url === undefined) continue;
      this.fileUrls.set(file.id, url);
      if (this.fileUrls.size > MAX_FILE_URLS) this.fileUrls.delete(this.fileUrls.keys().next().value as string);
    }
  }

  async download(attachment: Attachment, destination: string): Promise<void> {
    const url = this.fileUrls.get(attachment.platformId) ?? await this.lookUpFileUrl(attachment.platformId);
    // The bot token goes only to Slack's file host or the configured API server, whatever a payload names.
    if (!this.trusted(url)) throw new Error(`Slack file ${attachment.platformId} points at ${new URL(url).origin}, which is not Slack's file host`);
    const res = await fetch(url, { headers: { Authorization: `Bearer ${this.botToken}` } });
    if (!res.ok || res.body === null) throw new Error(`downloading Slack file ${attachment.platformId} failed: HTTP ${res.status}`);
    // Without files:read Slack answers 200 with its sign-in page instead of the file.
    if ((res.headers.get('content-type') ?? '').startsWith('text/html') && !(attachment.mimeType ?? '').startsWith('text/html')) {
      await res.body.cancel();
      throw new Error(`Slack sent a sign-in page instead of file ${attachment.platformId}: the bot token needs the files:read scope`);
    }
    await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), createWriteStream(destination));
  }

  private async lookUpFileUrl(fileId: string): Promise<string> {
    const res = await this.web.files.info({ file: fileId });
    const url = res.file?.url_private_download ?? res.file?.url_private;
    if (url === undefined) throw new Error(`files.info for ${fileId} has no download URL (deleted, or hidden by the workspace's plan)`);
    return url;
  }

  private trusted(url: string): boolean {
    const target = new URL(url);
    if (target.protocol === 'https:' && (target.hostname === 'files.slack.com' || target.hostname.endsWith('.slack.com'))) return true;
    return target.origin === new URL(this.apiUrl).origin;
  }

  private rememberThread(key: string): void {
    if (this.botThreads.has(key)) return;
    this.botThreads.add(key);
    if (this.botThreads.size > MAX_THREADS) this.botThreads.delete(this.botThreads.values().next().value as string);
    this.cursor.set(THREADS_KEY, JSON.stringify([...this.botThreads]));
  }
}

function checkLength(text: string): void {
  if (text.length > SLACK_HARD_LIMIT) throw new Error(`a Slack message holds at most ${SLACK_HARD_LIMIT} characters; this one has ${text.length} (split it first)`);
}

function loadThreads(stored: string | undefined, warn: (message: string) => void): string[] {
  if (stored === undefined) return [];
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? parsed.filter((k): k is string => typeof k === 'string') : [];
  } catch (err) {
    // A torn or foreign cursor: start with no remembered threads rather than fail to connect.
    warn(`slack: the remembered bot threads were unreadable and are reset: ${err instanceof Error ? err.message : String(err)}`);
    return [];
  }
}
