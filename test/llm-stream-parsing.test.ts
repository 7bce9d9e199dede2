import { describe, expect, it } from 'vitest';
import { ReasoningTagSplitter, type SplitPiece } from '../src/core/llm/reasoning-tags.js';
import { SseParser, type SseEvent } from '../src/core/llm/sse.js';

function parseInPieces(body: string, cuts: number[]): SseEvent[] {
  const parser = new SseParser();
  const events: SseEvent[] = [];
  let from = 0;
  for (const cut of [...cuts, body.length]) {
    events.push(...parser.push(body.slice(from, cut)));
    from = cut;
  }
  events.push(...parser.end());
  return events;
}

describe('SSE parsing', () => {
  const body =
    ': OPENROUTER PROCESSING\r\n\r\n' +
    'event: content_block_delta\r\ndata: {"a":1}\r\n\r\n' +
    'data: line one\ndata: line two\n\n' +
    'data:no-space\r\rdata: [DONE]\n\n';
  const expected: SseEvent[] = [
    { event: 'content_block_delta', data: '{"a":1}' },
    { event: 'message', data: 'line one\nline two' },
    { event: 'message', data: 'no-space' },
    { event: 'message', data: '[DONE]' },
  ];

  it('yields the same events however the body is split, including between \\r and \\n (catches chunk-boundary bugs)', () => {
    expect(parseInPieces(body, [])).toEqual(expected);
    for (let cut = 1; cut < body.length; cut++) expect(parseInPieces(body, [cut])).toEqual(expected);
    expect(parseInPieces(body, Array.from({ length: body.length - 1 }, (_, i) => i + 1))).toEqual(expected);
  });

  it('keeps a final event that lacks its blank line (servers that close right after the last data line)', () => {
    expect(parseInPieces('data: {"x":1}\ndata: last', [5])).toEqual([{ event: 'message', data: '{"x":1}\nlast' }]);
  });
});

function split(text: string, size: number): SplitPiece[] {
  const splitter = new ReasoningTagSplitter();
  const pieces: SplitPiece[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(...splitter.push(text.slice(i, i + size)));
  pieces.push(...splitter.end());
  const merged: SplitPiece[] = [];
  for (const p of pieces) {
    const last = merged.at(-1);
    if (last?.kind === p.kind) last.text += p.text;
    else merged.push({ ...p });
  }
  return merged;
}

describe('reasoning tags in content', () => {
  it('moves every supported tag to reasoning at every split point (catches tags leaking into the answer)', () => {
    for (const tag of ['think', 'thinking', 'reasoning', 'REASONING_SCRATCHPAD']) {
      const text = `<${tag}>a < b, so</${tag}>Answer: a<b.`;
      for (let size = 1; size <= text.length; size++) {
        expect(split(text, size)).toEqual([
          { kind: 'reasoning', text: 'a < b, so' },
          { kind: 'text', text: 'Answer: a<b.' },
        ]);
      }
    }
  });

  it('releases a held-back `<` that was not a tag, and keeps an unclosed block as reasoning', () => {
    const splitter = new ReasoningTagSplitter();
    expect(splitter.push('x <thi')).toEqual([{ kind: 'text', text: 'x ' }]);
    expect(splitter.push('s>')).toEqual([{ kind: 'text', text: '<this>' }]);
    expect(split('<think>still thinking when the stream ended', 3)).toEqual([{ kind: 'reasoning', text: 'still thinking when the stream ended' }]);
  });
});
