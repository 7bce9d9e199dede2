/** Search snippets mark matches with these private-use characters; no HTML crosses the wire. */
export const MATCH_START = '\uE000';
export const MATCH_END = '\uE001';

export interface SnippetPart {
  text: string;
  match: boolean;
}

/** Splits a snippet into plain and matched runs, for rendering as text and `<mark>` elements. */
export function splitSnippet(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let match = false;
  let run = '';
  for (const char of snippet) {
    if (char === MATCH_START || char === MATCH_END) {
      if (run) parts.push({ text: run, match });
      run = '';
      match = char === MATCH_START;
    } else {
      run += char;
    }
  }
  if (run) parts.push({ text: run, match });
  return parts;
}
