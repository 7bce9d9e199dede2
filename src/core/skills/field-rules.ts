import { isPlainObject } from './compat-yaml.js';
import type { SkillMode } from './frontmatter.js';
import { nameIssues, normalizeSkillName, unsafePathReason } from './name-rules.js';
import type { SkillIssue } from './types.js';

export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_COMPATIBILITY_LENGTH = 500;

/** SKILLS-SPEC §4: strict mode allows exactly these top-level keys. */
export const SPEC_FIELDS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'] as const;

/** Keys Hearth itself acts on, whichever client a skill was written for (OpenClaw and Claude Code share them). */
const HEARTH_KEYS = ['disable-model-invocation', 'user-invocable'];
/** §8: a skill that declares `metadata.hermes` may use Hermes Agent's top-level keys without a warning. */
const HERMES_KEYS = ['version', 'author', 'platforms', 'prerequisites', 'required_environment_variables', 'required_credential_files', 'tags', 'category'];
/** §8: likewise for `metadata.openclaw` (or the legacy `metadata.clawdbot`). */
const OPENCLAW_KEYS = ['homepage', 'command-dispatch', 'command-tool', 'command-arg-mode'];

export interface FieldCheck {
  issues: SkillIssue[];
  /** NFKC name, or the directory name when compat mode had to fall back; null when unusable. */
  name: string | null;
  description: string | null;
}

/** Rules N1–N7, S1–S3, C1–C2, M1–M2, T1, the strict key list (K1) and the Hearth path rule (H-path). */
export function checkFields(data: Record<string, unknown>, dirName: string, mode: SkillMode): FieldCheck {
  const strict = mode === 'strict';
  const soft = strict ? ('error' as const) : ('warning' as const);
  const issues: SkillIssue[] = [...keyIssues(data, strict)];
  const name = checkName(data, dirName, strict, issues);
  const description = checkDescription(data, strict, issues);

  if ('compatibility' in data) {
    const value = data.compatibility;
    if (typeof value !== 'string') issues.push(fieldIssue('C1', soft, 'compatibility', '`compatibility` must be a string'));
    else if (value.length < 1 || value.length > MAX_COMPATIBILITY_LENGTH) {
      issues.push(fieldIssue('C2', soft, 'compatibility', `\`compatibility\` must be 1–${MAX_COMPATIBILITY_LENGTH} characters (it has ${value.length})`));
    }
  }
  if ('metadata' in data && data.metadata !== null) {
    if (!isPlainObject(data.metadata)) issues.push(fieldIssue('M1', soft, 'metadata', '`metadata` must be a mapping of "key: value" lines'));
    else if (strict) {
      // The reference coerces these with str(), so they pass with a warning; compat keeps them as extension data.
      for (const [key, value] of Object.entries(data.metadata)) {
        if (typeof value !== 'string') issues.push(fieldIssue('M2', 'warning', 'metadata', `metadata.${key} is not a string; other clients will read it as text`));
      }
    }
  }
  if ('allowed-tools' in data) {
    const value = data['allowed-tools'];
    const isList = Array.isArray(value) && value.every((item) => typeof item === 'string');
    if (isList && strict) issues.push(fieldIssue('T1', 'warning', 'allowed-tools', '`allowed-tools` is a list; the spec defines a space-separated string such as "Bash(git:*) Read"'));
    else if (typeof value !== 'string' && !isList) issues.push(fieldIssue('T1', soft, 'allowed-tools', '`allowed-tools` must be a space-separated string of tool names'));
  }
  return { issues, name, description };
}

function keyIssues(data: Record<string, unknown>, strict: boolean): SkillIssue[] {
  const allowed = new Set<string>(SPEC_FIELDS);
  if (!strict) {
    const metadata = isPlainObject(data.metadata) ? data.metadata : {};
    for (const key of HEARTH_KEYS) allowed.add(key);
    if ('hermes' in metadata) for (const key of HERMES_KEYS) allowed.add(key);
    if ('openclaw' in metadata || 'clawdbot' in metadata) for (const key of OPENCLAW_KEYS) allowed.add(key);
  }
  const extra = Object.keys(data).filter((key) => !allowed.has(key)).sort();
  if (!extra.length) return [];
  const message = strict
    ? `unexpected fields: ${extra.join(', ')}. Only ${SPEC_FIELDS.join(', ')} are allowed (move client extensions under metadata)`
    : `fields outside the spec were kept: ${extra.join(', ')}`;
  return [{ rule: 'K1', severity: strict ? 'error' : 'warning', message }];
}

function checkName(data: Record<string, unknown>, dirName: string, strict: boolean, issues: SkillIssue[]): string | null {
  const raw = data.name;
  let fromFrontmatter: string | null = null;
  if (typeof raw === 'string' && raw.trim()) fromFrontmatter = raw;
  else if (!strict && (typeof raw === 'number' || typeof raw === 'boolean')) {
    fromFrontmatter = String(raw);
    issues.push(fieldIssue('N1', 'warning', 'name', `\`name\` should be a string (got ${fromFrontmatter}); it was read as text`));
  }

  if (fromFrontmatter === null) {
    const what = raw === undefined ? 'is missing' : 'must be a non-empty string';
    if (strict) {
      issues.push(fieldIssue('N1', 'error', 'name', `\`name\` ${what}`));
      return null;
    }
    // OpenClaw and Claude Code name such a skill after its folder.
    const derived = normalizeSkillName(dirName);
    issues.push(fieldIssue('N1', 'warning', 'name', `\`name\` ${what}; using the folder name "${derived}"`));
    return safeName(derived, issues) ? (issues.push(...nameIssues(derived, undefined, 'warning')), derived) : null;
  }

  const name = normalizeSkillName(fromFrontmatter);
  issues.push(...nameIssues(name, dirName, strict ? 'error' : 'warning'));
  if (!strict && !safeName(name, issues)) return null;
  return name;
}

function safeName(name: string, issues: SkillIssue[]): boolean {
  const reason = unsafePathReason(name);
  if (reason) issues.push(fieldIssue('H-path', 'error', 'name', `the name "${name}" ${reason}, so it cannot be used as a folder or command name`));
  return reason === null;
}

function checkDescription(data: Record<string, unknown>, strict: boolean, issues: SkillIssue[]): string | null {
  let value = data.description;
  if (!strict && (typeof value === 'number' || typeof value === 'boolean')) {
    value = String(value);
    issues.push(fieldIssue('S1', 'warning', 'description', '`description` should be a string; it was read as text'));
  }
  if (typeof value !== 'string') {
    const what = value === undefined || value === null ? 'is missing' : 'must be a string';
    issues.push(fieldIssue('S1', 'error', 'description', `\`description\` ${what}: say what the skill does and when to use it`));
    return null;
  }
  if (!value.trim()) {
    issues.push(fieldIssue('S2', 'error', 'description', '`description` is empty: say what the skill does and when to use it'));
    return null;
  }
  const length = [...value].length;
  if (length > MAX_DESCRIPTION_LENGTH) {
    issues.push(fieldIssue('S3', strict ? 'error' : 'warning', 'description', `\`description\` has ${length} characters; the limit is ${MAX_DESCRIPTION_LENGTH}`));
  }
  return value.trim();
}

function fieldIssue(rule: string, severity: SkillIssue['severity'], field: string, message: string): SkillIssue {
  return { rule, severity, message, field };
}
