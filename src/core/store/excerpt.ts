/** Evidence excerpts (user-model facts) are this long at most. */
export const EVIDENCE_EXCERPT_CHARS = 200;

/** The start of a message on one line: whitespace collapsed, cut with an ellipsis. */
export function evidenceExcerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EVIDENCE_EXCERPT_CHARS ? `${flat.slice(0, EVIDENCE_EXCERPT_CHARS - 1)}…` : flat;
}
