/**
 * Finding `old_string` for the `patch` tool. Exact first; if that fails, a whitespace-tolerant match
 * on whole lines (models often get indentation or trailing spaces wrong, or copy CRLF files as LF),
 * re-indenting the replacement to the file's indentation. Both inputs are LF-normalised by the caller.
 */
export type MatchOutcome =
  | { kind: 'replaced'; content: string; count: number; strategy: 'exact' | 'whitespace' }
  | { kind: 'not_found' }
  | { kind: 'ambiguous'; count: number; lines: number[] };

export function replaceText(content: string, oldString: string, newString: string, replaceAll: boolean): MatchOutcome {
  const exact = occurrences(content, oldString);
  if (exact.length > 1 && !replaceAll) return { kind: 'ambiguous', count: exact.length, lines: exact.map((index) => lineOf(content, index)) };
  if (exact.length > 0) {
    // split/join, not String.replace: `$&` and `$1` in new_string must stay literal.
    const replaced = replaceAll ? content.split(oldString).join(newString) : content.slice(0, exact[0]) + newString + content.slice((exact[0] as number) + oldString.length);
    return { kind: 'replaced', content: replaced, count: replaceAll ? exact.length : 1, strategy: 'exact' };
  }
  return replaceIgnoringWhitespace(content, oldString, newString, replaceAll);
}

function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i += 1) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}

const normaliseLine = (line: string): string => line.trim().replace(/\s+/g, ' ');

function trimBlankEdges(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && (lines[start] as string).trim() === '') start += 1;
  while (end > start && (lines[end - 1] as string).trim() === '') end -= 1;
  return lines.slice(start, end);
}

function replaceIgnoringWhitespace(content: string, oldString: string, newString: string, replaceAll: boolean): MatchOutcome {
  const wanted = trimBlankEdges(oldString.split('\n'));
  if (wanted.length === 0) return { kind: 'not_found' };
  const wantedKeys = wanted.map(normaliseLine);
  const fileLines = content.split('\n');
  const starts: number[] = [];
  for (let i = 0; i + wanted.length <= fileLines.length; i += 1) {
    if (wantedKeys.every((key, k) => normaliseLine(fileLines[i + k] as string) === key)) {
      starts.push(i);
      i += wanted.length - 1; // matches never overlap
    }
  }
  if (starts.length === 0) return { kind: 'not_found' };
  if (starts.length > 1 && !replaceAll) return { kind: 'ambiguous', count: starts.length, lines: starts.map((s) => s + 1) };

  const replacement = trimBlankEdges(newString.split('\n'));
  const modelIndent = leadingWhitespace(wanted.find((l) => l.trim() !== '') ?? '');
  // Splice from the last match backwards so earlier indices stay valid.
  for (const start of [...starts].reverse()) {
    const fileIndent = leadingWhitespace(fileLines.slice(start, start + wanted.length).find((l) => l.trim() !== '') ?? '');
    const reindented = replacement.map((line) => (line.startsWith(modelIndent) && line.trim() !== '' ? fileIndent + line.slice(modelIndent.length) : line));
    fileLines.splice(start, wanted.length, ...reindented);
  }
  return { kind: 'replaced', content: fileLines.join('\n'), count: starts.length, strategy: 'whitespace' };
}

function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}
