import type { SkillIssue, SkillIssueSeverity } from './types.js';

/** SKILLS-SPEC N3. */
export const MAX_NAME_LENGTH = 64;

/** N2: every comparison and length check happens on the NFKC form (fullwidth `ｐｄｆ` is `pdf`). */
export function normalizeSkillName(name: string): string {
  return name.trim().normalize('NFKC');
}

/**
 * N3–N7 on an already-normalised, non-empty name, in the reference validator's order. `severity` is
 * `error` in strict mode and `warning` in compat mode, where every one of these still loads.
 * `dirName` is omitted when the name was derived from the directory (N7 would be trivially true).
 */
export function nameIssues(name: string, dirName: string | undefined, severity: SkillIssueSeverity): SkillIssue[] {
  const issues: SkillIssue[] = [];
  const issue = (rule: string, message: string) => issues.push({ rule, severity, message, field: 'name' });
  // Python's len() counts code points, not UTF-16 units: an emoji or CJK supplement is one character.
  const length = [...name].length;
  if (length > MAX_NAME_LENGTH) issue('N3', `name "${name}" is ${length} characters; the limit is ${MAX_NAME_LENGTH}`);
  if (name !== name.toLowerCase()) issue('N4', `name "${name}" must be lowercase (use "${name.toLowerCase()}")`);
  if (name.startsWith('-') || name.endsWith('-')) issue('N5', `name "${name}" must not start or end with "-"`);
  if (name.includes('--')) issue('N5', `name "${name}" must not contain "--"`);
  if (!/^[\p{L}\p{N}-]+$/u.test(name)) {
    issue('N6', `name "${name}" may contain only letters, digits and "-" (no "_", ".", spaces or "/")`);
  }
  if (dirName !== undefined && dirName.normalize('NFKC') !== name) {
    issue('N7', `the folder is named "${dirName}" but the skill's name is "${name}": rename one so they match`);
  }
  return issues;
}

/**
 * Hearth's path rule (not part of the spec): a skill name becomes a folder name under HEARTH_HOME/skills
 * and a `/name` command, so anything that could climb or split a path is refused outright.
 */
export function unsafePathReason(name: string): string | null {
  if (name.includes('\0')) return 'contains a NUL character';
  if (name.includes('/') || name.includes('\\')) return 'contains a path separator';
  if (name.includes('..')) return 'contains ".."';
  return null;
}
