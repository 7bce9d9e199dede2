import { describe, expect, it } from 'vitest';
import { MarkdownStream, renderMarkdown, stripAnsi, visibleWidth, wrap } from '../src/cli/markdown.js';
import { TerminalRenderer } from '../src/cli/render.js';
import { EXIT_NOTICE, INTERRUPT_NOTICE } from '../src/cli/signals.js';

/** Issue 12: the terminal UI printed the model's markdown raw (`**not**`); it renders it as the peers' terminal agents do. */
const ANSWER = [
  '# Plan',
  '',
  'This is **not** a *drill*: run `npm test` first, then read [the guide](https://example.dev/guide).',
  'A second sentence, long enough that a forty-column terminal has to wrap it onto a further line.',
  '',
  '- install the dependencies',
  '- run the **tests**',
  '  - nested point',
  '',
  '1. first',
  '2. second',
  '',
  '> a quoted line',
  '',
  '```ts',
  "const answer: number = 42; // the answer",
  "function greet() { return 'hello'; }",
  '```',
  '',
  '| tool | status |',
  '|---|---|',
  '| vitest | passed |',
  '',
].join('\n');

const plain = (text: string): string => stripAnsi(text);

describe('renderMarkdown', () => {
  const out = renderMarkdown(ANSWER, { width: 40 });

  it('drops the markup and styles what it meant', () => {
    expect(plain(out)).not.toContain('**');
    expect(plain(out)).not.toContain('`npm test`');
    expect(plain(out)).not.toContain('```');
    expect(out).toContain('\x1b[1mnot\x1b[0m');
    expect(out).toContain('\x1b[3mdrill\x1b[0m');
    expect(out).toContain('\x1b[36mnpm test\x1b[0m');
    expect(plain(renderMarkdown(ANSWER, { width: 200 }))).toContain('read the guide (https://example.dev/guide).');
  });

  it('shows lists with bullets and numbers, nesting indented, and quotes with a bar', () => {
    const lines = plain(out).split('\n');
    expect(lines).toContain('• install the dependencies');
    expect(lines).toContain('• run the tests');
    expect(lines).toContain('  ◦ nested point');
    expect(lines).toContain('1. first');
    expect(lines).toContain('2. second');
    expect(lines).toContain('│ a quoted line');
  });

  it('highlights code blocks by language, unwrapped and indented', () => {
    const lines = plain(out).split('\n');
    expect(lines).toContain('  const answer: number = 42; // the answer');
    expect(out).toContain('\x1b[35mconst\x1b[0m'); // keyword
    expect(out).toContain('\x1b[2m// the answer\x1b[0m'); // comment
    expect(out).toContain("\x1b[32m'hello'\x1b[0m"); // string
  });

  it('aligns table columns', () => {
    const lines = plain(out).split('\n');
    expect(lines).toContain('tool    status');
    expect(lines).toContain('vitest  passed');
  });

  it('wraps prose to the width, code never', () => {
    for (const line of plain(out).split('\n')) if (!line.startsWith('  const') && !line.startsWith('  function')) expect(visibleWidth(line)).toBeLessThanOrEqual(40);
    expect(plain(renderMarkdown('```\n' + 'x'.repeat(120) + '\n```\n', { width: 40 }))).toContain('x'.repeat(120));
  });

  it('wraps CJK text by display width and splits words longer than a line', () => {
    const cjk = wrap('中文句子'.repeat(10), 20, '', '');
    for (const line of cjk.split('\n')) expect(visibleWidth(line)).toBeLessThanOrEqual(20);
    expect(cjk.replace(/\n/g, '')).toBe('中文句子'.repeat(10));
    const long = wrap(`see ${'a'.repeat(50)} here`, 20, '', '');
    for (const line of long.split('\n')) expect(line.length).toBeLessThanOrEqual(20);
    expect(long.replace(/\n/g, '')).toContain('a'.repeat(50).slice(0, 16));
  });

  it('keeps raw HTML as text (model output is untrusted; nothing is interpreted)', () => {
    expect(plain(renderMarkdown('a <b>bold</b> tag\n', { width: 80 }))).toContain('<b>bold</b>');
  });
});

describe('MarkdownStream', () => {
  const streamed = (text: string, size: number, live?: { columns: number }): string => {
    const stream = new MarkdownStream({ width: 40, ...(live ? { live } : {}) });
    let out = '';
    for (let i = 0; i < text.length; i += size) out += stream.push(text.slice(i, i + size));
    return out + stream.end();
  };

  it('prints the same whatever the chunking, and the same markup as the whole answer', () => {
    const whole = streamed(ANSWER, ANSWER.length);
    for (const size of [1, 2, 3, 7, 64]) expect(streamed(ANSWER, size)).toBe(whole);
    for (const line of ['• install the dependencies', '  ◦ nested point', '2. second', '│ a quoted line', 'tool    status', '  const answer: number = 42; // the answer']) expect(plain(whole).split('\n')).toContain(line);
    expect(plain(whole)).not.toContain('**');
  });

  it('renders each line when its newline arrives; holds a code fence until it closes', () => {
    const stream = new MarkdownStream({ width: 40 });
    expect(plain(stream.push('Some **bold** text\n'))).toBe('Some bold text\n');
    expect(stream.push('```sh\nnpm test\n\nnpm run lint\n')).toBe('');
    expect(plain(stream.push('```\n'))).toContain('npm run lint');
  });

  it('live: shows the unfinished line raw, then erases it and prints its rendering', () => {
    const stream = new MarkdownStream({ width: 40, live: { columns: 80 } });
    expect(stream.push('a **slow')).toBe('a **slow');
    const done = stream.push(' answer**\n');
    expect(done.startsWith('\r\x1b[J')).toBe(true);
    expect(plain(done.slice('\r\x1b[J'.length))).toBe('a slow answer\n');
    // A preview that wrapped onto three rows is erased from its first row.
    const wide = new MarkdownStream({ width: 40, live: { columns: 10 } });
    wide.push('x'.repeat(25));
    expect(wide.end().startsWith('\r\x1b[2A\x1b[J')).toBe(true);
  });

  it('never prints terminal escapes from model text', () => {
    const out = streamed('title \x1b]0;pwned\x07 and \x1b[2J clear\n', 3, { columns: 80 });
    expect(out).not.toContain('\x1b]0');
    expect(out).not.toContain('\x1b[2J');
  });
});

describe('TerminalRenderer', () => {
  const events = (renderer: TerminalRenderer): void => {
    for (const delta of ['This is **not** ', 'raw.\n\nSecond ', 'paragraph.']) renderer.render({ type: 'text_delta', delta } as never);
    renderer.render({ type: 'turn_end', reason: 'done' } as never);
  };

  it('renders markdown on a terminal and flushes what is left at the end of the turn', () => {
    let out = '';
    events(new TerminalRenderer({ write: (t) => (out += t) }, { write: (t) => (out += t) }, { color: true, markdown: { width: 80 } }));
    expect(plain(out)).toBe('This is not raw.\n\nSecond paragraph.\n');
  });

  it('keeps the raw markdown when output is not a terminal (pipes, files)', () => {
    let out = '';
    events(new TerminalRenderer({ write: (t) => (out += t) }, { write: (t) => (out += t) }, { color: false }));
    expect(out).toBe('This is **not** raw.\n\nSecond paragraph.\n');
  });
});

describe('Ctrl+C notices', () => {
  it('say that a second press within 2 s exits', () => {
    expect(INTERRUPT_NOTICE).toMatch(/again within 2 s to exit/);
    expect(EXIT_NOTICE).toMatch(/again within 2 s to exit/);
  });
});
