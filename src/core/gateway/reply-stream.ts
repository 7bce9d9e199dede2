import { errorMessage } from '../errors.js';
import { splitMessage } from './split-message.js';
import type { PlatformAdapter } from './types.js';

export interface ReplyTarget {
  chatId: string;
  threadId?: string;
  /** The user's message this answers (the first piece replies to it). */
  replyTo?: string;
}

/**
 * One answer on its way to a chat. Where the platform can edit, the answer grows in place: the first text is
 * sent at once and the message is edited as text arrives, at most once per the platform's `minEditIntervalMs`;
 * past the size limit the answer continues in a new message. Elsewhere it is sent whole at `finish`. Pieces are
 * cut by `splitMessage` (paragraphs, never inside a code block). Sends and edits run one at a time, in order.
 */
export class ReplyStream {
  private text = '';
  private readonly sent: { id: string; text: string }[] = [];
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private lastFlushAt = Number.NEGATIVE_INFINITY;
  private failure: unknown = null;

  constructor(
    private readonly adapter: PlatformAdapter,
    private readonly target: ReplyTarget,
    private readonly warn: (message: string) => void,
  ) {}

  get hasText(): boolean {
    return this.text.trim() !== '';
  }

  /** Ids of the messages this answer was sent as, in order. */
  get messageIds(): string[] {
    return this.sent.map((s) => s.id);
  }

  append(delta: string): void {
    if (delta === '') return;
    this.text += delta;
    if (this.adapter.limits.canEdit) this.schedule();
  }

  /** Starts a new paragraph before the next text (the agent spoke, ran a tool, and speaks again). */
  paragraph(): void {
    if (this.text !== '' && !this.text.endsWith('\n\n')) this.text += '\n\n';
  }

  /** Sends what is left and waits for every send and edit. Throws when the answer could not be delivered. */
  async finish(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.text = this.text.trimEnd();
    this.failure = null;
    await this.enqueue();
    if (this.failure !== null) throw this.failure;
  }

  private schedule(): void {
    if (this.timer !== null) return;
    const wait = Math.max(0, this.lastFlushAt + this.adapter.limits.minEditIntervalMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      // A failed edit while streaming is retried by the next flush; say what happened once.
      void this.enqueue().then(() => {
        if (this.failure !== null) this.warn(`Streaming an answer to ${this.adapter.platform} chat ${this.target.chatId} failed (retried at the end): ${errorMessage(this.failure)}`);
        this.failure = null;
      });
    }, wait);
  }

  private enqueue(): Promise<void> {
    this.chain = this.chain.then(() => this.flush());
    return this.chain;
  }

  private async flush(): Promise<void> {
    this.lastFlushAt = Date.now();
    // Leading blank lines (a note appended to an answer with no text) are no part of the message.
    const visible = this.text.replace(/^\s*\n/, '').trimEnd();
    if (visible === '') return;
    const pieces = splitMessage(visible, this.adapter.limits.maxMessageChars);
    try {
      for (const [i, piece] of pieces.entries()) {
        const earlier = this.sent[i];
        if (earlier === undefined) {
          const first = i === 0 && this.target.replyTo !== undefined ? { replyTo: this.target.replyTo } : {};
          const { messageId } = await this.adapter.send({ chatId: this.target.chatId, ...(this.target.threadId === undefined ? {} : { threadId: this.target.threadId }), text: piece, ...first });
          this.sent.push({ id: messageId, text: piece });
        } else if (earlier.text !== piece) {
          await this.adapter.edit(this.target.chatId, earlier.id, piece);
          earlier.text = piece;
        }
      }
    } catch (err) {
      this.failure = err;
    }
  }
}
