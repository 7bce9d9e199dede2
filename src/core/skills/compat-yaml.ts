import JSON5 from 'json5';
import { isCollection, isMap, parseDocument, type Document } from 'yaml';
import { errorMessage } from '../errors.js';
import { yamlErrors, type YamlParse } from './strict-yaml.js';
import type { SkillIssue } from './types.js';

/**
 * Full YAML 1.2 with the recoveries of SKILLS-SPEC §6: an unquoted `: ` inside a value is quoted and
 * re-parsed (case 33), and `metadata` written as JSON5 (OpenClaw's style: comments, trailing commas,
 * or a plain string holding JSON) is parsed with JSON5 the way OpenClaw does.
 */
export function parseCompatYaml(source: string): YamlParse {
  const first = parseLenient(source);
  if (!first.doc.errors.length) return finish(first.doc, source, []);

  const requoted = quoteColonValues(source);
  if (requoted !== source) {
    const retry = parseLenient(requoted);
    if (!retry.doc.errors.length) {
      const warning = issue('F3', 'a value contains an unquoted ": "; it was quoted and re-read. Quote such values in the file.');
      return finish(retry.doc, requoted, [warning]);
    }
  }

  const cut = cutMetadataBlock(requoted);
  if (cut) {
    const rest = parseLenient(cut.rest);
    const metadata = parseJson5(cut.metadataText);
    if (!rest.doc.errors.length && metadata.ok && isPlainObject(rest.doc.toJS())) {
      const value = { ...(rest.doc.toJS() as Record<string, unknown>), metadata: metadata.value };
      const warning = { ...issue('M1', '`metadata` is not valid YAML; it was read as JSON5 instead'), field: 'metadata' };
      return { ok: true, ...normalizeMetadata(value, [warning]) };
    }
  }
  return { ok: false, issues: yamlErrors(first.doc) };
}

function parseLenient(source: string): { doc: Document } {
  // Duplicate keys are tolerated here (the last one wins); strict mode reports them.
  return { doc: parseDocument(source, { uniqueKeys: false, prettyErrors: true }) };
}

function finish(doc: Document, source: string, issues: SkillIssue[]): YamlParse {
  const value: unknown = doc.toJS();
  if (!isPlainObject(value)) return { ok: true, value, issues };
  // OpenClaw reads `metadata` with JSON5: where it is a flow block, JSON5 is the authority on what it means
  // (a `// comment` inside flow YAML would otherwise become part of a key).
  if (isMap(doc.contents)) {
    const node = doc.contents.get('metadata', true);
    if (isCollection(node) && node.flow && node.range) {
      const parsed = parseJson5(source.slice(node.range[0], node.range[1]));
      if (parsed.ok && isPlainObject(parsed.value)) value.metadata = parsed.value;
    }
  }
  return { ok: true, ...normalizeMetadata(value, issues) };
}

/** `metadata` as a string holding JSON5 becomes a mapping; anything else that is not a mapping is dropped with a warning (case 34). */
function normalizeMetadata(value: Record<string, unknown>, issues: SkillIssue[]): { value: Record<string, unknown>; issues: SkillIssue[] } {
  if (!('metadata' in value) || value.metadata === null || isPlainObject(value.metadata)) return { value, issues };
  const raw = value.metadata;
  if (typeof raw === 'string') {
    const parsed = parseJson5(raw);
    if (parsed.ok && isPlainObject(parsed.value)) return { value: { ...value, metadata: parsed.value }, issues };
  }
  const { metadata: _dropped, ...rest } = value;
  const shown = JSON.stringify(raw)?.slice(0, 40) ?? String(raw);
  return { value: rest, issues: [...issues, { ...issue('M1', `\`metadata\` must be a mapping (got ${shown}); it was ignored`), field: 'metadata' }] };
}

/**
 * Quote plain values that contain `: ` (or end in `:`), e.g. `description: Use when: converting PDFs`.
 * Values that already start a quoted, block or flow scalar are left alone, and so are the lines of a
 * block scalar (`|`, `>`), whose text is literal.
 */
export function quoteColonValues(source: string): string {
  let blockIndent = -1;
  return source
    .split('\n')
    .map((line) => {
      const indent = /^\s*/.exec(line)?.[0].length ?? 0;
      if (blockIndent >= 0 && (indent > blockIndent || !line.trim())) return line;
      blockIndent = /:\s*[|>][-+0-9]*\s*$/.test(line) ? indent : -1;
      const match = /^(\s*(?:- )?[^\s#'"{[\-?][^:]*?):[ \t]+(.+?)\s*$/.exec(line);
      if (!match) return line;
      const [, key, value] = match as unknown as [string, string, string];
      if (/^["'|>{[&*!#]/.test(value)) return line;
      if (!value.includes(': ') && !value.endsWith(':')) return line;
      return `${key}: "${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
    })
    .join('\n');
}

/** The top-level `metadata:` entry and everything indented under it, cut out of the frontmatter. */
function cutMetadataBlock(source: string): { rest: string; metadataText: string } | null {
  const lines = source.split('\n');
  const start = lines.findIndex((l) => /^metadata:(\s|$)/.test(l));
  if (start < 0) return null;
  let end = start + 1;
  // A JSON5 block may close with `}` in column 0; any other unindented line starts the next key.
  while (end < lines.length && (/^(\s|$)/.test(lines[end] ?? '') || /^[}\]]/.test(lines[end] ?? ''))) end++;
  const metadataText = [(lines[start] ?? '').slice('metadata:'.length), ...lines.slice(start + 1, end)].join('\n');
  return { rest: [...lines.slice(0, start), ...lines.slice(end)].join('\n'), metadataText };
}

function parseJson5(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON5.parse(text) as unknown };
  } catch (err) {
    // Not JSON5 either: the caller falls back to the YAML reading or reports the YAML error.
    return { ok: false, error: errorMessage(err) };
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function issue(rule: string, message: string): SkillIssue {
  return { rule, severity: 'warning', message };
}
