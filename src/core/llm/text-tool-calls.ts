import { randomUUID } from 'node:crypto';
import { findFirst, partialTagSuffixLength } from './reasoning-tags.js';
import { callFromObject, skipSpace, stripFence, valueEnd, type CallRegion, type RegionMemo, type ToolCatalog, type ToolCallFormat } from './tool-call-formats/format.js';
import { TOOL_CALL_FORMATS } from './tool-call-formats/index.js';
import { parseJsonOrPythonLiteral } from './tool-call-formats/python-literal.js';
import type { JsonSchema, ModelEvent, ToolCall, ToolSchema } from './types.js';

/**
 * Models write tool calls into their text in their own formats (`tool-call-formats/`): Hermes
 * `<tool_call>` blocks, Llama's `<|python_tag|>`, Mistral's `[TOOL_CALLS]`, Qwen3-Coder's and GLM's
 * XML, DeepSeek's tool-call tokens, or a whole response that is one bare `{"name", "arguments"}`
 * object. Servers without a tool-call template leave them in the content, and a local model may
 * fall back to its native format. This turns them into calls, and strips the formats' control
 * tokens (`<|im_end|>`, `<|eot_id|>`, …) so they never reach visible text.
 *
 * Streaming: text that may still turn out to be a call (an open region, a possible marker, a
 * leading `{`) is held back until it is decided, then emitted as a call or released as text. The
 * events do not depend on where the chunks split.
 *
 * A call region that cannot be read still reaches the agent as a call, named `unparsed_tool_call`
 * (or the name the text shows) with the raw text as its arguments, so the model is told what was
 * wrong instead of its call vanishing.
 */

export type ExtractedEvent = { type: 'text'; delta: string } | { type: 'tool_call'; call: ToolCall };

/** The name a call gets when its text shows none. */
export const UNPARSED_TOOL_CALL = 'unparsed_tool_call';

/** A held-back candidate larger than this is released as text: no model writes a call that big by accident. */
const MAX_HELD_CHARS = 256 * 1024;

export interface ExtractorOptions {
  /** Formats to read (default: all of them, for text from a server whose model is unknown). */
  formats?: readonly ToolCallFormat[];
  /** Tokens stripped from text (default: the control tokens of `formats`). */
  controlTokens?: readonly string[];
}

/** The formats sharing one opening marker (Hermes, Qwen3-Coder and GLM all open with `<tool_call>`). */
interface MarkerRegion {
  region: CallRegion;
  formats: ToolCallFormat[];
}

type Mode = 'start' | 'bare' | 'text' | 'region';

export class TextToolCallExtractor {
  private readonly tools: ToolCatalog;
  private readonly regions: MarkerRegion[] = [];
  private readonly openMarkers: string[];
  private readonly controlTokens: string[];
  private readonly bareCalls: boolean;
  private mode: Mode = 'start';
  private pending = '';
  private open: MarkerRegion | undefined;
  private bare = new BareCallTracker();
  /**
   * In a held region or bare candidate: how much of `pending` was already searched without finding
   * its end, so each push searches only the new text (plus a marker's length) and a long call costs
   * linear time, not quadratic.
   */
  private searchedTo = 0;
  private regionMemo: RegionMemo = { searched: 0 };
  private readonly longestControlToken: number;

  constructor(tools: Iterable<string | ToolSchema>, options: ExtractorOptions = {}) {
    this.tools = catalog(tools);
    const formats = options.formats ?? TOOL_CALL_FORMATS;
    for (const format of formats) {
      for (const region of format.regions) {
        const shared = this.regions.find((r) => r.region.open.toLowerCase() === region.open.toLowerCase());
        if (shared) shared.formats.push(format);
        else this.regions.push({ region, formats: [format] });
      }
    }
    this.openMarkers = this.regions.map((r) => r.region.open);
    this.controlTokens = [...new Set(options.controlTokens ?? formats.flatMap((f) => f.controlTokens))];
    this.bareCalls = formats.some((f) => f.bareCalls);
    this.longestControlToken = Math.max(0, ...this.controlTokens.map((t) => t.length));
  }

  push(chunk: string): ExtractedEvent[] {
    this.pending += chunk;
    return this.run(false);
  }

  /** End of the text stream: decide everything still held back. */
  end(): ExtractedEvent[] {
    const out = this.run(true);
    // Later text (after a native tool call or usage event) is text, not a fresh response start.
    if (this.mode !== 'start') this.mode = 'text';
    return out;
  }

  private run(atEnd: boolean): ExtractedEvent[] {
    const out: ExtractedEvent[] = [];
    for (;;) {
      switch (this.mode) {
        case 'start': {
          if (this.pending.trim() === '') {
            // Leading whitespace: undecided yet, unless the stream is over.
            if (atEnd) this.flushText(out);
            return out;
          }
          this.bare = new BareCallTracker();
          this.searchedTo = 0;
          this.mode = this.bareCalls && this.bare.progress(this.bareCandidate().text) === 'maybe' ? 'bare' : 'text';
          continue;
        }
        case 'bare': {
          const { text: candidate, stopped } = this.bareCandidate();
          const decide = atEnd || stopped;
          if (!decide && this.pending.length <= MAX_HELD_CHARS && this.bare.progress(candidate) === 'maybe') return out;
          const calls = decide && this.bare.progress(candidate) === 'maybe' ? this.bareResponseCalls(candidate) : undefined;
          if (calls) {
            for (const call of calls) out.push({ type: 'tool_call', call });
            this.pending = this.pending.slice(candidate.length);
            this.mode = 'text';
            continue;
          }
          this.mode = 'text'; // not a whole-response call after all; it may still contain marked calls
          continue;
        }
        case 'text': {
          const hit = findFirst(this.pending, [...this.openMarkers, ...this.controlTokens]);
          if (hit) {
            emitText(out, this.pending.slice(0, hit.index));
            this.pending = this.pending.slice(hit.index + hit.tag.length);
            const region = this.regions.find((r) => r.region.open.toLowerCase() === hit.tag.toLowerCase());
            if (region) {
              this.open = region;
              this.mode = 'region';
              this.searchedTo = 0;
              this.regionMemo = { searched: 0 };
            }
            continue; // a control token is dropped; the text after it goes on
          }
          if (atEnd) {
            this.flushText(out);
            return out;
          }
          const hold = partialTagSuffixLength(this.pending, [...this.openMarkers, ...this.controlTokens]);
          emitText(out, this.pending.slice(0, this.pending.length - hold));
          this.pending = this.pending.slice(this.pending.length - hold);
          return out;
        }
        case 'region': {
          const open = this.open as MarkerRegion;
          if (this.pending === '' && !atEnd) return out;
          if (this.pending.startsWith('`') && !this.pending.startsWith('```')) {
            if (!atEnd && '```'.startsWith(this.pending)) return out; // a fence around the body may be arriving
            // `` `[TOOL_CALLS]` ``: a marker quoted as code is prose about the format, not a call.
            emitText(out, open.region.open);
            this.mode = 'text';
            continue;
          }
          // A control token ends the turn, so it ends an unclosed call too (`<tool_call>{…}<|im_end|>`).
          const stop = this.findControlToken();
          const after = stop ? this.pending.slice(0, stop.index) : this.pending;
          const extent = open.region.extent(after, atEnd || stop !== undefined, this.regionMemo);
          if (!extent) {
            this.searchedTo = this.pending.length;
            this.regionMemo.searched = after.length;
            if (this.pending.length <= MAX_HELD_CHARS) return out;
            // A runaway region: release it as text rather than hold the whole answer hostage.
            emitText(out, open.region.open + this.pending);
            this.pending = '';
            this.mode = 'text';
            return out;
          }
          const body = after.slice(0, extent.bodyEnd);
          const raw = open.region.open + after.slice(0, extent.consumed);
          this.pending = this.pending.slice(extent.consumed);
          this.mode = 'text';
          this.regionEvents(out, open, body, raw);
          continue;
        }
      }
    }
  }

  /**
   * The part of the held text that may be bare calls: a control token ends the turn, so the calls end
   * before it (`{…}<|eot_id|>`); a possible start of one is not looked at yet.
   */
  private bareCandidate(): { text: string; stopped: boolean } {
    const stop = this.findControlToken();
    if (stop) return { text: this.pending.slice(0, stop.index), stopped: true };
    const tail = this.pending.slice(-this.longestControlToken);
    const held = partialTagSuffixLength(tail, this.controlTokens);
    this.searchedTo = this.pending.length;
    return { text: this.pending.slice(0, this.pending.length - held), stopped: false };
  }

  /** The first control token in `pending`, searching only what the last search could not have seen. */
  private findControlToken(): { index: number; tag: string } | undefined {
    return findFirst(this.pending, this.controlTokens, Math.max(0, this.searchedTo - this.longestControlToken));
  }

  private flushText(out: ExtractedEvent[]): void {
    emitText(out, this.pending);
    this.pending = '';
  }

  private regionEvents(out: ExtractedEvent[], open: MarkerRegion, body: string, raw: string): void {
    let result;
    for (const format of open.formats) {
      result = format.parseBody(open.region.open, body, this.tools);
      if (result !== undefined) break;
    }
    if (result === undefined) {
      // No format reads it: prose that mentions the tag stays text; after a special token it is a failed call.
      if (open.region.unknownToolsAreText) emitText(out, raw);
      else out.push(unparsedCall(body));
      return;
    }
    if (result.kind === 'malformed') {
      out.push(unparsedCall(body, result.name));
      return;
    }
    if (open.region.unknownToolsAreText && result.calls.some((c) => !this.tools.has(c.name))) {
      emitText(out, raw);
      return;
    }
    for (const call of result.calls) out.push({ type: 'tool_call', call: { id: mintCallId(), ...call } });
    if (result.trailingText) emitText(out, result.trailingText);
  }

  /** A whole response of bare calls (`{…}` or `{…}; {…}`, maybe fenced), each naming an offered tool. */
  private bareResponseCalls(text: string): ToolCall[] | undefined {
    const body = stripFence(text.trim());
    const calls: ToolCall[] = [];
    let i = skipSpace(body, 0);
    while (i < body.length) {
      const end = valueEnd(body, i);
      if (typeof end !== 'number') return undefined;
      const parsed = parseJsonOrPythonLiteral(body.slice(i, end));
      const call = parsed.ok ? callFromObject(parsed.value, true) : undefined;
      if (!call || !this.tools.has(call.name)) return undefined; // an answer that merely starts with `{`: it stays text
      calls.push({ id: mintCallId(), ...call });
      i = skipSpace(body, end);
      if (i < body.length && body[i] !== ';') return undefined; // calls are separated by `;`, as the tracker requires
      i = skipSpace(body, i + 1);
    }
    return calls.length > 0 ? calls : undefined;
  }
}

function unparsedCall(body: string, name?: string): ExtractedEvent {
  return { type: 'tool_call', call: { id: mintCallId(), name: name ?? UNPARSED_TOOL_CALL, arguments: body.trim() } };
}

function catalog(tools: Iterable<string | ToolSchema>): ToolCatalog {
  const byName = new Map<string, JsonSchema | undefined>();
  for (const tool of tools) {
    if (typeof tool === 'string') byName.set(tool, undefined);
    else byName.set(tool.name, tool.parameters);
  }
  return { has: (name) => byName.has(name), parameters: (name) => byName.get(name) };
}

export interface TextToolCallOptions {
  /**
   * The formats to read; a function is asked at the first event, for a model that learns its format
   * only once loaded. Default: every format.
   */
  formats?: readonly ToolCallFormat[] | (() => readonly ToolCallFormat[]);
}

/** Wrap a model's stream so tool calls written into its text become `tool_call` events. */
export async function* withTextToolCalls(
  events: AsyncIterable<ModelEvent>,
  tools: ToolSchema[],
  options: TextToolCallOptions = {},
): AsyncGenerator<ModelEvent, void, undefined> {
  let extractor: TextToolCallExtractor | undefined;
  const get = (): TextToolCallExtractor => {
    if (extractor) return extractor;
    const formats = typeof options.formats === 'function' ? options.formats() : (options.formats ?? TOOL_CALL_FORMATS);
    // Without tools nothing is a call, but control tokens (and call tokens such as `<|python_tag|>`) stay out of the text.
    const tokens = formats.flatMap((f) => [...f.controlTokens, ...f.regions.filter((r) => !r.unknownToolsAreText).map((r) => r.open)]);
    extractor = new TextToolCallExtractor(tools, tools.length === 0 ? { formats: [], controlTokens: tokens } : { formats });
    return extractor;
  };
  let extractedCalls = 0;
  const convert = function* (pieces: ExtractedEvent[]): Generator<ModelEvent> {
    for (const piece of pieces) {
      if (piece.type === 'tool_call') extractedCalls++;
      yield piece;
    }
  };
  for await (const event of events) {
    if (event.type === 'text') {
      yield* convert(get().push(event.delta));
    } else if (event.type === 'reasoning' || event.type === 'fallback') {
      yield event;
    } else {
      yield* convert(get().end());
      if (event.type === 'done' && extractedCalls > 0 && event.finishReason === 'stop') {
        yield { type: 'done', finishReason: 'tool_calls' };
      } else {
        yield event;
      }
    }
  }
  if (extractor) yield* convert(extractor.end());
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

/**
 * Tracks whether the response so far could still be whole bare calls, `{"…`, `{'…` (a Python dict),
 * `{…}; {…}` (Llama's separator) or ```` ```json {"… ````, answering 'no' as soon as it provably cannot
 * so ordinary answers are not held back. Incremental: each push scans only the new characters, so a
 * large held call costs linear time, not quadratic.
 */
class BareCallTracker {
  private bodyStart: number | undefined;
  private fenced = false;
  private rejected = false;
  private scanPos = 0;
  private depth = 0;
  private quote: string | undefined;
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
    for (;;) {
      for (; this.end === undefined && this.scanPos < text.length; this.scanPos++) {
        const ch = text[this.scanPos] as string;
        if (this.awaitingFirstKey) {
          if (/\s/.test(ch)) continue;
          if (ch !== '"' && ch !== "'") return this.reject(); // `{ x`, `{}`: not an object with a "name" key
          this.awaitingFirstKey = false;
        }
        if (this.quote !== undefined) {
          if (this.escaped) this.escaped = false;
          else if (ch === '\\') this.escaped = true;
          else if (ch === this.quote) this.quote = undefined;
        } else if (ch === '"' || ch === "'") this.quote = ch;
        else if (ch === '{' || ch === '[') {
          if (this.scanPos === this.bodyStart) this.awaitingFirstKey = true;
          this.depth++;
        } else if (ch === '}' || ch === ']') {
          this.depth--;
          if (this.depth === 0) this.end = this.scanPos;
        }
      }
      if (this.end === undefined) return 'maybe';
      const next = skipSpace(text, this.end + 1);
      if (next === text.length) return 'maybe';
      if (text[next] === ';') {
        // Llama writes several calls as `{…}; {…}`: the next object starts a new scan.
        const following = skipSpace(text, next + 1);
        if (following === text.length) return 'maybe';
        if (text[following] !== '{') return this.reject();
        this.bodyStart = this.scanPos = following;
        this.end = undefined;
        continue;
      }
      const trailing = text.slice(next).trim();
      return this.fenced && '```'.startsWith(trailing) ? 'maybe' : this.reject(); // fenced: a (partial) closing fence
    }
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
