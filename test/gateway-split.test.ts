import { describe, expect, it } from 'vitest';
import { splitMessage } from '../src/core/gateway/split-message.js';

/** Long answers for chat platforms: within the limit, cut on paragraphs, never inside a code block, nothing lost. */
const fences = (text: string): number => (text.match(/^```/gm) ?? []).length;

describe('splitMessage', () => {
  it('keeps a short message whole', () => {
    expect(splitMessage('hello\n\nworld', 100)).toEqual(['hello\n\nworld']);
  });

  // Catches a cut in the middle of a paragraph when a paragraph boundary was available.
  it('cuts between paragraphs', () => {
    const a = 'a'.repeat(60);
    const b = 'b'.repeat(60);
    const c = 'c'.repeat(60);
    expect(splitMessage(`${a}\n\n${b}\n\n${c}`, 130)).toEqual([`${a}\n\n${b}`, c]);
  });

  // Catches a code block cut in two where it would have fit whole in the next message.
  it('moves a code block whole into the next message when it fits there', () => {
    const prose = 'p'.repeat(80);
    const code = '```py\nprint(1)\n\nprint(2)\n```';
    const pieces = splitMessage(`${prose}\n\n${code}`, 90);
    expect(pieces).toEqual([prose, code]);
  });

  // Catches an oversized code block cut mid-fence: the continuation would render as prose.
  it('reopens the fence, with its language, when a code block alone is too long', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i}`);
    const pieces = splitMessage(`\`\`\`ts\n${lines.join('\n')}\n\`\`\``, 100);
    expect(pieces.length).toBeGreaterThan(2);
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(100);
      expect(piece.startsWith('```ts\n')).toBe(true);
      expect(piece.endsWith('\n```')).toBe(true);
    }
    expect(pieces.flatMap((p) => p.split('\n').slice(1, -1))).toEqual(lines);
  });

  it('closes an unclosed fence (a model that forgot) in every piece', () => {
    const pieces = splitMessage(`intro\n\n\`\`\`\n${'x = 1\n'.repeat(40)}`, 80);
    for (const piece of pieces.slice(1)) expect(fences(piece) % 2).toBe(0);
  });

  // Catches text dropped when one line is longer than a whole message.
  it('cuts a single overlong line at spaces, then hard, losing nothing', () => {
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ');
    const pieces = splitMessage(words, 50);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(50);
    expect(pieces.join(' ')).toBe(words);
    const blob = 'z'.repeat(130);
    expect(splitMessage(blob, 50).join('')).toBe(blob);
  });

  it('refuses a limit too small to be real', () => {
    expect(() => splitMessage('x'.repeat(100), 5)).toThrow(RangeError);
  });
});
