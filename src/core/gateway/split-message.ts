/**
 * Long answers cut into messages a platform accepts (issue 13): on paragraph boundaries, never inside a fenced
 * code block. A code block too long for one message is cut between its lines and each piece is fenced again
 * (same fence and language), so every message renders as code on its own. Only a single line longer than a
 * whole message is cut mid-line; nothing is ever dropped.
 */

interface Block {
  text: string;
  /** The opening fence line (```ts) when the block is fenced code. */
  fence?: { open: string; close: string };
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** Splits `text` into pieces of at most `max` characters. */
export function splitMessage(text: string, max: number): string[] {
  if (max < 16) throw new RangeError(`a message limit of ${max} characters is too small to split into`);
  if (text.length <= max) return [text];
  const chunks: string[] = [];
  let current = '';
  const flush = (): void => {
    if (current !== '') chunks.push(current);
    current = '';
  };
  for (const block of blocks(text)) {
    for (const piece of fitBlock(block, max)) {
      const joined = current === '' ? piece : `${current}\n\n${piece}`;
      if (joined.length <= max) current = joined;
      else {
        flush();
        current = piece;
      }
    }
  }
  flush();
  return chunks;
}

/** Paragraphs (split on blank lines) and fenced code blocks, whose blank lines belong to them. */
function blocks(text: string): Block[] {
  const out: Block[] = [];
  const lines = text.split('\n');
  let paragraph: string[] = [];
  const endParagraph = (): void => {
    if (paragraph.some((l) => l.trim() !== '')) out.push({ text: paragraph.join('\n') });
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const open = FENCE.exec(line);
    if (open !== null) {
      endParagraph();
      const marker = open[1] ?? '```';
      const body: string[] = [line];
      let closed = false;
      for (i += 1; i < lines.length; i++) {
        const inner = lines[i] ?? '';
        body.push(inner);
        if (inner.trim().startsWith(marker) && inner.trim().replace(/[`~]/g, '') === '') {
          closed = true;
          break;
        }
      }
      // An unclosed fence (the answer is still streaming, or the model forgot) runs to the end, closed by us when cut.
      out.push({ text: body.join('\n'), fence: { open: line, close: closed ? (body.at(-1) ?? marker) : marker } });
      continue;
    }
    if (line.trim() === '') endParagraph();
    else paragraph.push(line);
  }
  endParagraph();
  return out;
}

/** A block as pieces each at most `max` long. */
function fitBlock(block: Block, max: number): string[] {
  if (block.text.length <= max) return [block.text];
  if (block.fence === undefined) return packLines(block.text.split('\n'), max);
  const { open, close } = block.fence;
  const lines = block.text.split('\n').slice(1);
  if (lines.at(-1) === close) lines.pop();
  const room = max - open.length - close.length - 2;
  if (room < 1) return packLines(block.text.split('\n'), max);
  return packLines(lines, room).map((body) => `${open}\n${body}\n${close}`);
}

/** Lines joined with `\n` into pieces of at most `max`; a line longer than `max` is cut at a space, or hard. */
function packLines(lines: readonly string[], max: number): string[] {
  const out: string[] = [];
  let current: string | null = null;
  for (const line of lines.flatMap((l) => cutLine(l, max))) {
    if (current === null) current = line;
    else if (current.length + 1 + line.length <= max) current = `${current}\n${line}`;
    else {
      out.push(current);
      current = line;
    }
  }
  if (current !== null) out.push(current);
  return out;
}

function cutLine(line: string, max: number): string[] {
  const out: string[] = [];
  let rest = line;
  while (rest.length > max) {
    const space = rest.lastIndexOf(' ', max);
    const at = space > max / 2 ? space : max;
    out.push(rest.slice(0, at));
    rest = space > max / 2 ? rest.slice(at + 1) : rest.slice(at);
  }
  out.push(rest);
  return out;
}
