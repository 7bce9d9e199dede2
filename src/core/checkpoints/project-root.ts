import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { ShadowLocation } from './git.js';

/** True when `path` is `folder` or inside it. */
export function isInside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * The project a change belongs to, i.e. the folder one checkpoint covers: the workspace when the path is in it,
 * else the nearest enclosing folder with a `.git`, else the folder itself. `path` is a file about to be written
 * (`kind: 'file'`: its folder is where the search starts) or a command's working directory (`kind: 'dir'`).
 */
export function projectRootFor(path: string, kind: 'file' | 'dir', workspace: string): string {
  const absolute = resolve(path);
  const root = resolve(workspace);
  if (isInside(root, absolute)) return root;
  const start = kind === 'file' ? dirname(absolute) : absolute;
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, '.git'))) return folder;
    if (dirname(folder) === folder) return start;
  }
}

/** Folders that are never snapshotted as a project: the root, a home directory, the system's own directories. */
const NOT_PROJECTS = new Set(['/', '/home', '/root', '/usr', '/etc', '/var', '/opt', '/tmp', '/bin', '/sbin', '/lib', '/boot', '/srv', '/mnt', '/media', '/proc', '/sys', '/dev']);

/** False for the root, the user's home and system directories, which a write outside any project would otherwise snapshot whole. */
export function isProjectFolder(root: string, home = homedir()): boolean {
  const absolute = resolve(root);
  return !NOT_PROJECTS.has(absolute) && absolute !== resolve(home) && !/^\/home\/[^/]+$/.test(absolute);
}

/** The shadow store of a project: `<home>/checkpoints/<first 16 hex of sha256(root)>/`, one per project root. */
export function shadowLocation(home: string, root: string): ShadowLocation {
  const absolute = resolve(root);
  const dir = join(home, 'checkpoints', createHash('sha256').update(absolute).digest('hex').slice(0, 16));
  return { dir, gitDir: join(dir, 'git'), root: absolute };
}

/**
 * For `hearth checkpoints` run in a sub-folder: the nearest folder at or above `dir` that already has checkpoints,
 * else the project `dir` itself would be snapshotted as.
 */
export function projectWithCheckpoints(home: string, dir: string): string {
  for (let folder = resolve(dir); ; folder = dirname(folder)) {
    if (existsSync(shadowLocation(home, folder).gitDir)) return folder;
    if (dirname(folder) === folder) return projectRootFor(dir, 'dir', dir);
  }
}
