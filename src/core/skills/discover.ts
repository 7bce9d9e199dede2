import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { errorMessage } from '../errors.js';
import type { SkillRoot, SkippedSkill } from './types.js';

/** OpenClaw finds SKILL.md up to 6 folders below a root (SKILLS-SPEC §7, case 43). */
export const MAX_SCAN_DEPTH = 6;
/** Folders visited per root before the scan stops; a root pointed at `~` must not walk the whole disk. */
export const MAX_SCAN_DIRS = 2000;

export interface SkillRootOptions {
  /** HEARTH_HOME. */
  home: string;
  /** The project the session works in; its skills load only when `projectTrusted`. */
  workspace?: string;
  /** The user's home directory (for `~/.agents/skills`, `~/.claude/skills` and `~` in external dirs). */
  userHome: string;
  /** Config `skills.external_dirs`: user level, after HEARTH_HOME/skills. */
  externalDirs?: string[];
  projectTrusted: boolean;
}

/**
 * Scan roots in precedence order (SKILLS-SPEC §7): project before user; within a level Hearth's own
 * folder, then the shared `.agents`, then `.claude`. Project roots are left out until the project is
 * trusted (case 44): they are third-party instructions. A folder reachable twice is listed once.
 */
export function defaultSkillRoots(options: SkillRootOptions): SkillRoot[] {
  const roots: SkillRoot[] = [];
  if (options.workspace && options.projectTrusted) {
    const ws = resolve(options.workspace);
    for (const client of ['.hearth', '.agents', '.claude']) {
      roots.push({ path: join(ws, client, 'skills'), scope: 'project', label: `<project>/${client}/skills` });
    }
  }
  roots.push({ path: join(options.home, 'skills'), scope: 'user', label: 'HEARTH_HOME/skills' });
  for (const dir of options.externalDirs ?? []) {
    roots.push({ path: expandPath(dir, options.userHome, options.home), scope: 'user', label: dir });
  }
  roots.push({ path: join(options.userHome, '.agents', 'skills'), scope: 'user', label: '~/.agents/skills' });
  roots.push({ path: join(options.userHome, '.claude', 'skills'), scope: 'user', label: '~/.claude/skills' });
  const seen = new Set<string>();
  return roots.filter((root) => {
    const key = realOrResolved(root.path);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Whether `workspace` is one of the trusted project folders (config `skills.trusted_projects`) or inside one. */
export function isProjectTrusted(workspace: string, trustedProjects: string[], userHome: string): boolean {
  const ws = realOrResolved(workspace);
  return trustedProjects.some((entry) => {
    const trusted = realOrResolved(expandPath(entry, userHome, userHome));
    return ws === trusted || ws.startsWith(trusted.endsWith(sep) ? trusted : trusted + sep);
  });
}

export interface ScanOptions {
  maxDepth?: number;
  maxDirs?: number;
  /** Folders a symlink inside a root may point into (case 50); anything else outside the root is not followed. */
  allowedSymlinkTargets?: string[];
}

interface QueuedDir {
  path: string;
  /** Its real path, so a folder reached twice (through a link) is scanned once. */
  real: string;
  segments: string[];
}

export interface FoundSkillDir {
  /** The folder as reached from the root (a followed symlink keeps its in-root path). */
  dir: string;
  /** Path segments between the root and the folder: Hermes' `<category>/<name>` layout puts the category first. */
  segments: string[];
}

export interface ScanResult {
  found: FoundSkillDir[];
  /** Folders and links the scan refused or could not read, and a note when a bound stopped it. */
  notes: SkippedSkill[];
}

/**
 * Every folder under `root` that holds a SKILL.md (or skill.md). A skill folder is not searched further:
 * its subfolders are its resources (a template folder may well contain a SKILL.md of its own). `.git`,
 * `node_modules` and dot-folders such as `.archive` are skipped (case 42).
 */
export function findSkillDirs(rootPath: string, options: ScanOptions = {}): ScanResult {
  const maxDepth = options.maxDepth ?? MAX_SCAN_DEPTH;
  const maxDirs = options.maxDirs ?? MAX_SCAN_DIRS;
  const found: FoundSkillDir[] = [];
  const notes: SkippedSkill[] = [];
  let realRoot: string;
  try {
    realRoot = realpathSync(rootPath);
  } catch (err) {
    // A root that does not exist is normal (most users have no ~/.claude/skills); anything else is reported.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') notes.push(note(rootPath, `cannot open the skill folder: ${errorMessage(err)}`, 'H-scan'));
    return { found, notes };
  }
  const allowed = [realRoot, ...(options.allowedSymlinkTargets ?? []).map(realOrResolved)];
  const visited = new Set<string>([realRoot]);
  const queue: QueuedDir[] = [{ path: rootPath, real: realRoot, segments: [] }];
  let visitedCount = 0;

  while (queue.length) {
    const current = queue.shift() as QueuedDir;
    if (++visitedCount > maxDirs) {
      notes.push(note(rootPath, `the scan stopped after ${maxDirs} folders; skills deeper in this folder were not loaded`, 'H-scan'));
      break;
    }
    let entries: Dirent[];
    try {
      entries = readdirSync(current.path, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    } catch (err) {
      notes.push(note(current.path, `cannot list the folder: ${errorMessage(err)}`, 'H-scan'));
      continue;
    }
    if (entries.some((e) => (e.name === 'SKILL.md' || e.name === 'skill.md') && (e.isFile() || e.isSymbolicLink()))) {
      found.push({ dir: current.path, segments: current.segments });
      continue;
    }
    if (current.segments.length >= maxDepth) continue;
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = join(current.path, entry.name);
      const segments = [...current.segments, entry.name];
      if (entry.isDirectory()) {
        const real = join(current.real, entry.name);
        if (!visited.has(real)) queue.push({ path, real, segments });
        visited.add(real);
        continue;
      }
      if (!entry.isSymbolicLink()) continue;
      const target = followableLink(path, allowed, visited);
      if (target.ok) queue.push({ path, real: target.real, segments });
      else if (target.reason) notes.push(note(path, target.reason, 'H-symlink'));
    }
  }
  return { found, notes };
}

/** A symlinked folder is followed only when it resolves inside the root or an allowed target, and only once. */
function followableLink(path: string, allowed: string[], visited: Set<string>): { ok: true; real: string } | { ok: false; reason: string | null } {
  let real: string;
  try {
    real = realpathSync(path);
    if (!statSync(real).isDirectory()) return { ok: false, reason: null };
  } catch (err) {
    return { ok: false, reason: `broken link: ${errorMessage(err)}` };
  }
  if (!allowed.some((base) => real === base || real.startsWith(base + sep))) {
    return { ok: false, reason: `links to ${real}, outside the skill folder; not followed (allow it in skills settings to load it)` };
  }
  // A link back up the tree would loop forever without this.
  if (visited.has(real)) return { ok: false, reason: null };
  visited.add(real);
  return { ok: true, real };
}

function note(path: string, reason: string, rule: string): SkippedSkill {
  return { path, reason, issues: [{ rule, severity: 'warning', message: reason }] };
}

/** `~/x` against the user's home; a relative path against `base` (HEARTH_HOME for config entries). */
export function expandPath(path: string, userHome: string, base: string): string {
  if (path === '~') return userHome;
  if (path.startsWith('~/')) return join(userHome, path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(base, path);
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    // Missing or unreadable: it is only compared with other paths here, so its resolved form will do.
    return resolve(path);
  }
}
