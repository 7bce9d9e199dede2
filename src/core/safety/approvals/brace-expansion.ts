/**
 * Bash brace expansion (`{a,b}`, `{1..3}`, `{a..e..2}`), which tree-sitter-bash leaves as plain words. Text
 * that came from quotes or expansions has its braces and commas replaced by PROTECTED stand-ins before this
 * runs, so only braces a shell would expand are expanded; `restoreProtected` puts them back.
 */
const PROTECT: Readonly<Record<string, string>> = { '{': '\uE011', '}': '\uE012', ',': '\uE013' };
const RESTORE: Readonly<Record<string, string>> = { '\uE011': '{', '\uE012': '}', '\uE013': ',' };
/** Beyond this many words the rest are dropped: `{a,b}{a,b}…` doubles per group, and the first ones suffice. */
const MAX_WORDS = 128;
const SEQUENCE = /^(-?\d+|[a-zA-Z])\.\.(-?\d+|[a-zA-Z])(?:\.\.(-?\d+))?$/;

export function protectBraces(text: string): string {
  return text.replace(/[{},]/g, (c) => PROTECT[c] as string);
}

export function restoreProtected(text: string): string {
  return text.replace(/[\uE011-\uE013]/g, (c) => RESTORE[c] as string);
}

export function expandBraces(text: string): string[] {
  if (!text.includes('{')) return [text];
  const out: string[] = [];
  expandInto(text, out);
  return out;
}

function expandInto(text: string, out: string[]): void {
  if (out.length >= MAX_WORDS) return;
  for (let open = text.indexOf('{'); open !== -1; open = text.indexOf('{', open + 1)) {
    const group = readGroup(text, open);
    if (group === null) continue;
    const prefix = text.slice(0, open);
    const suffix = text.slice(group.close + 1);
    for (const alternative of group.alternatives) expandInto(prefix + alternative + suffix, out);
    return;
  }
  out.push(text);
}

/** The alternatives of the group opening at `open`, or null when it is not an expandable group. */
function readGroup(text: string, open: number): { close: number; alternatives: string[] } | null {
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < text.length; i += 1) {
    const c = text[i];
    if (c === '{') depth += 1;
    else if (c === ',' && depth === 1) commas.push(i);
    else if (c === '}') {
      depth -= 1;
      if (depth > 0) continue;
      const inner = text.slice(open + 1, i);
      if (commas.length > 0) {
        const bounds = [open, ...commas, i];
        return { close: i, alternatives: bounds.slice(1).map((end, k) => text.slice((bounds[k] as number) + 1, end)) };
      }
      const sequence = SEQUENCE.exec(inner);
      return sequence === null ? null : { close: i, alternatives: expandSequence(sequence) };
    }
  }
  return null;
}

function expandSequence(match: RegExpExecArray): string[] {
  const [, from = '', to = '', stepText] = match;
  const numeric = /^-?\d+$/.test(from) && /^-?\d+$/.test(to);
  const start = numeric ? Number(from) : from.charCodeAt(0);
  const end = numeric ? Number(to) : to.charCodeAt(0);
  const step = Math.max(1, Math.abs(Number(stepText ?? 1)));
  const values: string[] = [];
  const direction = start <= end ? 1 : -1;
  for (let v = start; direction > 0 ? v <= end : v >= end; v += direction * step) {
    values.push(numeric ? String(v) : String.fromCharCode(v));
    if (values.length >= MAX_WORDS) break;
  }
  return values;
}
