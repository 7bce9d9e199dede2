import { copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { HearthError, errorMessage } from '../errors.js';
import { judgeInjection, type InjectionJudge } from '../safety/injection/judge.js';
import { describeScan, scanForInjection } from '../safety/injection/scan.js';
import type { SkillIssue } from './types.js';
import { validateSkillDir } from './validate.js';

/** Bounds on what one install copies: a skill is instructions and a few scripts, not a repository. */
export const MAX_INSTALL_FILES = 5000;
export const MAX_INSTALL_BYTES = 100 * 1024 * 1024;
/** Folders that are never part of a skill's content. */
const NOT_COPIED = new Set(['.git', 'node_modules']);
/** Text files above this are not scanned (and say so): a skill's instructions and scripts are far smaller. */
const MAX_SCANNED_BYTES = 2 * 1024 * 1024;

export interface InstallResult {
  name: string;
  installedTo: string;
  files: number;
  /** Warnings the skill loads with (compat mode). */
  issues: SkillIssue[];
  /** With `force`: where the previous copy was moved (it is kept, never deleted). */
  replacedTo?: string;
}

/**
 * Copy a skill folder into `skillsDir/<name>` (HEARTH_HOME/skills). It must load in compat mode; an
 * existing skill is replaced only with `force`, and then moved aside rather than deleted. A symlink that
 * points outside the folder is refused: copying it would import whatever file it names.
 * Every text file (SKILL.md, references, scripts) goes through the injection scanner first: a
 * high-severity finding refuses the install, since the model will read these files as instructions;
 * medium findings install with a warning. Everything is checked before the first write, and the copy
 * lands atomically (temp folder, then rename).
 */
/**
 * `installSkill` with `security.injection_judge` asked first about every text file the scanner is unsure of;
 * a file it calls an injection refuses the install before anything is copied. Without a judge: `installSkill`.
 */
export async function installSkillJudged(sourceDir: string, skillsDir: string, options: { force?: boolean; injectionJudge?: InjectionJudge } = {}): Promise<InstallResult> {
  if (options.injectionJudge !== undefined) {
    for (const file of collectFilesOrExplain(sourceDir)) {
      const bytes = readFileSync(file.real);
      if (bytes.subarray(0, 8192).includes(0) || bytes.length > MAX_SCANNED_BYTES) continue;
      const judged = await judgeInjection(bytes.toString('utf8'), { source: 'skill', judge: options.injectionJudge });
      if (judged.verdict === 'blocked') {
        throw new HearthError('content_unsafe', `${sourceDir} was not installed: ${file.relative} looks like a prompt injection — ${describeScan(judged)}. Nothing was copied.`, {
          details: { file: file.relative, findings: judged.findings },
        });
      }
    }
  }
  return installSkill(sourceDir, skillsDir, options.force === undefined ? {} : { force: options.force });
}

export function installSkill(sourceDir: string, skillsDir: string, options: { force?: boolean } = {}): InstallResult {
  const validation = validateSkillDir(sourceDir, 'compat');
  if (!validation.skill) {
    const problems = validation.issues.filter((i) => i.severity === 'error').map((i) => `  [${i.rule}] ${i.message}`);
    throw new HearthError('skill_invalid', `${sourceDir} cannot be installed; nothing was copied:\n${problems.join('\n')}`, { details: { issues: validation.issues } });
  }
  const { name } = validation.skill;
  const source = realpathSync(sourceDir);
  mkdirSync(skillsDir, { recursive: true, mode: 0o700 });
  const target = join(realpathSync(skillsDir), name);
  if (source === target || target.startsWith(source + sep) || source.startsWith(target + sep)) {
    throw new HearthError('skill_conflict', `${sourceDir} is already the installed copy of "${name}" (${target}).`);
  }
  if (existsSync(target) && !options.force) {
    throw new HearthError('skill_conflict', `A skill named "${name}" is already installed at ${target}. Use --force to replace it (the old copy is kept aside).`);
  }

  const files = collectFilesOrExplain(source);
  const scanWarnings = scanSkillFiles(sourceDir, files);
  const temp = join(dirname(target), `.install-${name}-${process.pid}-${Date.now()}`);
  try {
    for (const file of files) {
      mkdirSync(dirname(join(temp, file.relative)), { recursive: true });
      copyFileSync(file.real, join(temp, file.relative));
    }
  } catch (err) {
    rmSync(temp, { recursive: true, force: true });
    throw new HearthError('skill_invalid', `Copying ${sourceDir} failed: ${errorMessage(err)}. Nothing was installed.`, { cause: err });
  }

  let replacedTo: string | undefined;
  try {
    if (existsSync(target)) {
      replacedTo = join(dirname(target), '.replaced', `${name}-${new Date().toISOString().replace(/[:.]/g, '')}`);
      mkdirSync(dirname(replacedTo), { recursive: true });
      renameSync(target, replacedTo);
    }
    renameSync(temp, target);
  } catch (err) {
    // Put the previous copy back where it was, so a failed replace leaves the user with what they had.
    if (replacedTo && existsSync(replacedTo) && !existsSync(target)) renameSync(replacedTo, target);
    rmSync(temp, { recursive: true, force: true });
    throw new HearthError('skill_forbidden', `Cannot put "${name}" in place at ${target}: ${errorMessage(err)}. Any previous copy was left as it was.`, { cause: err });
  }
  const issues = [...validation.issues.filter((i) => i.severity === 'warning'), ...scanWarnings];
  return { name, installedTo: target, files: files.length, issues, ...(replacedTo ? { replacedTo } : {}) };
}

/** Refuses on the first high-severity finding; returns medium findings as warnings. */
function scanSkillFiles(sourceDir: string, files: readonly SourceFile[]): SkillIssue[] {
  const warnings: SkillIssue[] = [];
  for (const file of files) {
    const bytes = readFileSync(file.real);
    // A NUL byte in the first 8 KiB marks a binary (an image, a wheel): the model does not read those as text.
    if (bytes.subarray(0, 8192).includes(0)) continue;
    if (bytes.length > MAX_SCANNED_BYTES) {
      warnings.push({ rule: 'H-injection', severity: 'warning', message: `${file.relative} is larger than ${MAX_SCANNED_BYTES / 1024 / 1024} MiB and was not scanned for prompt injection.` });
      continue;
    }
    const scan = scanForInjection(bytes.toString('utf8'), { source: 'skill' });
    if (scan.verdict === 'blocked') {
      throw new HearthError(
        'content_unsafe',
        `${sourceDir} was not installed: ${file.relative} looks like a prompt injection — ${describeScan(scan)}. Nothing was copied. Check \`hearth scan ${file.real}\` and remove those lines if the skill is yours.`,
        { details: { file: file.relative, findings: scan.findings } },
      );
    }
    if (scan.verdict === 'suspicious') warnings.push({ rule: 'H-injection', severity: 'warning', message: `${file.relative}: ${describeScan(scan)}` });
  }
  return warnings;
}

function collectFilesOrExplain(root: string): SourceFile[] {
  try {
    return collectFiles(root);
  } catch (err) {
    if (err instanceof HearthError) throw err;
    throw new HearthError('skill_invalid', `Cannot read ${root}: ${errorMessage(err)}. Nothing was copied.`, { cause: err });
  }
}

interface SourceFile {
  relative: string;
  real: string;
}

function collectFiles(root: string): SourceFile[] {
  const files: SourceFile[] = [];
  let bytes = 0;
  const seen = new Set<string>([root]);
  const walk = (real: string, rel: string) => {
    for (const entry of readdirSync(real, { withFileTypes: true })) {
      if (NOT_COPIED.has(entry.name)) continue;
      const path = join(real, entry.name);
      const relPath = rel ? join(rel, entry.name) : entry.name;
      let resolved = path;
      if (entry.isSymbolicLink()) {
        resolved = realpathSync(path);
        if (!resolved.startsWith(root + sep)) {
          throw new HearthError('skill_forbidden', `${relPath} is a link to ${resolved}, outside the skill folder; install refuses it. Replace the link with the file itself.`);
        }
      }
      const stat = lstatSync(resolved);
      if (stat.isDirectory()) {
        // A link to a folder already copied (or to a parent) would repeat or loop.
        if (seen.has(resolved)) continue;
        seen.add(resolved);
        walk(resolved, relPath);
      } else if (stat.isFile()) {
        bytes += stat.size;
        files.push({ relative: relPath, real: resolved });
        if (files.length > MAX_INSTALL_FILES || bytes > MAX_INSTALL_BYTES) {
          throw new HearthError('skill_invalid', `${root} holds more than ${MAX_INSTALL_FILES} files or ${MAX_INSTALL_BYTES / 1024 / 1024} MiB; that is not a skill. Nothing was copied.`);
        }
      }
    }
  };
  walk(root, '');
  return files;
}
