/**
 * The curator keeps the agent's own skill library from filling up with skills nobody uses: agent-created
 * skills idle for `archive_after_days` move to `HEARTH_HOME/skills/.archive/<name>-<timestamp>/`. Nothing is
 * ever deleted, and user-created, external, project and pinned skills are never touched. The skill scanner
 * skips `.archive`, so an archived skill simply disappears from the catalog until it is restored.
 */
import { existsSync, mkdirSync, readdirSync, realpathSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { HearthError } from '../errors.js';
import type { Skill, SkillLibrary } from './types.js';
import type { SkillUsageStore } from './usage.js';

export const ARCHIVE_FOLDER = '.archive';
const DAY_MS = 86_400_000;
/** `<name>-20250102T030405678Z`: the name, then the archive time in compact ISO form. */
const ARCHIVED_NAME = /^(.+)-(\d{8}T\d{9}Z)(?:-\d+)?$/;

export interface ArchivedSkill {
  /** The skill's name. */
  name: string;
  /** The folder name under `.archive`, which `restoreSkill` takes. */
  archivedName: string;
  path: string;
}

export interface CuratedSkill extends ArchivedSkill {
  /** Whole days since the skill was last created, viewed, used or patched. */
  idleDays: number;
}

export function agentSkillsDir(home: string): string {
  return join(home, 'skills');
}

export function archiveDir(home: string): string {
  return join(agentSkillsDir(home), ARCHIVE_FOLDER);
}

/** Is `skill` a folder directly in HEARTH_HOME/skills (where the agent creates skills), links resolved? */
export function isInAgentSkillsDir(skill: Pick<Skill, 'dir'>, home: string): boolean {
  const own = agentSkillsDir(home);
  if (!existsSync(own) || !existsSync(skill.dir)) return false;
  return realpathSync(dirname(skill.dir)) === realpathSync(own);
}

/** Move a skill folder into the archive; returns where it went. */
export function archiveSkillDir(home: string, name: string, dir: string, now: number): ArchivedSkill {
  const archive = archiveDir(home);
  mkdirSync(archive, { recursive: true });
  const stamp = new Date(now).toISOString().replace(/[-:.]/g, '');
  let archivedName = `${name}-${stamp}`;
  for (let n = 1; existsSync(join(archive, archivedName)); n += 1) archivedName = `${name}-${stamp}-${n}`;
  const path = join(archive, archivedName);
  renameSync(dir, path);
  return { name, archivedName, path };
}

/** Archived skills, newest first. */
export function listArchivedSkills(home: string): ArchivedSkill[] {
  const archive = archiveDir(home);
  if (!existsSync(archive)) return [];
  const found: ArchivedSkill[] = [];
  for (const entry of readdirSync(archive, { withFileTypes: true })) {
    const match = entry.isDirectory() ? ARCHIVED_NAME.exec(entry.name) : null;
    if (match?.[1] !== undefined) found.push({ name: match[1], archivedName: entry.name, path: join(archive, entry.name) });
  }
  return found.sort((a, b) => (a.archivedName < b.archivedName ? 1 : -1));
}

/**
 * Move an archived skill back to HEARTH_HOME/skills/<name>. Refuses when a skill of that name exists again
 * (the user should pick which one to keep). Counts as activity, so the next curator run keeps it.
 */
export function restoreSkill(home: string, archivedName: string, usage?: SkillUsageStore): { name: string; dir: string } {
  const match = ARCHIVED_NAME.exec(archivedName);
  if (match?.[1] === undefined || archivedName.includes('/') || archivedName.includes('\\') || archivedName.includes('..')) {
    throw new HearthError('skill_not_found', `"${archivedName}" is not an archived skill: names look like "<skill>-20250102T030405678Z" (see the archive list).`);
  }
  const source = join(archiveDir(home), archivedName);
  if (!existsSync(source)) {
    throw new HearthError('skill_not_found', `No archived skill "${archivedName}" in ${archiveDir(home)}.`);
  }
  const name = match[1];
  const target = join(agentSkillsDir(home), name);
  if (existsSync(target)) {
    throw new HearthError('skill_conflict', `Cannot restore "${archivedName}": ${target} exists. Move or rename that skill first.`);
  }
  renameSync(source, target);
  usage?.restore(name);
  return { name, dir: target };
}

export interface CurateOptions {
  library: SkillLibrary;
  usage: SkillUsageStore;
  home: string;
  /** Epoch ms. */
  now: number;
  archiveAfterDays: number;
}

/** Archive every agent-created, unpinned skill in HEARTH_HOME/skills idle for `archiveAfterDays`; returns what moved. */
export function curateSkills({ library, usage, home, now, archiveAfterDays }: CurateOptions): CuratedSkill[] {
  const archived: CuratedSkill[] = [];
  for (const skill of library.skills) {
    const record = usage.get(skill.name);
    if (record === null || record.createdBy !== 'agent' || record.pinned || record.archivedAt !== null) continue;
    const last = Math.max(record.createdAt ?? 0, record.lastUsedAt ?? 0, record.lastPatchedAt ?? 0);
    // No timestamp at all means we cannot tell how long it has been idle: keep it.
    if (last === 0) continue;
    const idleDays = Math.floor((now - last) / DAY_MS);
    if (now - last < archiveAfterDays * DAY_MS) continue;
    // External and project roots belong to the user or a repository even when the agent wrote the skill there.
    if (skill.root.scope !== 'user' || !isInAgentSkillsDir(skill, home)) continue;
    const moved = archiveSkillDir(home, skill.name, skill.dir, now);
    usage.archive(skill.name, now);
    archived.push({ ...moved, idleDays });
  }
  return archived;
}
