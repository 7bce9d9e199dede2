/**
 * A Server-Sent Events reader for signal-cli's `GET /api/v1/events` (the WHATWG event-stream format: `id:`,
 * `event:`, `data:` lines, a blank line ends an event, a line starting with `:` is a comment; signal-cli sends
 * `:` every 15 s as a keep-alive). Written here rather than taken from a package because the stream needs only
 * this, and the adapter must see `id` to resume with `Last-Event-ID`.
 */
export interface SseEvent {
  /** The event's `id:`, when the server sent one (recent signal-cli versions number them and replay what a client missed when it reconnects with `Last-Event-ID`). */
  id: string | undefined;
  /** `message` when the server named none, as the spec says. */
  event: string;
  data: string;
}

/** Yields each complete event; an event cut off by the end of the stream is dropped, as the spec says. */
export async function* readServerSentEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  let id: string | undefined;
  let event = '';
  let data: string[] = [];
  let sawField = false;

  const takeLine = (line: string): SseEvent | undefined => {
    if (line === '') {
      if (!sawField) return undefined;
      const done: SseEvent = { id, event: event === '' ? 'message' : event, data: data.join('\n') };
      event = '';
      data = [];
      sawField = false;
      return done;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    // The spec: an id holding NUL is ignored; the last id seen stays in force for later events.
    else if (field === 'id' && !value.includes('\0')) id = value;
    else return undefined;
    sawField = true;
    return undefined;
  };

  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let start = 0;
    for (;;) {
      const lf = buffer.indexOf('\n', start);
      const cr = buffer.indexOf('\r', start);
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      // A lone CR at the end of a chunk may be the first half of CRLF: wait for the next chunk.
      if (end === -1 || (end === cr && end === buffer.length - 1)) break;
      const line = buffer.slice(start, end);
      start = end + (buffer[end] === '\r' && buffer[end + 1] === '\n' ? 2 : 1);
      const complete = takeLine(line);
      if (complete !== undefined) yield complete;
    }
    buffer = buffer.slice(start);
  }
}
