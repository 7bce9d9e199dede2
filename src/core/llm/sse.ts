/**
 * Server-Sent Events parsing (the WHATWG event-stream format), incremental: input arrives in
 * whatever pieces the network delivers, split anywhere — mid-line, mid-CRLF, mid-multibyte
 * character (the decoder upstream handles that last one).
 */

export interface SseEvent {
  /** The `event:` field; `message` when the server sent none. */
  event: string;
  /** All `data:` lines of the event joined with `\n`. */
  data: string;
}

export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  /** A chunk ended in `\r`: if the next starts with `\n`, that `\n` belongs to the same line break. */
  private pendingCr = false;

  /** Feed one piece of the body; returns the events it completed. */
  push(chunk: string): SseEvent[] {
    let text = chunk;
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;
    const events: SseEvent[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) break;
      // A lone `\r` at the very end may be the first half of a CRLF split across chunks.
      if (match[0] === '\r' && match.index === this.buffer.length - 1) this.pendingCr = true;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  /** End of body: a final event without its blank line still counts (some servers omit it). */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    if (this.buffer) {
      const event = this.line(this.buffer);
      this.buffer = '';
      if (event) events.push(event);
    }
    const last = this.dispatch();
    if (last) events.push(last);
    return events;
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined; // comment / keep-alive
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    // `id` and `retry` matter only to EventSource reconnection, which a POST stream never does.
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    if (this.data.length === 0) {
      this.event = '';
      return undefined;
    }
    const event = { event: this.event || 'message', data: this.data.join('\n') };
    this.event = '';
    this.data = [];
    return event;
  }
}

/** Events from a stream of body chunks. */
export async function* parseSse(chunks: AsyncIterable<string>): AsyncGenerator<SseEvent, void, undefined> {
  const parser = new SseParser();
  for await (const chunk of chunks) yield* parser.push(chunk);
  yield* parser.end();
}
