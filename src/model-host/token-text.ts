/**
 * Turning a token stream into text safely: never emit half a UTF-8 character, and never emit text
 * that might turn out to be the start of a `<tool_call>` tag.
 */
import type { LlamaModel, Token } from 'node-llama-cpp';

/** Longest byte length of one UTF-8 character: hold at most this many tokens waiting for it to complete. */
const MAX_HELD_TOKENS = 4;
/** Tokens of context given to the detokenizer so word-boundary spaces come out right. */
const LOOKBEHIND_TOKENS = 8;

export class TokenTextDecoder {
  private held: Token[] = [];
  private previous: Token[] = [];

  constructor(private readonly model: LlamaModel) {}

  /** Text completed by this token ('' while a multibyte character is still partial). */
  push(token: Token): string {
    this.held.push(token);
    const text = this.model.detokenize(this.held, true, this.previous);
    // A byte-fallback token holding the first byte(s) of a character decodes to U+FFFD until the rest arrives.
    if (text.endsWith('\uFFFD') && this.held.length < MAX_HELD_TOKENS) return '';
    this.previous = [...this.previous, ...this.held].slice(-LOOKBEHIND_TOKENS);
    this.held = [];
    return text;
  }

  /** Start afresh (after tokens were injected that the decoder did not see). */
  reset(): void {
    this.held = [];
    this.previous = [];
  }
}

/** How many trailing characters of `text` could be the beginning of `tag` (0 when none). */
export function partialTagSuffixLength(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (tag.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}
