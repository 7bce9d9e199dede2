import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { errorMessage } from '../errors.js';
import { countReferenceTokens } from '../llm/token-count.js';
import { disablesModelInvocation, skillCategory, skillTags } from './extensions.js';
import { checkFields } from './field-rules.js';
import { parseFrontmatter, type SkillMode } from './frontmatter.js';
import type { Skill, SkillIssue, SkillRoot, SkillValidation } from './types.js';

/** F6 guidance: bodies past these are a warning in both modes, never an error. */
export const MAX_BODY_LINES = 500;
export const MAX_BODY_TOKENS = 5000;
/** H-size: a SKILL.md this large is not a skill (Hermes caps the whole file at 100,000 chars); never read it into a prompt. */
export const MAX_SKILL_FILE_BYTES = 1024 * 1024;

/** A skill parsed from text, before it is placed in a folder and a root. */
export type SkillDraft = Omit<Skill, 'dir' | 'location' | 'root'>;

export interface SkillTextValidation extends SkillValidation {
  /** Present when the skill can be loaded (the verdict is not `invalid`). */
  skill?: SkillDraft;
}

export interface SkillDirValidation extends SkillValidation {
  skill?: Skill;
  /** The SKILL.md that was read (or would be), when one was found. */
  location?: string;
}

/** `invalid` when any issue is an error, `warn` when there are only warnings, `valid` otherwise. */
export function verdictOf(issues: SkillIssue[]): SkillValidation['verdict'] {
  if (issues.some((i) => i.severity === 'error')) return 'invalid';
  return issues.length ? 'warn' : 'valid';
}

/**
 * Validate SKILL.md text as if it lived in a folder named `dirName`. Used before anything is written
 * (skill_manage create/edit) and by `validateSkillDir`.
 */
export function validateSkillText(text: string, dirName: string, mode: SkillMode): SkillTextValidation {
  const parsed = parseFrontmatter(text, mode);
  if (!parsed.ok) return { verdict: 'invalid', issues: parsed.issues };
  const fields = checkFields(parsed.data, dirName, mode);
  const issues = [...parsed.issues, ...fields.issues, ...bodyIssues(parsed.body)];
  const verdict = verdictOf(issues);
  if (verdict === 'invalid' || fields.name === null || fields.description === null) return { verdict: 'invalid', issues };
  const skill: SkillDraft = {
    name: fields.name,
    description: fields.description,
    body: parsed.body,
    frontmatter: parsed.data,
    tags: skillTags(parsed.data),
    category: skillCategory(parsed.data),
    disableModelInvocation: disablesModelInvocation(parsed.data),
    issues,
  };
  return { verdict, issues, skill };
}

/**
 * D1/D2 then the text rules. The reference parser accepts `skill.md` when `SKILL.md` is absent (case 26).
 * `root` places the skill in a scan root; a directly validated folder gets a root of its parent.
 */
export function validateSkillDir(dir: string, mode: SkillMode, options: { root?: SkillRoot } = {}): SkillDirValidation {
  const abs = resolve(dir);
  const fail = (rule: string, message: string, location?: string): SkillDirValidation => ({
    verdict: 'invalid',
    issues: [{ rule, severity: 'error', message }],
    ...(location ? { location } : {}),
  });
  let stat;
  try {
    stat = statSync(abs);
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    return fail('D1', missing ? `path does not exist: ${abs}` : `cannot read ${abs}: ${errorMessage(err)}`);
  }
  if (!stat.isDirectory()) return fail('D1', `not a directory: ${abs} (a skill is a folder that contains SKILL.md)`);

  const location = findSkillFile(abs);
  if (!location) return fail('D2', `missing required file: ${join(abs, 'SKILL.md')}`);
  const read = readSkillFile(abs, location);
  if (!read.ok) return fail(read.rule, read.message, location);

  const result = validateSkillText(read.text, basename(abs), mode);
  if (!result.skill) return { verdict: result.verdict, issues: result.issues, location };
  const root = options.root ?? { path: dirname(abs), scope: 'user', label: dirname(abs) };
  return { verdict: result.verdict, issues: result.issues, location, skill: { ...result.skill, dir: abs, location, root } };
}

/** `SKILL.md`, else `skill.md` (D2). */
export function findSkillFile(dir: string): string | null {
  for (const name of ['SKILL.md', 'skill.md']) {
    const path = join(dir, name);
    if (existsSync(path) && statSync(path).isFile()) return path;
  }
  return null;
}

type FileRead = { ok: true; text: string } | { ok: false; rule: string; message: string };

function readSkillFile(dir: string, location: string): FileRead {
  try {
    // A SKILL.md that is a symlink to a file outside its folder would pull arbitrary text into the prompt.
    const realDir = realpathSync(dir);
    const realFile = realpathSync(location);
    if (!realFile.startsWith(realDir + sep)) {
      return { ok: false, rule: 'H-symlink', message: `${location} links to ${realFile}, outside the skill folder; it was not read` };
    }
    const size = statSync(realFile).size;
    if (size > MAX_SKILL_FILE_BYTES) {
      return { ok: false, rule: 'H-size', message: `${location} is ${size} bytes; a SKILL.md over ${MAX_SKILL_FILE_BYTES} bytes is not loaded (keep the body short and move detail into references/)` };
    }
    return { ok: true, text: readFileSync(realFile, 'utf8') };
  } catch (err) {
    return { ok: false, rule: 'D2', message: `cannot read ${location}: ${errorMessage(err)}` };
  }
}

/** F6 (size) and D5 (referenced files one level deep), both advisory. */
function bodyIssues(body: string): SkillIssue[] {
  const issues: SkillIssue[] = [];
  const lines = body ? body.split('\n').length : 0;
  if (lines > MAX_BODY_LINES) {
    issues.push({ rule: 'F6', severity: 'warning', message: `the body has ${lines} lines; keep it under ${MAX_BODY_LINES} and move detail into references/` });
  } else if (body.length > MAX_BODY_TOKENS * 2) {
    // Tokenising is only worth it when the text could be over budget (a token is rarely under 2 characters).
    const tokens = countReferenceTokens(body);
    if (tokens > MAX_BODY_TOKENS) issues.push({ rule: 'F6', severity: 'warning', message: `the body is about ${tokens} tokens; keep it under ${MAX_BODY_TOKENS} and move detail into references/` });
  }
  for (const target of deepReferences(body)) {
    issues.push({ rule: 'D5', severity: 'warning', message: `the body links to "${target}"; keep referenced files one level below the skill folder (e.g. references/x.md)` });
  }
  return issues;
}

/** Relative Markdown link targets deeper than `dir/file` or climbing out with `..`. */
function deepReferences(body: string): string[] {
  const found = new Set<string>();
  for (const match of body.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = (match[1] ?? '').split('#')[0] ?? '';
    if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) continue;
    const clean = relative('.', target).split(/[\\/]/);
    if (clean.length > 2 || clean.includes('..')) found.add(target);
  }
  return [...found];
}
