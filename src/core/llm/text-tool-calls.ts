import { randomUUID } from 'node:crypto';
import { findFirst, partialTagSuffixLength } from './reasoning-tags.js';
import type { ModelEvent, ToolCall, ToolSchema } from './types.js';

/**
 * Some servers (a llama-server without a tool-call template, Ollama with some models, proxies)
 * leave a model's tool calls in the content. This recovers them so the call is executed, not
 * printed: Hermes-style `<tool_call>{"name":…,"arguments":…}</tool_call>` blocks anywhere in the
 * text, or a whole response that is one bare `{"name":…,"arguments":…}` object (optionally in a
 * ```json fence). Only names of the request's tools count, so ordinary JSON answers stay text.
 *
 * Streaming: text that may still turn out to be a call (an open `<tool_call>` block, a leading `{`)
 * is held back until it is decided, then emitted as a call or released as text.
 */

export type ExtractedEvent = { type: 'text'; delta: string } | { type: 'tool_call'; call: ToolCall };

const OPEN = '<tool_call>';
const CLOSE = '</tool_call>';
/** A held-back candidate larger than this is released as text: no model writes a call that big by accident. */
const MAX_HELD_CHARS = 256 * 1024;

type Mode = 'start' | 'bare' | 'text' | 'block';

export class TextToolCallExtractor {
  private readonly toolNames: ReadonlySet<string>;
  private mode: Mode = 'start';
  private pending = '';
  private bare = new BareCallTracker();
  /** In a block: where to resume looking for `</tool_call>` (avoids rescanning a long block). */
  private closeSearchFrom = 0;

  constructor(toolNames: Iterable<string>) {
    this.toolNames = new Set(toolNames);
  }

  push(chunk: string): ExtractedEvent[] {
    this.pending += chunk;
    const out: ExtractedEvent[] = [];
    for (;;) {
      switch (this.mode) {
        case 'start': {
          if (this.pending.trim() === '') return out; // leading whitespace: undecided yet
          this.bare = new BareCallTracker();
          this.mode = this.bare.progress(this.pending) === 'maybe' ? 'bare' : 'text';
          continue;
        }
        case 'bare': {
          if (this.pending.length <= MAX_HELD_CHARS && this.bare.progress(this.pending) === 'maybe') return out;
          this.mode = 'text'; // not a whole-response call after all; it may still contain <tool_call> blocks
          continue;
        }
        case 'text': {
          const open = findFirst(this.pending, [OPEN]);
          if (open) {
            emitText(out, this.pending.slice(0, open.index));
            this.pending = this.pending.slice(open.index + OPEN.length);
            this.mode = 'block';
            this.closeSearchFrom = 0;
            continue;
          }
          const hold = partialTagSuffixLength(this.pending, [OPEN]);
          emitText(out, this.pending.slice(0, this.pending.length - hold));
          this.pending = this.pending.slice(this.pending.length - hold);
          return out;
        }
        case 'block': {
          const close = findFirst(this.pending, [CLOSE], this.closeSearchFrom);
          if (!close) {
            this.closeSearchFrom = Math.max(0, this.pending.length - CLOSE.length);
            if (this.pending.length <= MAX_HELD_CHARS) return out;
            // A runaway block: release it as text rather than hold the whole answer hostage.
            emitText(out, OPEN + this.pending);
            this.pending = '';
            this.mode = 'text';
            return out;
          }
          const inner = this.pending.slice(0, close.index);
          const raw = this.pending.slice(0, close.index + CLOSE.length);
          this.pending = this.pending.slice(close.index + CLOSE.length);
          this.mode = 'text';
          out.push(...this.blockEvents(inner, OPEN + raw));
          continue;
        }
      }
    }
  }

  /** End of the text stream: decide everything still held back. */
  end(): ExtractedEvent[] {
    const out: ExtractedEvent[] = [];
    const pending = this.pending;
    this.pending = '';
    const mode = this.mode;
    this.mode = mode === 'start' ? 'start' : 'text';
    if (mode === 'block') {
      // Unclosed block (the server stopped on `</tool_call>` as a stop word, or ran out of tokens):
      // still the model's attempt at a call; a truncated one reaches the agent as invalid JSON.
      out.push(...this.blockEvents(pending, OPEN + pending));
    } else if (mode === 'bare') {
      const call = this.bareCall(pending);
      if (call) out.push({ type: 'tool_call', call });
      else emitText(out, pending);
    } else {
      emitText(out, pending);
    }
    return out;
  }

  private blockEvents(inner: string, rawWithTags: string): ExtractedEvent[] {
    const body = stripFence(inner.trim());
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch (_invalidJson) {
      // Invalid JSON is still a call the model meant to make: hand the raw text over as the
      // arguments, so the agent tells the model what was wrong instead of dropping its call.
      const name = /"name"\s*:\s*"([^"]+)"/.exec(body)?.[1] ?? 'unparsed_tool_call';
      return [{ type: 'tool_call', call: { id: mintCallId(), name, arguments: body } }];
    }
    const candidates = Array.isArray(parsed) ? parsed : [parsed];
    const calls = candidates.map((c) => this.toCall(c, false));
    if (calls.length === 0 || calls.some((c) => c === undefined)) return [{ type: 'text', delta: rawWithTags }];
    return calls.map((call) => ({ type: 'tool_call', call: call as ToolCall }));
  }

  private bareCall(text: string): ToolCall | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(stripFence(text.trim()));
    } catch (_notJson) {
      return undefined; // an answer that merely starts with `{`: it stays text
    }
    return this.toCall(parsed, true);
  }

  private toCall(value: unknown, requireArguments: boolean): ToolCall | undefined {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
    const obj = value as { name?: unknown; arguments?: unknown; parameters?: unknown };
    if (typeof obj.name !== 'string' || !this.toolNames.has(obj.name)) return undefined;
    const args = obj.arguments ?? obj.parameters;
    if (requireArguments && args === undefined) return undefined;
    const argumentsText = typeof args === 'string' ? args : JSON.stringify(args ?? {});
    return { id: mintCallId(), name: obj.name, arguments: argumentsText };
  }
}

/** Wrap a model's stream so tool calls written into its text become `tool_call` events. */
export async function* withTextToolCalls(
  events: AsyncIterable<ModelEvent>,
  tools: ToolSchema[],
): AsyncGenerator<ModelEvent, void, undefined> {
  if (tools.length === 0) {
    yield* events;
    return;
  }
  const extractor = new TextToolCallExtractor(tools.map((t) => t.name));
  let extractedCalls = 0;
  const convert = function* (pieces: ExtractedEvent[]): Generator<ModelEvent> {
    for (const piece of pieces) {
      if (piece.type === 'tool_call') extractedCalls++;
      yield piece;
    }
  };
  for await (const event of events) {
    if (event.type === 'text') {
      yield* convert(extractor.push(event.delta));
    } else if (event.type === 'reasoning' || event.type === 'fallback') {
      yield event;
    } else {
      yield* convert(extractor.end());
      if (event.type === 'done' && extractedCalls > 0 && event.finishReason === 'stop') {
        yield { type: 'done', finishReason: 'tool_calls' };
      } else {
        yield event;
      }
    }
  }
  yield* convert(extractor.end());
}

export function mintCallId(): string {
  return `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
}

function emitText(out: ExtractedEvent[], text: string): void {
  if (!text) return;
  const last = out[out.length - 1];
  if (last?.type === 'text') last.delta += text;
  else out.push({ type: 'text', delta: text });
}

function stripFence(text: string): string {
  const fenced = /^```[A-Za-z]*\s*\n?([\s\S]*?)\s*```$/.exec(text);
  return fenced?.[1] ?? text;
}

/**
 * Tracks whether the response so far could still be one whole bare call, `{"…` or ```` ```json {"… ````,
 * answering 'no' as soon as it provably cannot so ordinary answers are not held back. Incremental:
 * each push scans only the new characters, so a large held call costs linear time, not quadratic.
 */
class BareCallTracker {
  private bodyStart: number | undefined;
  private fenced = false;
  private rejected = false;
  private scanPos = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private awaitingFirstKey = false;
  private end: number | undefined;

  progress(text: string): 'maybe' | 'no' {
    if (this.rejected) return 'no';
    if (this.bodyStart === undefined) {
      const head = headProgress(text);
      if (head === 'maybe') return 'maybe';
      if (head === 'no') return this.reject();
      this.bodyStart = this.scanPos = head.bodyStart;
      this.fenced = head.fenced;
    }
    for (; this.end === undefined && this.scanPos < text.length; this.scanPos++) {
      const ch = text[this.scanPos] as string;
      if (this.awaitingFirstKey) {
        if (/\s/.test(ch)) continue;
        if (ch !== '"') return this.reject(); // `{ x`, `{}`: not an object with a "name" key
        this.awaitingFirstKey = false;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (ch === '\\') this.escaped = true;
        else if (ch === '"') this.inString = false;
      } else if (ch === '"') this.inString = true;
      else if (ch === '{' || ch === '[') {
        if (this.scanPos === this.bodyStart) this.awaitingFirstKey = true;
        this.depth++;
      } else if (ch === '}' || ch === ']') {
        this.depth--;
        if (this.depth === 0) this.end = this.scanPos;
      }
    }
    if (this.end === undefined) return 'maybe';
    const trailing = text.slice(this.end + 1).trim();
    const fine = this.fenced ? '```'.startsWith(trailing) : trailing === ''; // fenced: '' or a (partial) closing fence
    return fine ? 'maybe' : this.reject();
  }

  private reject(): 'no' {
    this.rejected = true;
    return 'no';
  }
}

/** Where the JSON body of a possible bare call starts, or whether the opening is still undecided. */
function headProgress(text: string): 'maybe' | 'no' | { bodyStart: number; fenced: boolean } {
  const first = /\S/.exec(text);
  if (!first) return 'maybe';
  const i = first.index;
  if (text[i] === '{') return { bodyStart: i, fenced: false };
  const ticks = text.slice(i, i + 3);
  if (ticks.length < 3) return '```'.startsWith(ticks) ? 'maybe' : 'no';
  if (ticks !== '```') return 'no';
  const langRe = /[A-Za-z]*/y;
  langRe.lastIndex = i + 3;
  const lang = langRe.exec(text)?.[0] ?? '';
  if (!'json'.startsWith(lang.toLowerCase())) return 'no';
  let j = i + 3 + lang.length;
  if (j === text.length) return 'maybe';
  if (!/\s/.test(text[j] as string)) return 'no';
  const wsRe = /\s*/y;
  wsRe.lastIndex = j;
  j += wsRe.exec(text)?.[0].length ?? 0;
  if (j === text.length) return 'maybe';
  return text[j] === '{' ? { bodyStart: j, fenced: true } : 'no';
}
