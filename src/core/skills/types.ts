/**
 * The shapes the skills subsystem shares: what a loaded skill is, what validation reports, and what a
 * scan of the skill roots returns. Format rules are in ../shared/reference/SKILLS-SPEC.md (rule ids
 * D1…, F1…, N1…, S1…, C1…, M1…, T1 are used as `rule`).
 */

export type SkillIssueSeverity = 'error' | 'warning';

export interface SkillIssue {
  /** Rule id from SKILLS-SPEC.md (`N4`, `F3`, …) or a Hearth rule (`H-path`, `H-size`). */
  rule: string;
  severity: SkillIssueSeverity;
  message: string;
  field?: string;
}

/** `valid`: no issues; `warn`: usable with warnings; `invalid`: strict fails, or compat cannot load it. */
export interface SkillValidation {
  verdict: 'valid' | 'warn' | 'invalid';
  issues: SkillIssue[];
}

/** Where a root sits in the precedence order (SKILLS-SPEC §7: project > user). */
export type SkillScope = 'project' | 'user';

export interface SkillRoot {
  path: string;
  scope: SkillScope;
  /** Human label for reports: "HEARTH_HOME/skills", "~/.agents/skills", "<project>/.agents/skills". */
  label: string;
}

export interface Skill {
  /** Frontmatter `name` (NFKC-normalised), or the directory name when it has none. */
  name: string;
  description: string;
  /** Absolute skill directory. */
  dir: string;
  /** Absolute path of SKILL.md (the catalog's `location`). */
  location: string;
  root: SkillRoot;
  /** SKILL.md without its frontmatter. */
  body: string;
  /** The parsed frontmatter as loaded (compat mode keeps unknown keys and nested metadata). */
  frontmatter: Record<string, unknown>;
  /** `metadata.hermes.tags`, top-level `tags`, `metadata.openclaw` keywords: used by relevance ranking. */
  tags: string[];
  category: string | null;
  /** `disable-model-invocation: true`: left out of the catalog and search; still runs as `/name`. */
  disableModelInvocation: boolean;
  /** Warnings it loaded with (compat mode), for the UI and `hearth skills list`. */
  issues: SkillIssue[];
  /**
   * Learned "when to use" phrasings of this version of the skill (skill-triggers.ts), attached by SkillService
   * when a model has written them; ranked as a field of their own. Absent: the skill ranks on its text alone.
   */
  triggers?: readonly string[];
}

/** A SKILL.md that was found but not loaded. */
export interface SkippedSkill {
  path: string;
  reason: string;
  issues: SkillIssue[];
}

/** The same name in several roots: the winner by precedence, and the copies it hides. */
export interface SkillCollision {
  name: string;
  winner: string;
  shadowed: string[];
}

export interface SkillLibrary {
  /** Loaded skills, one per name, in precedence order of their roots then by name. */
  skills: Skill[];
  skipped: SkippedSkill[];
  collisions: SkillCollision[];
}
