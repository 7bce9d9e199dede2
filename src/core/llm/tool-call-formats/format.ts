/**
 * What one tool-call format is, as data: how to recognise the model that writes it, where a call
 * starts and ends in the text, how its body becomes calls, and which control tokens of its chat
 * template must never reach visible text. The extractor (`../text-tool-calls.ts`) runs any set of
 * these over a stream; `index.ts` holds the table and picks one for a model.
 */
import { findFirst } from '../reasoning-tags.js';
import type { JsonSchema } from '../types.js';

/** The tools a request offers, by name, with their parameter schemas when known. */
export interface ToolCatalog {
  has(name: string): boolean;
  /** JSON Schema of `name`'s arguments, when known (lets XML formats type their string values). */
  parameters(name: string): JsonSchema | undefined;
}

export interface ParsedCall {
  name: string;
  /** JSON text of the arguments object, or the model's raw text when it could not be read. */
  arguments: string;
}

/**
 * What a body parser made of the text of one call region:
 * - `calls`: the calls, plus any text the model wrote after them inside the region;
 * - `malformed`: it is this format's call but cannot be read; the raw text goes to the agent;
 * - undefined: not this format's body (another format sharing the marker may read it).
 */
export type BodyResult =
  | { kind: 'calls'; calls: ParsedCall[]; trailingText?: string }
  | { kind: 'malformed'; name?: string }
  | undefined;

/** Where a call region's text ends, measured from just after its opening marker. */
export interface RegionExtent {
  /** End of the body handed to the parser. */
  bodyEnd: number;
  /** Characters the region takes from the text (body plus any closing marker). */
  consumed: number;
}

export interface CallRegion {
  /** The marker that opens a call (matched case-insensitively). */
  open: string;
  /**
   * The extent of the call in `after` (the text after `open`), or undefined while the call may still
   * grow. With `atEnd` (the stream ended, or a control token ended the turn) it must decide.
   * `memo`: this region's scratch state from the previous calls (to continue a search, not redo it).
   */
  extent(after: string, atEnd: boolean, memo: RegionMemo): RegionExtent | undefined;
  /**
   * true for markers that also appear in prose (`<tool_call>`): a call to a tool the request does not
   * offer stays text. false for special tokens (`<|python_tag|>`): it is a call, and the agent tells
   * the model the tool does not exist.
   */
  unknownToolsAreText: boolean;
}

export interface FormatRecognition {
  /** Text in a GGUF `tokenizer.chat_template` (or a server's template) that only this format's template has. */
  templateMarkers: readonly string[];
  /** GGUF `general.architecture` values of models that write this format. */
  architectures?: readonly string[];
  /** Matched against GGUF `general.name` (or a model id) when the template says nothing. */
  modelName?: RegExp;
}

export interface ToolCallFormat {
  name: ToolCallFormatName;
  recognise: FormatRecognition;
  regions: readonly CallRegion[];
  /** End-of-turn and role tokens of the template: stripped from text, and they end an open call region. */
  controlTokens: readonly string[];
  /** Whether a whole response that is one bare JSON call (or `;`-separated calls) counts as calls. */
  bareCalls: boolean;
  /** Read the body of a region opened by `open`. */
  parseBody(open: string, body: string, tools: ToolCatalog): BodyResult;
}

export type ToolCallFormatName = 'hermes' | 'llama3' | 'mistral' | 'qwen3-coder' | 'deepseek-v3' | 'glm-4.5';

/** A region that ends at a closing marker (or, unclosed, where the stream or turn ends). */
export function closedBy(open: string, close: string, unknownToolsAreText: boolean): CallRegion {
  return {
    open,
    unknownToolsAreText,
    extent(after, atEnd, memo) {
      const found = findFirst(after, [close], Math.max(0, memo.searched - close.length));
      if (found) return { bodyEnd: found.index, consumed: found.index + close.length };
      return atEnd ? { bodyEnd: after.length, consumed: after.length } : undefined;
    },
  };
}

/** Where a scan of a JSON value stopped, to resume it when more text arrives. */
export interface ValueScan {
  start: number;
  pos: number;
  depth: number;
  quote: string | undefined;
}

/**
 * Scratch state an extractor keeps for one open region, so each chunk continues the previous search
 * instead of starting over and a long call costs linear time. The text only grows while the region is
 * open (a cut at a control token is the last call).
 */
export interface RegionMemo {
  /** The length of `after` at the previous call, which found no end. */
  searched: number;
  /** The unfinished value scan of the previous call. */
  scan?: ValueScan;
}

/**
 * Where the JSON (or Python-literal) value starting at `start` ends: the index just past its
 * closing bracket, 'open' while it is still unclosed, or 'invalid' when `start` is not an object
 * or array. Strings in either quote are skipped, so brackets inside them do not count. With `memo`
 * (the same text, grown), an unfinished scan resumes where it stopped.
 */
export function valueEnd(text: string, start: number, memo?: RegionMemo): number | 'open' | 'invalid' {
  const first = text[start];
  if (first !== '{' && first !== '[') return 'invalid';
  const previous = memo?.scan;
  const scan: ValueScan = previous && previous.start === start && previous.pos <= text.length ? { ...previous } : { start, pos: start, depth: 0, quote: undefined };
  for (; scan.pos < text.length; scan.pos++) {
    const ch = text[scan.pos] as string;
    if (scan.quote !== undefined) {
      if (ch === '\\') {
        if (scan.pos + 1 >= text.length) break; // the escaped character has not arrived: resume at the backslash
        scan.pos++;
      } else if (ch === scan.quote) scan.quote = undefined;
    } else if (ch === '"' || ch === "'") scan.quote = ch;
    else if (ch === '{' || ch === '[') scan.depth++;
    else if (ch === '}' || ch === ']') {
      scan.depth--;
      if (scan.depth === 0) return scan.pos + 1;
    }
  }
  if (memo) memo.scan = scan;
  return 'open';
}

/** Index of the first non-whitespace character at or after `from` (text.length when none). */
export function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text[i] as string)) i++;
  return i;
}

/** `{"name": …, "arguments"|"parameters": …}` → a call; undefined for anything else. */
export function callFromObject(value: unknown, requireArguments = false): ParsedCall | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const obj = value as { name?: unknown; arguments?: unknown; parameters?: unknown; function?: unknown };
  if (typeof obj.name !== 'string' || obj.name === '') return undefined;
  const args = obj.arguments ?? obj.parameters;
  if (requireArguments && args === undefined) return undefined;
  return { name: obj.name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) };
}

/** The `"name": "…"` (or `'name': '…'`) a malformed call still shows, so the agent can say which call failed. */
export function guessName(text: string): string | undefined {
  return /["']name["']\s*:\s*["']([^"'\n]+)["']/.exec(text)?.[1];
}

/** Strip a ```json … ``` fence around a body. */
export function stripFence(text: string): string {
  const fenced = /^```[A-Za-z]*\s*\n?([\s\S]*?)\s*```$/.exec(text);
  return fenced?.[1] ?? text;
}
