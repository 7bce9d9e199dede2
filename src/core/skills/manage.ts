/**
 * What `skill_manage` does (PARITY §3): create/edit take a whole SKILL.md, patch replaces one unique
 * `old_string`, delete archives, write_file/remove_file touch support files. Every write is validated
 * first and fails with a typed error that lists the problems; nothing is written unless it is all good.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { HearthError } from '../errors.js';
import { judgeInjection, type InjectionJudge } from '../safety/injection/judge.js';
import { describeScan, scanForInjection } from '../safety/injection/scan.js';
import { unifiedDiff } from '../text/unified-diff.js';
import { agentSkillsDir, archiveSkillDir, isInAgentSkillsDir } from './curator.js';
import { nameIssues, normalizeSkillName, unsafePathReason } from './name-rules.js';
import { findNearDuplicate, rankSkills } from './relevance.js';
import type { Skill, SkillLibrary } from './types.js';
import type { SkillUsageStore } from './usage.js';
import { validateSkillText } from './validate.js';

export const SKILL_ACTIONS = ['create', 'patch', 'edit', 'delete', 'write_file', 'remove_file'] as const;
export type SkillAction = (typeof SKILL_ACTIONS)[number];

/** Support files live only here (PARITY §3); SKILL.md itself changes through create/edit/patch. */
export const SUPPORT_FOLDERS = ['references', 'scripts', 'assets', 'templates'] as const;
const MAX_SUPPORT_FILE_CHARS = 1_000_000;

export interface SkillManageRequest {
  action: SkillAction;
  name: string;
  content?: string;
  old_string?: string;
  new_string?: string;
  file_path?: string;
  file_content?: string;
}

export interface SkillManageContext {
  library: SkillLibrary;
  usage: SkillUsageStore;
  home: string;
  now?: () => number;
  /** `security.injection_judge`: asked about text the scanner is unsure of before it is written. */
  injectionJudge?: InjectionJudge;
}

export interface SkillChange {
  action: SkillAction;
  name: string;
  change: 'created' | 'updated' | 'deleted';
  /** The file or folder written, removed or archived. */
  path: string;
  /** One line for the model and the user: "Skill 'x' created at …". */
  message: string;
  /** Compat-mode warnings the new SKILL.md loads with, for the model to fix next time. */
  warnings: string[];
  diff?: string;
  /** Delete: where the skill went (restorable). */
  archivedTo?: string;
  /** True when only checked (write approval stages the change instead of applying it). */
  dryRun: boolean;
}

/** Check, then (unless `dryRun`) apply one skill_manage request. Throws HearthError (`skill_*`) on refusal. */
export async function manageSkill(ctx: SkillManageContext, request: SkillManageRequest, options: { dryRun?: boolean } = {}): Promise<SkillChange> {
  const dryRun = options.dryRun ?? false;
  switch (request.action) {
    case 'create':
      return createSkill(ctx, request.name, required(request, 'content'), dryRun);
    case 'edit': {
      const skill = writableSkill(ctx, request.name);
      return replaceSkillFile(ctx, skill, 'edit', required(request, 'content'), dryRun);
    }
    case 'patch':
      return patchSkill(ctx, request, dryRun);
    case 'delete':
      return deleteSkill(ctx, request.name, dryRun);
    case 'write_file': {
      const skill = writableSkill(ctx, request.name);
      const content = required(request, 'file_content', true);
      if (content.length > MAX_SUPPORT_FILE_CHARS) fail('skill_invalid', `file_content is ${content.length} characters; support files are limited to ${MAX_SUPPORT_FILE_CHARS}.`);
      const path = await supportFilePath(skill, required(request, 'file_path'));
      refuseUnsafe(content, `${relativeTo(skill, path)} of skill '${skill.name}'`);
      await refuseJudged(ctx, content, `${relativeTo(skill, path)} of skill '${skill.name}'`);
      if (!dryRun) {
        await atomicWrite(path, content);
        ctx.usage.recordPatch(skill.name);
      }
      return change(request, skill.name, 'updated', path, `Skill '${skill.name}' updated: wrote ${relativeTo(skill, path)}.`, dryRun);
    }
    case 'remove_file': {
      const skill = writableSkill(ctx, request.name);
      const path = await supportFilePath(skill, required(request, 'file_path'));
      const stat = await lstat(path).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? null : Promise.reject(err)));
      if (stat === null || !stat.isFile()) fail('skill_not_found', `Skill '${skill.name}' has no file ${relativeTo(skill, path)}.`);
      if (!dryRun) {
        await rm(path);
        ctx.usage.recordPatch(skill.name);
      }
      return change(request, skill.name, 'updated', path, `Skill '${skill.name}' updated: removed ${relativeTo(skill, path)}.`, dryRun);
    }
  }
}

async function createSkill(ctx: SkillManageContext, rawName: string, content: string, dryRun: boolean): Promise<SkillChange> {
  const name = normalizeSkillName(rawName);
  const unsafe = unsafePathReason(name);
  if (unsafe !== null) fail('skill_invalid', `Skill name "${rawName}" ${unsafe}.`);
  // New skills meet the portable spec name rules, whatever older imported skills get away with.
  const nameProblems = name === '' ? ['name is empty'] : nameIssues(name, undefined, 'error').map((i) => i.message);
  if (nameProblems.length > 0) fail('skill_invalid', `Invalid skill name "${rawName}":\n${bullets(nameProblems)}`);
  const existing = ctx.library.skills.find((s) => s.name === name);
  if (existing !== undefined) {
    fail('skill_conflict', `Skill '${name}' already exists at ${existing.location}. Use action "patch" (or "edit") to improve it instead of creating it again.`);
  }
  const dir = join(agentSkillsDir(ctx.home), name);
  if (existsSync(join(dir, 'SKILL.md'))) fail('skill_conflict', `${join(dir, 'SKILL.md')} already exists (the skill did not load; fix or remove it first).`);
  const warnings = checkSkillText(ctx, content, name, null);
  await refuseJudged(ctx, content, `the SKILL.md for '${name}'`);
  const location = join(dir, 'SKILL.md');
  if (!dryRun) {
    await mkdir(dir, { recursive: true });
    await atomicWrite(location, content);
    ctx.usage.markCreated(name, 'agent', (ctx.now ?? Date.now)());
  }
  return { ...change({ action: 'create' }, name, 'created', location, `Skill '${name}' created at ${location}.`, dryRun), warnings };
}

async function patchSkill(ctx: SkillManageContext, request: SkillManageRequest, dryRun: boolean): Promise<SkillChange> {
  const skill = writableSkill(ctx, request.name);
  const oldString = required(request, 'old_string');
  const newString = required(request, 'new_string', true);
  const path = request.file_path === undefined ? skill.location : await supportFilePath(skill, request.file_path);
  const shown = relativeTo(skill, path);
  const before = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') fail('skill_not_found', `Skill '${skill.name}' has no file ${shown}.`);
    throw err;
  });
  const lines = matchLines(before, oldString);
  if (lines.length === 0) fail('skill_invalid', `old_string was not found in ${shown} of skill '${skill.name}'. View the skill again and copy the exact text.`);
  if (lines.length > 1) {
    fail('skill_invalid', `old_string matches ${lines.length} places in ${shown} of skill '${skill.name}' (lines ${lines.join(', ')}). Include more surrounding text so it matches once.`);
  }
  const at = before.indexOf(oldString);
  const after = before.slice(0, at) + newString + before.slice(at + oldString.length);
  if (path === skill.location) return replaceSkillFile(ctx, skill, 'patch', after, dryRun);
  refuseUnsafe(after, `${shown} of skill '${skill.name}'`);
  await refuseJudged(ctx, after, `${shown} of skill '${skill.name}'`);
  if (!dryRun) {
    await atomicWrite(path, after);
    ctx.usage.recordPatch(skill.name);
  }
  const diff = unifiedDiff(before, after, { fromFile: `a/${shown}`, toFile: `b/${shown}` });
  return { ...change(request, skill.name, 'updated', path, `Skill '${skill.name}' updated: patched ${shown}.`, dryRun), diff };
}

/** Edit and SKILL.md patches: validate the whole new text as the skill in its current folder, then swap it in. */
async function replaceSkillFile(ctx: SkillManageContext, skill: Skill, action: 'edit' | 'patch', text: string, dryRun: boolean): Promise<SkillChange> {
  const warnings = checkSkillText(ctx, text, basename(skill.dir), skill.name);
  await refuseJudged(ctx, text, `the SKILL.md for '${skill.name}'`);
  const before = await readFile(skill.location, 'utf8');
  if (!dryRun) {
    await atomicWrite(skill.location, text);
    ctx.usage.recordPatch(skill.name);
  }
  const diff = unifiedDiff(before, text, { fromFile: 'a/SKILL.md', toFile: 'b/SKILL.md' });
  return { ...change({ action }, skill.name, 'updated', skill.location, `Skill '${skill.name}' updated (${action}).`, dryRun), warnings, diff };
}

async function deleteSkill(ctx: SkillManageContext, name: string, dryRun: boolean): Promise<SkillChange> {
  const skill = writableSkill(ctx, name);
  if (ctx.usage.get(skill.name)?.createdBy !== 'agent' || !isInAgentSkillsDir(skill, ctx.home)) {
    fail('skill_forbidden', `Skill '${skill.name}' was not created by the agent, so only the user may delete it. Patch it instead, or ask the user.`);
  }
  const now = (ctx.now ?? Date.now)();
  if (dryRun) return change({ action: 'delete' }, skill.name, 'deleted', skill.dir, `Skill '${skill.name}' would be archived (restorable).`, true);
  const archived = archiveSkillDir(ctx.home, skill.name, skill.dir, now);
  ctx.usage.archive(skill.name, now);
  const message = `Skill '${skill.name}' deleted: moved to ${archived.path} (restorable with "hearth skills restore ${archived.archivedName}").`;
  return { ...change({ action: 'delete' }, skill.name, 'deleted', skill.dir, message, false), archivedTo: archived.path };
}

/**
 * Validate SKILL.md text the way the loader will read it (compat mode), demand that its name is the folder's
 * skill, and refuse a near-copy of another skill. Returns the warnings it would load with.
 */
function checkSkillText(ctx: SkillManageContext, text: string, dirName: string, currentName: string | null): string[] {
  const expectedName = currentName ?? dirName;
  refuseUnsafe(text, `the SKILL.md for '${expectedName}'`);
  const result = validateSkillText(text, dirName, 'compat');
  if (result.verdict === 'invalid' || result.skill === undefined) {
    const problems = result.issues.filter((i) => i.severity === 'error').map((i) => `[${i.rule}] ${i.message}`);
    fail('skill_invalid', `The SKILL.md for '${expectedName}' is not valid; nothing was written:\n${bullets(problems.length > 0 ? problems : ['it cannot be loaded'])}`);
  }
  if (result.skill.name !== expectedName) {
    fail('skill_invalid', `The SKILL.md names the skill "${result.skill.name}" but it is '${expectedName}': the frontmatter name must stay "${expectedName}".`);
  }
  const others = ctx.library.skills.filter((s) => s.name !== expectedName);
  const duplicate = findNearDuplicate(others, { name: result.skill.name, description: result.skill.description });
  if (duplicate !== null) {
    fail(
      'skill_conflict',
      `'${expectedName}' would nearly duplicate the existing skill '${duplicate.skill.name}' (${Math.round(duplicate.similarity * 100)}% the same words in name and description: "${duplicate.skill.description}"). Patch '${duplicate.skill.name}' instead, or make this skill clearly different.`,
    );
  }
  return result.issues.map((i) => `[${i.rule}] ${i.message}`);
}

/**
 * A skill the agent writes is loaded into future sessions as instructions, so a write carrying an
 * injection (or an exfiltration or backdoor command) would persist it: the self-modification chain
 * Hermes Agent users reported (#84293). Blocked text is refused; nothing is written.
 */
function refuseUnsafe(text: string, what: string): void {
  const scan = scanForInjection(text, { source: 'skill' });
  if (scan.verdict === 'blocked') fail('content_unsafe', `Refused to write ${what}: ${describeScan(scan)}. Nothing was written.`);
}

/** The grey zone put to the configured judge (judge.ts); without one this costs nothing. */
async function refuseJudged(ctx: SkillManageContext, text: string, what: string): Promise<void> {
  if (ctx.injectionJudge === undefined) return;
  const judged = await judgeInjection(text, { source: 'skill', judge: ctx.injectionJudge });
  if (judged.verdict === 'blocked') fail('content_unsafe', `Refused to write ${what}: ${describeScan(judged)}. Nothing was written.`);
}

function writableSkill(ctx: SkillManageContext, name: string): Skill {
  const skill = ctx.library.skills.find((s) => s.name === name);
  if (skill === undefined) {
    const similar = rankSkills(ctx.library.skills, name, { limit: 3 }).map((r) => r.skill.name);
    fail('skill_not_found', `No skill named '${name}'.${similar.length > 0 ? ` Similar: ${similar.join(', ')}.` : ''} Use skills_list to see what is installed.`);
  }
  if (skill.root.scope === 'project') {
    fail('skill_forbidden', `Skill '${name}' comes from the project (${skill.root.label}) and is read-only for the agent. Ask the user to change it, or create a separate skill.`);
  }
  return skill;
}

/**
 * Resolve a support file path inside the skill: relative, no `.`/`..` segments, first folder one of
 * SUPPORT_FOLDERS, and no existing symbolic link on the way (a link could lead the write out of the skill).
 */
export async function supportFilePath(skill: Pick<Skill, 'name' | 'dir'>, filePath: string): Promise<string> {
  const segments = filePath.split(/[\\/]/);
  const refuse = (why: string): never => fail('skill_forbidden', `file_path "${filePath}" ${why}. Support files go under ${SUPPORT_FOLDERS.map((f) => `${f}/`).join(', ')} of the skill.`);
  if (filePath.startsWith('/') || /^[a-zA-Z]:/.test(filePath)) refuse('is absolute');
  if (segments.some((s) => s === '..' || s === '.' || s === '' || s.includes('\0'))) refuse('must be a plain relative path (no "..", ".", or empty parts)');
  if (segments.length < 2 || !(SUPPORT_FOLDERS as readonly string[]).includes(segments[0] ?? '')) refuse('is not inside an allowed folder');
  let current = skill.dir;
  for (const segment of segments) {
    current = join(current, segment);
    const stat = await lstat(current).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? null : Promise.reject(err)));
    if (stat === null) break; // the rest does not exist yet, so it cannot be a link
    if (stat.isSymbolicLink()) refuse(`passes through a symbolic link (${current})`);
  }
  return join(skill.dir, ...segments);
}

/** Write to a temp file beside the target, then rename over it: a crash never leaves half a file. */
async function atomicWrite(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await writeFile(temp, content, { encoding: 'utf8', flag: 'wx' });
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** 1-based line numbers where `needle` starts, for every (possibly overlapping-free) occurrence. */
function matchLines(text: string, needle: string): number[] {
  const lines: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    lines.push(text.slice(0, at).split('\n').length);
  }
  return lines;
}

function required(request: SkillManageRequest, field: 'content' | 'old_string' | 'new_string' | 'file_path' | 'file_content', allowEmpty = false): string {
  const value = request[field];
  if (value === undefined || (!allowEmpty && value === '')) fail('skill_invalid', `Action "${request.action}" needs ${field}.`);
  return value;
}

function change(request: Pick<SkillManageRequest, 'action'>, name: string, kind: SkillChange['change'], path: string, message: string, dryRun: boolean): SkillChange {
  return { action: request.action, name, change: kind, path, message, warnings: [], dryRun };
}

function relativeTo(skill: Pick<Skill, 'dir'>, path: string): string {
  return path.startsWith(skill.dir) ? path.slice(skill.dir.length + 1) : path;
}

function bullets(lines: string[]): string {
  return lines.map((line) => `- ${line}`).join('\n');
}

function fail(code: 'skill_invalid' | 'skill_conflict' | 'skill_forbidden' | 'skill_not_found' | 'content_unsafe', message: string): never {
  throw new HearthError(code, message);
}
