import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { RouteHandlers, RouteOutput } from '../../shared/contract.js';
import { archiveSkillDir, isInAgentSkillsDir } from '../skills/curator.js';
import { parseFrontmatter } from '../skills/frontmatter.js';
import { manageSkill } from '../skills/manage.js';
import { normalizeSkillName } from '../skills/name-rules.js';
import type { Skill, SkillIssue } from '../skills/types.js';
import type { SkillUsage } from '../skills/usage.js';
import { validateSkillText } from '../skills/validate.js';
import type { AppContext } from './context.js';
import { AppError } from './errors.js';

export type SkillRoutes = 'skills.list' | 'skills.show' | 'skills.validate' | 'skills.create' | 'skills.edit' | 'skills.delete';

type SkillSummary = RouteOutput<'skills.list'>[number];
type SkillProblem = RouteOutput<'skills.validate'>['problems'][number];

/** A skill folder listing stops here: a skill is a handful of files, not a tree to crawl. */
const MAX_LISTED_FILES = 500;
const MAX_LIST_DEPTH = 4;

/**
 * The skill library as the UI sees it. Writes go through `manageSkill`, the code path of the agent's own
 * `skill_manage` tool (validation, injection scan, near-duplicate check, atomic write), then the library
 * is rescanned. Only skills directly under HEARTH_HOME/skills are editable here; project and external
 * skills belong to someone else's folder.
 */
export function skillHandlers(ctx: AppContext): Pick<RouteHandlers, SkillRoutes> {
  const { home } = ctx.engine;
  const service = ctx.engine.learning.skills;
  const summary = (skill: Skill, usage: Map<string, SkillUsage>) => toSummary(skill, usage.get(skill.name), isInAgentSkillsDir(skill, home));
  const find = (name: string): Skill => {
    const skill = service.find(name);
    if (skill === undefined) throw new AppError('not_found', `No skill named '${name}'.`);
    return skill;
  };
  const editable = (name: string): Skill => {
    const skill = find(name);
    if (!isInAgentSkillsDir(skill, home)) {
      throw new AppError('forbidden', `'${name}' lives in ${skill.root.label} (${skill.dir}); only skills in HEARTH_HOME/skills can be changed here. Edit it where it lives.`);
    }
    return skill;
  };
  const context = () => ({ library: service.library(), usage: service.usage, home });

  return {
    'skills.list': async () => {
      const usage = service.usage.byName();
      return service.library().skills.map((skill) => summary(skill, usage));
    },
    'skills.show': async (input) => {
      const skill = find(input.name);
      return { skill: summary(skill, service.usage.byName()), markdown: readFileSync(skill.location, 'utf8'), files: listFiles(skill.dir) };
    },
    'skills.validate': async (input) => {
      const result = validateSkillText(input.content, declaredName(input.content) ?? 'unnamed', 'strict');
      return { valid: result.verdict !== 'invalid', problems: result.issues.map(toProblem) };
    },
    'skills.create': async (input) => {
      const name = declaredName(input.content);
      if (name === null) throw new AppError('invalid_input', 'The SKILL.md has no name: add `name: your-skill` to its frontmatter.', [{ path: 'name', message: 'missing' }]);
      refuseInvalid(input.content, name);
      await manageSkill(context(), { action: 'create', name, content: input.content });
      // manageSkill records agent authorship; this one is the user's, which the curator never archives.
      service.usage.markCreated(name, 'user');
      service.reload();
      return { name };
    },
    'skills.edit': async (input) => {
      const skill = editable(input.name);
      refuseInvalid(input.content, skill.name);
      await manageSkill(context(), { action: 'edit', name: skill.name, content: input.content });
      service.reload();
      return { ok: true as const };
    },
    'skills.delete': async (input) => {
      const skill = editable(input.name);
      // Archived, not removed (restorable with `hearth skills restore`); the user may delete any skill of
      // their own, which skill_manage's delete refuses because it guards against the agent.
      const now = Date.now();
      archiveSkillDir(home, skill.name, skill.dir, now);
      service.usage.archive(skill.name, now);
      service.reload();
      return { ok: true as const };
    },
  };
}

/** The frontmatter `name`, as the loader will read it; null when there is none to read. */
function declaredName(content: string): string | null {
  const parsed = parseFrontmatter(content, 'compat');
  if (!parsed.ok || typeof parsed.data.name !== 'string') return null;
  const name = normalizeSkillName(parsed.data.name);
  return name === '' ? null : name;
}

/** The same compat check skill_manage makes, but with each problem as an issue the form can show by its field. */
function refuseInvalid(content: string, name: string): void {
  const result = validateSkillText(content, name, 'compat');
  const errors = result.issues.filter((i) => i.severity === 'error');
  if (result.verdict !== 'invalid' && errors.length === 0) return;
  throw new AppError(
    'invalid_input',
    `The SKILL.md is not valid; nothing was written.`,
    (errors.length > 0 ? errors : [{ rule: 'H-load', severity: 'error' as const, message: 'it cannot be loaded' }]).map((i) => ({ path: i.field ?? 'content', message: `[${i.rule}] ${i.message}` })),
  );
}

function toProblem(issue: SkillIssue): SkillProblem {
  return { field: issue.field ?? null, message: `[${issue.rule}] ${issue.message}`, severity: issue.severity };
}

function toSummary(skill: Skill, usage: SkillUsage | undefined, editable: boolean): SkillSummary {
  return {
    name: skill.name,
    description: skill.description,
    location: skill.location,
    scope: skill.root.scope,
    category: skill.category,
    tags: skill.tags,
    editable,
    usage: { viewed: usage?.viewCount ?? 0, used: usage?.useCount ?? 0, patched: usage?.patchCount ?? 0, lastUsedAt: usage?.lastUsedAt ?? null },
  };
}

/** Files of the skill relative to its folder (SKILL.md itself excluded); links are listed, never followed. */
function listFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (current: string, depth: number) => {
    for (const entry of readdirSync(current, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (files.length >= MAX_LISTED_FILES) return;
      const path = join(current, entry.name);
      if (entry.isDirectory() && depth < MAX_LIST_DEPTH) walk(path, depth + 1);
      else if (!entry.isDirectory()) files.push(relative(dir, path));
    }
  };
  walk(dir, 1);
  return files.filter((file) => file !== 'SKILL.md');
}
