import type { ModelEvent } from './types.js';

/**
 * Many open models (DeepSeek-R1 distills, Qwen3, QwQ, Hermes) think out loud inside the content:
 * `<think>…</think>`, `<thinking>`, `<reasoning>`, `<REASONING_SCRATCHPAD>`. This moves that text to
 * reasoning events while streaming, holding back only the few characters that might be the start
 * of a tag split across chunks.
 */

const REASONING_TAGS = ['think', 'thinking', 'reasoning', 'REASONING_SCRATCHPAD'];
const OPEN_TAGS = REASONING_TAGS.map((t) => `<${t}>`);

export type SplitPiece = { kind: 'text' | 'reasoning'; text: string };

export class ReasoningTagSplitter {
  private pending = '';
  /** The closing tag we are waiting for; undefined while outside a reasoning block. */
  private closeTag: string | undefined;

  push(chunk: string): SplitPiece[] {
    this.pending += chunk;
    const out: SplitPiece[] = [];
    for (;;) {
      if (this.closeTag === undefined) {
        const open = findFirst(this.pending, OPEN_TAGS);
        if (open) {
          emit(out, 'text', this.pending.slice(0, open.index));
          this.pending = this.pending.slice(open.index + open.tag.length);
          this.closeTag = `</${open.tag.slice(1)}`;
          continue;
        }
        const hold = partialTagSuffixLength(this.pending, OPEN_TAGS);
        emit(out, 'text', this.pending.slice(0, this.pending.length - hold));
        this.pending = this.pending.slice(this.pending.length - hold);
        return out;
      }
      const close = findFirst(this.pending, [this.closeTag]);
      if (close) {
        emit(out, 'reasoning', this.pending.slice(0, close.index));
        this.pending = this.pending.slice(close.index + close.tag.length);
        this.closeTag = undefined;
        continue;
      }
      const hold = partialTagSuffixLength(this.pending, [this.closeTag]);
      emit(out, 'reasoning', this.pending.slice(0, this.pending.length - hold));
      this.pending = this.pending.slice(this.pending.length - hold);
      return out;
    }
  }

  /** End of stream: whatever was held back is released; an unclosed block stays reasoning. */
  end(): SplitPiece[] {
    const out: SplitPiece[] = [];
    emit(out, this.closeTag === undefined ? 'text' : 'reasoning', this.pending);
    this.pending = '';
    this.closeTag = undefined;
    return out;
  }
}

/** Apply the splitter to a model's stream: `text` events lose their tagged reasoning to `reasoning` events. */
export async function* withReasoningTags(events: AsyncIterable<ModelEvent>): AsyncGenerator<ModelEvent, void, undefined> {
  const splitter = new ReasoningTagSplitter();
  const toEvents = (pieces: SplitPiece[]): ModelEvent[] =>
    pieces.map((p) => (p.kind === 'text' ? { type: 'text', delta: p.text } : { type: 'reasoning', delta: p.text }));
  for await (const event of events) {
    if (event.type === 'text') {
      yield* toEvents(splitter.push(event.delta));
      continue;
    }
    // Anything else marks a boundary of the text stream (tool calls, usage, done): release held text first.
    if (event.type !== 'reasoning') yield* toEvents(splitter.end());
    yield event;
  }
  yield* toEvents(splitter.end());
}

function emit(out: SplitPiece[], kind: SplitPiece['kind'], text: string): void {
  if (!text) return;
  const last = out[out.length - 1];
  if (last && last.kind === kind) last.text += text;
  else out.push({ kind, text });
}

/** Earliest occurrence of any of `tags` in `text` at or after `from`, case-insensitively. */
export function findFirst(text: string, tags: string[], from = 0): { index: number; tag: string } | undefined {
  const lower = text.slice(from).toLowerCase();
  let best: { index: number; tag: string } | undefined;
  for (const tag of tags) {
    const found = lower.indexOf(tag.toLowerCase());
    const index = found === -1 ? -1 : found + from;
    // On a tie the longer tag wins (`<thinking>` over a hypothetical shorter prefix tag).
    if (index !== -1 && (!best || index < best.index || (index === best.index && tag.length > best.tag.length))) {
      best = { index, tag };
    }
  }
  return best;
}

/**
 * Length of the longest suffix of `text` that is a proper prefix of one of `tags` (case-insensitive):
 * the characters to hold back because the next chunk may complete them into a tag.
 */
export function partialTagSuffixLength(text: string, tags: string[]): number {
  const lower = text.toLowerCase();
  let longest = 0;
  for (const tag of tags) {
    const t = tag.toLowerCase();
    for (let len = Math.min(t.length - 1, lower.length); len > longest; len--) {
      if (lower.endsWith(t.slice(0, len))) {
        longest = len;
        break;
      }
    }
  }
  return longest;
}
