/**
 * The skill tools: `skills_list`, `skill_view`, `skill_manage`, `skills_search` (names as in Hermes Agent,
 * PARITY §3). They read the library through `getLibrary()` so a reload after a write is seen at once.
 */
import { realpath, readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { z } from 'zod';
import { HearthError, isHearthError } from '../errors.js';
import { renderSkillContent } from '../skills/catalog.js';
import { manageSkill, SKILL_ACTIONS, type SkillChange, type SkillManageRequest } from '../skills/manage.js';
import type { InjectionJudge } from '../safety/injection/judge.js';
import { rankSkills, type RankedSkill } from '../skills/relevance.js';
import type { Skill, SkillLibrary } from '../skills/types.js';
import type { SkillUsageStore } from '../skills/usage.js';
import { defineTool, type ToolContext, type ToolDefinition, type UserUpdate } from './define.js';

export interface SkillToolDeps {
  getLibrary(): SkillLibrary;
  /** Rescan the skill roots after a write. */
  reload(): void;
  usage: SkillUsageStore;
  home: string;
  /** Set when `skills.write_approval` is on: the change is checked, then staged for the user instead of applied. */
  stage?: ((kind: 'skill', args: unknown, summary: string) => void) | null;
  /** The ranking skills_search uses (SkillService.rank: keyword and semantic, fused); default keyword only. */
  rank?: (query: string, limit: number, signal: AbortSignal) => Promise<RankedSkill[]>;
  /** `security.injection_judge`, handed to manageSkill for the scanner's grey zone. */
  injectionJudge?: InjectionJudge;
}

/** Per-session set of skills already injected by skill_view (SKILLS-SPEC case 48). */
const VIEWED_STATE = 'skill_view';
const MAX_SUPPORT_FILE_BYTES = 200_000;

const LEARNING_ACTION: Record<SkillChange['change'], Extract<UserUpdate, { kind: 'learning' }>['action']> = {
  created: 'skill_created',
  updated: 'skill_updated',
  deleted: 'skill_deleted',
};

export function createSkillTools(deps: SkillToolDeps): {
  skillsList: ToolDefinition<z.infer<typeof ListInput>>;
  skillView: ToolDefinition<z.infer<typeof ViewInput>>;
  skillManage: ToolDefinition<z.infer<typeof ManageInput>>;
  skillsSearch: ToolDefinition<z.infer<typeof SearchInput>>;
} {
  const offered = (): Skill[] => deps.getLibrary().skills.filter((s) => !s.disableModelInvocation);

  const skillsList = defineTool({
    name: 'skills_list',
    description: 'List installed skills: name, category and what each is for. Load one with skill_view.',
    input: ListInput,
    parallelSafe: true,
    run(input) {
      const skills = offered().filter((s) => input.category === undefined || s.category === input.category);
      if (skills.length === 0) return Promise.resolve(input.category === undefined ? 'No skills are installed.' : `No skills in category "${input.category}".`);
      const lines = skills.map((s) => `- ${s.name}${s.category === null ? '' : ` [${s.category}]`}: ${oneLine(s.description)}`);
      return Promise.resolve(`${skills.length} skill${skills.length === 1 ? '' : 's'}:\n${lines.join('\n')}`);
    },
  });

  const skillView = defineTool({
    name: 'skill_view',
    description: 'Load a skill’s instructions (SKILL.md) before doing work it covers; with file_path, read one of its files (references/…, scripts/…).',
    input: ViewInput,
    parallelSafe: true,
    async run(input, ctx) {
      const skill = deps.getLibrary().skills.find((s) => s.name === input.name);
      if (skill === undefined) return { isError: true, content: notFound(deps.getLibrary().skills, input.name) };
      if (input.file_path !== undefined) {
        try {
          const text = await readSupportFile(skill, input.file_path);
          deps.usage.recordView(skill.name);
          return text;
        } catch (err) {
          if (isHearthError(err) && err.code.startsWith('skill_')) return { isError: true, content: err.message };
          throw err;
        }
      }
      const viewed = viewedSkills(ctx);
      if (viewed.has(skill.name)) {
        return `Skill '${skill.name}' is already loaded above in this conversation; follow those instructions (they have not changed).`;
      }
      viewed.add(skill.name);
      deps.usage.recordView(skill.name);
      return renderSkillContent(skill);
    },
  });

  const skillManage = defineTool({
    name: 'skill_manage',
    description:
      'Create or improve a skill (reusable instructions for a kind of task). create/edit: the whole SKILL.md in content (frontmatter name = the skill name, and a description saying what it does and when to use it). ' +
      'patch (preferred for fixes): replace one unique old_string with new_string. delete: archive an agent-created skill. write_file/remove_file: support files under references/, scripts/, assets/ or templates/.',
    input: ManageInput,
    parallelSafe: false,
    async run(input, ctx) {
      const request = toRequest(input);
      const context = { library: deps.getLibrary(), usage: deps.usage, home: deps.home, ...(deps.injectionJudge === undefined ? {} : { injectionJudge: deps.injectionJudge }) };
      try {
        if (deps.stage) {
          const checked = await manageSkill(context, request, { dryRun: true });
          const summary = `${input.action} skill '${checked.name}'`;
          deps.stage('skill', input, summary);
          ctx.notify?.({ kind: 'learning', action: 'write_staged', target: checked.name, message: `Skill change staged for your approval: ${summary}` });
          return `Staged for the user's approval (not applied yet): ${summary}.`;
        }
        const done = await manageSkill(context, request);
        deps.reload();
        // Changed content must be loaded again by skill_view, not answered with "already loaded above".
        dropViewed(ctx, done.name);
        ctx.notify?.({ kind: 'learning', action: LEARNING_ACTION[done.change], target: done.name, message: learningMessage(done) });
        return describeChange(done);
      } catch (err) {
        if (isHearthError(err, 'content_unsafe')) {
          // The user must hear that the agent tried to store something that looks like an injection, not only the model.
          ctx.notify?.({ kind: 'notice', level: 'warning', message: `A skill write was refused by the injection scanner: ${err.message}` });
          return { isError: true, content: err.message };
        }
        if (isHearthError(err) && err.code.startsWith('skill_')) return { isError: true, content: err.message };
        throw err;
      }
    },
  });

  const skillsSearch = defineTool({
    name: 'skills_search',
    description: 'Find installed skills relevant to a task when the catalog in the prompt does not list one. Returns the best matches.',
    input: SearchInput,
    parallelSafe: true,
    async run(input, ctx) {
      const limit = input.limit ?? 8;
      const ranked = deps.rank ? await deps.rank(input.query, limit, ctx.signal) : rankSkills(deps.getLibrary().skills, input.query, { usage: deps.usage.byName(), limit });
      if (ranked.length === 0) return `No skills match "${input.query}". Try other words, or skills_list.`;
      return ranked.map((r) => `- ${r.skill.name}: ${oneLine(r.skill.description)}`).join('\n');
    },
  });

  return { skillsList, skillView, skillManage, skillsSearch };
}

const ListInput = z.object({ category: z.string().min(1).optional().describe('Only skills in this category.') });
const ViewInput = z.object({
  name: z.string().min(1).describe('Skill name, as in the catalog.'),
  file_path: z.string().min(1).optional().describe('A file of the skill, relative to its folder (e.g. references/api.md).'),
});
const ManageInput = z.object({
  action: z.enum(SKILL_ACTIONS),
  name: z.string().min(1).describe('The skill name (lowercase letters, digits and "-"; equals the frontmatter name).'),
  content: z.string().optional().describe('create/edit: the whole SKILL.md, frontmatter included.'),
  old_string: z.string().optional().describe('patch: text to replace; must occur exactly once.'),
  new_string: z.string().optional().describe('patch: replacement text.'),
  file_path: z.string().optional().describe('write_file/remove_file (and patch of a support file): path under references/, scripts/, assets/ or templates/.'),
  file_content: z.string().optional().describe('write_file: the file’s full content.'),
});
const SearchInput = z.object({
  query: z.string().min(1).describe('What the task is about, in plain words.'),
  limit: z.number().int().min(1).max(50).optional().describe('Most results (default 8).'),
});

function toRequest(input: z.infer<typeof ManageInput>): SkillManageRequest {
  const request: SkillManageRequest = { action: input.action, name: input.name };
  for (const key of ['content', 'old_string', 'new_string', 'file_path', 'file_content'] as const) {
    const value = input[key];
    if (value !== undefined) request[key] = value;
  }
  return request;
}

function viewedSkills(ctx: Pick<ToolContext, 'state'>): Set<string> {
  let viewed = ctx.state.get(VIEWED_STATE) as Set<string> | undefined;
  if (viewed === undefined) {
    viewed = new Set();
    ctx.state.set(VIEWED_STATE, viewed);
  }
  return viewed;
}

function dropViewed(ctx: Pick<ToolContext, 'state'>, name: string): void {
  viewedSkills(ctx).delete(name);
}

/** Tier 3: one file of the skill, by a relative path that must stay inside the skill folder once links resolve. */
async function readSupportFile(skill: Skill, filePath: string): Promise<string> {
  if (isAbsolute(filePath) || filePath.split(/[\\/]/).includes('..')) {
    throw new HearthError('skill_forbidden', `file_path "${filePath}" must be relative to the skill folder, without "..".`);
  }
  const root = await realpath(skill.dir);
  const target = await realpath(join(skill.dir, filePath)).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') throw new HearthError('skill_not_found', `Skill '${skill.name}' has no file ${filePath}.`);
    throw err;
  });
  const inside = relative(root, target);
  if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) {
    throw new HearthError('skill_forbidden', `file_path "${filePath}" leads outside the skill folder (through a link); it is not readable with skill_view.`);
  }
  const info = await stat(target);
  if (!info.isFile()) throw new HearthError('skill_not_found', `${filePath} in skill '${skill.name}' is not a file.`);
  if (info.size > MAX_SUPPORT_FILE_BYTES) {
    return `${filePath} is ${info.size} bytes, too large to show (limit ${MAX_SUPPORT_FILE_BYTES}). Read parts of it with read_file: ${target}`;
  }
  const buffer = await readFile(target);
  if (buffer.includes(0)) return `${filePath} is a binary file (${info.size} bytes): ${target}`;
  return `<skill_file skill="${skill.name}" path="${filePath}">\n${buffer.toString('utf8')}\n</skill_file>`;
}

function notFound(skills: readonly Skill[], name: string): string {
  const similar = rankSkills(skills, name, { limit: 3 }).map((r) => r.skill.name);
  return `No skill named '${name}'.${similar.length > 0 ? ` Did you mean: ${similar.join(', ')}?` : ''} Use skills_list or skills_search.`;
}

function learningMessage(done: SkillChange): string {
  if (done.change === 'created') return `Skill '${done.name}' created`;
  if (done.change === 'deleted') return `Skill '${done.name}' deleted (archived, restorable)`;
  return `Skill '${done.name}' updated`;
}

function describeChange(done: SkillChange): string {
  const parts = [done.message];
  if (done.warnings.length > 0) parts.push(`It loads with warnings worth fixing:\n${done.warnings.map((w) => `- ${w}`).join('\n')}`);
  if (done.diff !== undefined && done.diff !== '') parts.push(done.diff);
  return parts.join('\n');
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}
