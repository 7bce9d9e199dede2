/**
 * Keeps the first and last parts of a stream that may be far larger than we want to hold: the head
 * shows what a command started doing, the tail shows how it ended (errors usually come last).
 */
export class HeadTailBuffer {
  private head = '';
  private tail: string[] = [];
  private tailLength = 0;
  private total = 0;
  private readonly headLimit: number;
  private readonly tailLimit: number;

  constructor(limit: number) {
    this.headLimit = Math.ceil(limit / 2);
    this.tailLimit = Math.floor(limit / 2);
  }

  push(chunk: string): void {
    this.total += chunk.length;
    if (this.head.length < this.headLimit) {
      const room = this.headLimit - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
      if (chunk.length === 0) return;
    }
    this.tail.push(chunk);
    this.tailLength += chunk.length;
    // Drop whole chunks from the front while the rest still fills the tail, then trim one chunk.
    while (this.tail.length > 1 && this.tailLength - (this.tail[0]?.length ?? 0) >= this.tailLimit) {
      this.tailLength -= this.tail.shift()?.length ?? 0;
    }
  }

  get truncated(): boolean {
    return this.total > this.headLimit + this.tailLimit;
  }

  toString(): string {
    const tail = this.tail.join('');
    if (!this.truncated) return this.head + tail;
    const keptTail = this.tailLimit > 0 ? tail.slice(-this.tailLimit) : '';
    const omitted = this.total - this.head.length - keptTail.length;
    return `${this.head}\n\n[... ${omitted} characters of output omitted ...]\n\n${keptTail}`;
  }
}

/** One-shot version for text already in memory. */
export function capHeadTail(text: string, limit: number): { text: string; truncated: boolean } {
  const buffer = new HeadTailBuffer(limit);
  buffer.push(text);
  return { text: buffer.toString(), truncated: buffer.truncated };
}
