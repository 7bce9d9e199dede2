import { ENTRY_DELIMITER } from './usage.js';

/**
 * The MEMORY.md / USER.md format Hermes Agent and OpenClaw use: entries separated by a line holding only
 * `§`. An entry may span several lines. The store keeps every entry trimmed, non-empty and free of a
 * `§`-only line, so `parseMemoryFile(serializeMemoryFile(entries))` gives back exactly `entries`.
 */

/** A line that separates entries. Spaces around the `§` and CRLF line ends are tolerated when reading. */
const SEPARATOR_LINE = /^[ \t]*§[ \t]*$/;

export function serializeMemoryFile(entries: readonly string[]): string {
  return entries.length === 0 ? '' : `${entries.join(ENTRY_DELIMITER)}\n`;
}

export function parseMemoryFile(text: string): string[] {
  const lines = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n');
  const entries: string[] = [];
  let current: string[] = [];
  const flush = (): void => {
    const entry = current.join('\n').trim();
    if (entry) entries.push(entry);
    current = [];
  };
  for (const line of lines) {
    if (SEPARATOR_LINE.test(line)) flush();
    else current.push(line);
  }
  flush();
  return entries;
}

/** True when `content` holds a line the file format would read as a separator. */
export function containsSeparatorLine(content: string): boolean {
  return content.replace(/\r\n?/g, '\n').split('\n').some((line) => SEPARATOR_LINE.test(line));
}
