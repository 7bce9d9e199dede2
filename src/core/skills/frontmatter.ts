import { isPlainObject, parseCompatYaml } from './compat-yaml.js';
import { parseStrictYaml } from './strict-yaml.js';
import type { SkillIssue } from './types.js';

/** `strict`: the reference validator's verdicts (strictyaml). `compat`: what Hearth loads (YAML 1.2 + recoveries). */
export type SkillMode = 'strict' | 'compat';

export type SplitFrontmatter = { ok: true; frontmatter: string; body: string } | { ok: false; issue: SkillIssue };

/**
 * `ok: true` means a mapping was read. Its `issues` may still hold errors: strict mode reports flow
 * style (F4) yet keeps the mapping, so the field rules can list every other problem too.
 */
export type FrontmatterResult =
  | { ok: true; data: Record<string, unknown>; body: string; issues: SkillIssue[] }
  | { ok: false; issues: SkillIssue[] };

const FENCE = /^---[ \t]*$/;

/**
 * F1/F2: the file opens with a `---` line and the frontmatter runs to the next `---` line; everything
 * after it is the body, so a `---` rule inside the body is harmless (case 36). Line endings are
 * normalised first: a SKILL.md saved on Windows is the same skill.
 */
export function splitFrontmatter(text: string): SplitFrontmatter {
  const lines = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n');
  if (!FENCE.test(lines[0] ?? '')) {
    return { ok: false, issue: { rule: 'F1', severity: 'error', message: 'SKILL.md must start with a "---" line that opens the YAML frontmatter' } };
  }
  const close = lines.findIndex((line, i) => i > 0 && FENCE.test(line));
  if (close < 0) {
    return { ok: false, issue: { rule: 'F2', severity: 'error', message: 'the frontmatter is never closed: add a "---" line after the last field' } };
  }
  const body = lines.slice(close + 1).join('\n').replace(/^\n+/, '').trimEnd();
  return { ok: true, frontmatter: lines.slice(1, close).join('\n'), body };
}

/** Split and parse; `data` is the top-level mapping (F3), with every scalar a string in strict mode (F4). */
export function parseFrontmatter(text: string, mode: SkillMode): FrontmatterResult {
  const split = splitFrontmatter(text);
  if (!split.ok) return { ok: false, issues: [split.issue] };
  const parsed = mode === 'strict' ? parseStrictYaml(split.frontmatter) : parseCompatYaml(split.frontmatter);
  if (!parsed.ok && !isPlainObject(parsed.value)) return { ok: false, issues: parsed.issues };
  if (!isPlainObject(parsed.value)) {
    const got = parsed.value === null || parsed.value === undefined ? 'nothing' : Array.isArray(parsed.value) ? 'a list' : 'a single value';
    return {
      ok: false,
      issues: [...parsed.issues, { rule: 'F3', severity: 'error', message: `the frontmatter must be a mapping of "key: value" lines (got ${got})` }],
    };
  }
  return { ok: true, data: parsed.value, body: split.body, issues: parsed.issues };
}
