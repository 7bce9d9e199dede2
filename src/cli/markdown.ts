import { createRequire } from 'node:module';
import MarkdownIt from 'markdown-it';

/**
 * The model's markdown for a terminal, as the peers' terminal agents show it: emphasis in bold/italic, headings
 * bold, lists with bullets and numbers, block quotes with a bar, inline code and highlighted code blocks, links
 * as "text (url)", paragraphs wrapped to the terminal's width. The same parser as the app (markdown-it, raw
 * HTML off), walked token by token into ANSI instead of HTML.
 *
 * Streaming (`MarkdownStream`): a block is printed once it is complete (a blank line outside a code fence, or a
 * fence's closing line), so emphasis and wrapping are decided on whole paragraphs; the rest is flushed at the
 * end of the answer. Output that is not a terminal keeps the raw markdown (render.ts decides).
 */

/**
 * highlight.js, loaded when the first code block is printed, through the two calls used here. Its own typings
 * pull the DOM library into every file of the Node build (they reference lib "dom"), which retypes fetch's
 * streams for the whole core; this narrow interface keeps them out.
 */
interface Highlighter {
  getLanguage(name: string): unknown;
  highlight(code: string, options: { language: string; ignoreIllegals: boolean }): { value: string };
  highlightAuto(code: string): { value: string };
}
let highlighter: Highlighter | undefined;
const hljs = (): Highlighter => (highlighter ??= createRequire(import.meta.url)('highlight.js/lib/common') as Highlighter);

const md = new MarkdownIt({ html: false, linkify: true, breaks: false });
type Token = ReturnType<typeof md.parse>[number];
md.disable('image');

const ESC = '\x1b[';
const sgr = (code: string, text: string): string => `${ESC}${code}m${text}${ESC}0m`;

/** highlight.js scopes to ANSI colours; anything unlisted prints plain. */
const SCOPE_COLOURS: Record<string, string> = {
  keyword: '35', built_in: '36', type: '36', literal: '33', number: '33', string: '32', regexp: '32', symbol: '33',
  comment: '2', doc: '2', meta: '2', title: '34', 'title.function': '34', 'title.class': '36', attr: '33',
  attribute: '33', variable: '31', params: '0', section: '1;34', bullet: '33', emphasis: '3', strong: '1',
  addition: '32', deletion: '31', selector: '35', tag: '36', name: '36',
};

export interface TerminalMarkdownOptions {
  /** Columns to wrap prose to; code blocks are never wrapped. */
  width: number;
  /** false (NO_COLOR): the same layout (bullets, wrapping, no markup) without ANSI styling. */
  color?: boolean;
}

export function renderMarkdown(text: string, options: TerminalMarkdownOptions): string {
  const tokens = md.parse(text, {});
  const out: string[] = [];
  renderBlocks(tokens, 0, tokens.length, { width: Math.max(20, options.width), indent: '', out });
  const rendered = out.join('').replace(/\n{3,}/g, '\n\n');
  return options.color === false ? stripAnsi(rendered) : rendered;
}

interface BlockContext {
  width: number;
  /** Prefix for every line of the current block (list nesting, quote bars). */
  indent: string;
  out: string[];
}

function renderBlocks(tokens: Token[], from: number, to: number, ctx: BlockContext): void {
  const lists: Array<{ ordered: boolean; next: number }> = [];
  let itemPrefix: string | null = null;
  let quoteDepth = 0;
  for (let i = from; i < to; i++) {
    const t = tokens[i] as Token;
    const bar = '│ '.repeat(quoteDepth);
    const indent = `${ctx.indent}${bar}${'  '.repeat(Math.max(0, lists.length - 1))}`;
    switch (t.type) {
      case 'heading_open': {
        const inline = tokens[i + 1];
        const level = Number(t.tag.slice(1));
        const text = inline?.type === 'inline' ? renderInline(inline.children ?? []) : '';
        ctx.out.push(`${indent}${sgr(level <= 2 ? '1;4' : '1', stripAnsi(text))}\n\n`);
        i += 2;
        break;
      }
      case 'paragraph_open': {
        const inline = tokens[i + 1];
        const text = inline?.type === 'inline' ? renderInline(inline.children ?? []) : '';
        const first = itemPrefix ?? indent;
        const rest = itemPrefix === null ? indent : ' '.repeat(visibleWidth(itemPrefix));
        itemPrefix = null;
        ctx.out.push(`${wrap(text, ctx.width, first, rest)}\n`);
        // Tight list items have hidden paragraphs: no blank line between items.
        if (!t.hidden) ctx.out.push('\n');
        i += 2;
        break;
      }
      case 'bullet_list_open':
      case 'ordered_list_open':
        lists.push({ ordered: t.type === 'ordered_list_open', next: Number(t.attrGet('start') ?? 1) });
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
        lists.pop();
        if (lists.length === 0) ctx.out.push('\n');
        break;
      case 'list_item_open': {
        const list = lists[lists.length - 1];
        const marker = list === undefined ? '•' : list.ordered ? `${list.next++}.` : lists.length > 1 ? '◦' : '•';
        itemPrefix = `${indent}${marker} `;
        break;
      }
      case 'list_item_close':
        // An item with no paragraph (e.g. only a code block) still showed its marker.
        if (itemPrefix !== null) ctx.out.push(`${itemPrefix}\n`);
        itemPrefix = null;
        break;
      case 'blockquote_open':
        quoteDepth += 1;
        break;
      case 'blockquote_close':
        quoteDepth -= 1;
        break;
      case 'fence':
      case 'code_block': {
        if (itemPrefix !== null) {
          ctx.out.push(`${itemPrefix}\n`);
          itemPrefix = null;
        }
        const language = t.info.trim().split(/\s+/)[0] ?? '';
        const body = highlight(t.content.replace(/\n$/, ''), language);
        const codeIndent = `${indent}${lists.length > 0 ? '  ' : ''}`;
        if (language !== '') ctx.out.push(`${codeIndent}${sgr('2', language)}\n`);
        ctx.out.push(`${body.split('\n').map((line) => `${codeIndent}  ${line}`).join('\n')}\n\n`);
        break;
      }
      case 'hr':
        ctx.out.push(`${indent}${sgr('2', '─'.repeat(Math.min(ctx.width, 40)))}\n\n`);
        break;
      case 'table_open': {
        const end = tokens.findIndex((x, j) => j > i && x.type === 'table_close');
        ctx.out.push(renderTable(tokens.slice(i, end === -1 ? to : end + 1), indent));
        i = end === -1 ? to : end;
        break;
      }
      default:
        break;
    }
  }
}

/** Inline tokens to ANSI: emphasis, code, links (text then the address, which a terminal can open). */
function renderInline(tokens: Token[]): string {
  let out = '';
  const open: string[] = [];
  let link: string | null = null;
  let linkText = '';
  const emit = (text: string): void => {
    if (link !== null) linkText += text;
    else out += text;
  };
  const styled = (text: string): string => (open.length === 0 ? text : `${ESC}${open.join(';')}m${text}${ESC}0m`);
  for (const t of tokens) {
    switch (t.type) {
      case 'text':
        emit(styled(t.content));
        break;
      case 'strong_open':
        open.push('1');
        break;
      case 'em_open':
        open.push('3');
        break;
      case 's_open':
        open.push('9');
        break;
      case 'strong_close':
      case 'em_close':
      case 's_close':
        open.pop();
        break;
      case 'code_inline':
        emit(sgr('36', t.content));
        break;
      case 'softbreak':
        emit(' ');
        break;
      case 'hardbreak':
        emit('\n');
        break;
      case 'link_open':
        link = String(t.attrGet('href') ?? '');
        linkText = '';
        break;
      case 'link_close': {
        const href = link ?? '';
        link = null;
        const plain = stripAnsi(linkText);
        // An autolinked URL is its own text: print it once.
        out += plain === href || `mailto:${plain}` === href ? sgr('4;34', plain) : `${sgr('4', linkText)} ${sgr('2', `(${href})`)}`;
        break;
      }
      default:
        if (t.content !== '') emit(styled(t.content));
    }
  }
  return out;
}

function renderTable(tokens: Token[], indent: string): string {
  const rows: string[][] = [];
  let row: string[] | null = null;
  for (const [j, t] of tokens.entries()) {
    if (t.type === 'tr_open') row = [];
    else if (t.type === 'tr_close' && row !== null) {
      rows.push(row);
      row = null;
    } else if ((t.type === 'th_open' || t.type === 'td_open') && row !== null) {
      const inline = tokens[j + 1];
      row.push(inline?.type === 'inline' ? renderInline(inline.children ?? []) : '');
    }
  }
  const columns = Math.max(0, ...rows.map((r) => r.length));
  const widths = Array.from({ length: columns }, (_, c) => Math.max(0, ...rows.map((r) => visibleWidth(r[c] ?? ''))));
  const line = (cells: string[]): string => `${indent}${cells.map((cell, c) => cell + ' '.repeat((widths[c] ?? 0) - visibleWidth(cell))).join('  ')}`.trimEnd();
  const [head, ...body] = rows;
  if (head === undefined) return '';
  return `${[sgr('1', stripAnsi(line(head))), `${indent}${sgr('2', widths.map((w) => '─'.repeat(w)).join('  '))}`, ...body.map(line)].join('\n')}\n\n`;
}

/** highlight.js's HTML, read back into ANSI colours. Unknown language: auto-detect only for longer code. */
function highlight(code: string, language: string): string {
  let html: string;
  try {
    if (language !== '' && hljs().getLanguage(language) !== undefined) html = hljs().highlight(code, { language, ignoreIllegals: true }).value;
    else if (code.length > 80) html = hljs().highlightAuto(code).value;
    else return code;
  } catch {
    return code; // a highlighter bug must not lose the code: print it plain
  }
  const stack: string[] = [];
  let out = '';
  const colour = (): string | undefined => {
    for (let k = stack.length - 1; k >= 0; k--) {
      const code = SCOPE_COLOURS[stack[k] as string];
      if (code !== undefined) return code;
    }
    return undefined;
  };
  for (const part of html.split(/(<span class="[^"]*">|<\/span>)/)) {
    if (part.startsWith('<span')) stack.push((/class="hljs-([^"\s]+)/.exec(part)?.[1] ?? '').replace(/_$/, ''));
    else if (part === '</span>') stack.pop();
    else if (part !== '') {
      const text = decodeEntities(part);
      const c = colour();
      // Colour each line on its own, so a multi-line string or comment does not bleed into the indent.
      out += c === undefined ? text : text.split('\n').map((l) => (l === '' ? '' : sgr(c, l))).join('\n');
    }
  }
  return out;
}

function decodeEntities(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|#x27|#39);/g, (_m, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', '#x27': "'", '#39': "'" })[e] ?? _m);
}

// eslint's no-control-regex: the escape character is the point here.
const ANSI = new RegExp(`${ESC.replace('[', '\\[')}[0-9;]*m`, 'g');

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** Columns a string takes: ANSI codes take none, East Asian wide characters two. */
export function visibleWidth(text: string): number {
  let width = 0;
  for (const ch of stripAnsi(text)) {
    const c = ch.codePointAt(0) ?? 0;
    if (c < 32 || (c >= 0x300 && c <= 0x36f) || c === 0x200b) continue;
    width += isWide(c) ? 2 : 1;
  }
  return width;
}

function isWide(c: number): boolean {
  return (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) || (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) || (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1faff) || (c >= 0x20000 && c <= 0x3fffd);
}

/**
 * Word-wraps `text` (which may hold ANSI codes and hard breaks) to `width` columns: the first line after
 * `first`, the others after `rest`. A word longer than the line is split; CJK text breaks between characters.
 */
export function wrap(text: string, width: number, first: string, rest: string): string {
  const lines: string[] = [];
  for (const [n, paragraph] of text.split('\n').entries()) {
    let line = n === 0 ? first : rest;
    let lineWidth = visibleWidth(line);
    let atStart = true;
    const prefixWidth = visibleWidth(rest);
    // Words, with CJK characters as words of their own (they may break anywhere).
    for (const word of paragraph.split(/ +|(?<=[\u2e80-\ua4cf\uac00-\ud7a3\uff00-\uff60])(?=[\u2e80-\ua4cf\uac00-\ud7a3\uff00-\uff60])/)) {
      if (word === '') continue;
      const w = visibleWidth(word);
      const cjk = /^[\u2e80-\ua4cf\uac00-\ud7a3\uff00-\uff60]/.test(stripAnsi(word));
      const gap = atStart || cjk ? 0 : 1;
      if (!atStart && lineWidth + gap + w > width) {
        lines.push(line);
        line = rest;
        lineWidth = prefixWidth;
        atStart = true;
      }
      if (atStart && lineWidth + w > width && w > width - prefixWidth) {
        // A word wider than a whole line (a URL, a hash): split it by characters rather than overflow.
        for (const ch of [...stripAnsi(word)]) {
          if (lineWidth + visibleWidth(ch) > width) {
            lines.push(line);
            line = rest;
            lineWidth = prefixWidth;
          }
          line += ch;
          lineWidth += visibleWidth(ch);
        }
        atStart = false;
        continue;
      }
      line += (atStart || cjk ? '' : ' ') + word;
      lineWidth += (atStart || cjk ? 0 : 1) + w;
      atStart = false;
    }
    lines.push(line);
  }
  return lines.join('\n');
}

/**
 * Streams an answer as markdown, line by line as the peers' terminal agents do: each complete line is rendered
 * as soon as its newline arrives (a code fence or a table once it is complete, since highlighting and column
 * widths need all of it). With `live`, the line still being written is shown raw as it streams and replaced by
 * its rendering when it ends, so a slow answer is never invisible.
 */
export class MarkdownStream {
  private pending = '';
  /** What the live preview has put on screen since the last committed line (to erase it). */
  private shown = '';

  constructor(private readonly options: TerminalMarkdownOptions & { live?: { columns: number } }) {}

  push(delta: string): string {
    // Model text is untrusted: a terminal escape in it must not drive the user's terminal.
    const clean = delta.replace(CONTROL, '');
    this.pending += clean;
    const cut = committableEnd(this.pending);
    if (cut === 0) {
      if (this.options.live === undefined) return '';
      this.shown += clean;
      return clean;
    }
    const ready = this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut);
    const out = `${this.erasePreview()}${renderLines(ready, this.options)}`;
    if (this.options.live === undefined || this.pending === '') return out;
    this.shown = this.pending;
    return `${out}${this.pending}`;
  }

  end(): string {
    const rest = this.pending;
    this.pending = '';
    const erase = this.erasePreview();
    return rest.trim() === '' ? erase : `${erase}${renderLines(`${rest}\n`, this.options)}`;
  }

  /** Cursor back to where the preview began, and the screen cleared from there (the preview may have wrapped). */
  private erasePreview(): string {
    if (this.shown === '' || this.options.live === undefined) return '';
    const columns = Math.max(1, this.options.live.columns);
    const rows = this.shown.split('\n').reduce((sum, line) => sum + Math.max(1, Math.ceil(visibleWidth(line) / columns)), 0);
    this.shown = '';
    return `\r${rows > 1 ? `${ESC}${rows - 1}A` : ''}${ESC}J`;
  }
}

// C0 controls but tab and newline, and DEL: never printed from model text.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const TABLE_ROW = /^\s*\|/;

/** Where the text that can be rendered now ends: complete lines, with fences and tables complete too. */
function committableEnd(text: string): number {
  let end = 0;
  let at = 0;
  let fence: string | null = null;
  let table = false;
  while (at < text.length) {
    const newline = text.indexOf('\n', at);
    if (newline === -1) break;
    const line = text.slice(at, newline);
    const marker = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
        fence = null;
        end = newline + 1;
      }
    } else if (marker !== undefined) {
      if (table) end = at;
      table = false;
      fence = marker;
    } else if (TABLE_ROW.test(line)) {
      if (!table) end = at;
      table = true;
    } else {
      table = false;
      end = newline + 1;
    }
    at = newline + 1;
  }
  return end;
}

/** Complete lines to ANSI: fences and tables as blocks, every other line on its own, blank lines kept. */
function renderLines(text: string, options: TerminalMarkdownOptions): string {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let out = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() === '') {
      out += '\n';
      continue;
    }
    let j = i;
    const marker = FENCE.exec(line)?.[1];
    if (marker !== undefined) {
      j = i + 1;
      while (j < lines.length && !(FENCE.exec(lines[j] as string)?.[1]?.startsWith(marker.slice(0, 1)) === true && (lines[j] as string).trim().length >= marker.length)) j++;
    } else if (TABLE_ROW.test(line)) {
      while (j + 1 < lines.length && TABLE_ROW.test(lines[j + 1] as string)) j++;
    }
    const block = lines.slice(i, j + 1).join('\n');
    i = j;
    // A line indented under a list item keeps its indent: rendered alone it would lose its nesting.
    const indent = marker === undefined ? (/^ */.exec(block)?.[0] ?? '') : '';
    let rendered = renderMarkdown(`${block.slice(indent.length)}\n`, { ...options, width: options.width - indent.length }).replace(/\n+$/, '');
    if (indent !== '') rendered = rendered.replace(/^• /, '◦ ');
    out += `${rendered.split('\n').map((l) => (l === '' ? l : `${indent}${l}`)).join('\n')}\n`;
  }
  return out;
}
