import { posix } from 'node:path';
import { UNKNOWN } from './scan.js';

/**
 * Where a command's path arguments point, as far as a static reading can tell. Paths are resolved
 * against the detector's context (cwd and home) when it has them; a path that still depends on an
 * unknown variable, a substitution or an unknown cwd resolves to `null`, which every rule treats as
 * "could be anywhere" (so never as inside the workspace).
 */
export interface PathContext {
  /** Absolute workspace path; `undefined` when the caller did not say. */
  workspace: string | undefined;
  /** Absolute directory the command runs in; `null` once a `cd` went somewhere unknown. */
  cwd: string | null | undefined;
  home: string | undefined;
  /** HEARTH_HOME, so writes to Hearth's own settings, persona and skills are recognised. */
  hearthHome?: string | undefined;
}

export const SYSTEM_DIRS = ['/bin', '/boot', '/dev', '/etc', '/lib', '/lib32', '/lib64', '/opt', '/proc', '/root', '/sbin', '/srv', '/sys', '/usr', '/var', '/home'];
/** macOS system and user roots, and Windows' drive as WSL mounts it. */
export const MAC_AND_WSL_DIRS = ['/System', '/Library', '/Applications', '/Users', '/private', '/private/etc', '/private/var', '/Volumes', '/mnt/c', '/mnt/c/Windows', '/mnt/c/Windows/System32', '/mnt/c/Windows/SysWOW64', '/mnt/c/Users', '/mnt/c/Program Files', '/mnt/c/Program Files (x86)', '/mnt/c/ProgramData'];
/** Second-level directories whose loss breaks the system as surely as the top-level ones. */
const CRITICAL_SUBDIRS = ['/usr/bin', '/usr/sbin', '/usr/lib', '/usr/lib64', '/usr/share', '/usr/include', '/usr/local', '/var/lib', '/System/Library', '/System/Applications', ...MAC_AND_WSL_DIRS];
const HOME_FORMS = ['~', '$HOME', '${HOME}'];

/** `/etc//x/` → `/etc/x`; `$HOME/x` → `~/x`; `/` stays `/`. Relative paths are left relative. */
export function normalize(path: string): string {
  let p = path;
  for (const form of HOME_FORMS.slice(1)) if (p === form || p.startsWith(`${form}/`)) p = `~${p.slice(form.length)}`;
  const collapsed = p.replace(/\/{2,}/g, '/');
  return collapsed.length > 1 ? collapsed.replace(/\/+$/, '') : collapsed;
}

/** The absolute path `word` names, or `null` when it cannot be known statically. */
export function resolvePath(word: string, ctx: PathContext): string | null {
  let p = normalize(word);
  if (p === '~' || p.startsWith('~/')) {
    if (ctx.home === undefined) return null;
    p = ctx.home + p.slice(1);
  }
  if (/[$`]/.test(p) || p.includes(UNKNOWN) || p.startsWith('~')) return null;
  if (!p.startsWith('/')) {
    if (typeof ctx.cwd !== 'string') return null;
    p = `${ctx.cwd}/${p}`;
  }
  return posix.normalize(p).replace(/(.)\/+$/, '$1');
}

/** True for the root, a home directory, a system directory (or a glob of everything in one). */
export function isCriticalPath(word: string, ctx: PathContext): boolean {
  const symbolic = normalize(word);
  const resolved = resolvePath(word, ctx);
  return [symbolic, resolved].some((path) => path !== null && isCriticalAbsolute(path, ctx.home));
}

/** `/e?c`, `/[u]sr`, `/h*`: a glob is critical when it matches a critical directory. */
function globMatchesCritical(path: string, home: string | undefined): boolean {
  const dir = path.replace(/\/(\*|\.\*)$/, '');
  if (!/[?*[]/.test(dir)) return false;
  const pattern = new RegExp(`^${dir.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}$`);
  return ['/', ...SYSTEM_DIRS, ...CRITICAL_SUBDIRS, ...(home === undefined ? [] : [home])].some((candidate) => pattern.test(candidate));
}

function isCriticalAbsolute(path: string, home: string | undefined): boolean {
  if (globMatchesCritical(path, home)) return true;
  // `dir/*` and `dir/.*` empty the directory: as destructive as deleting it.
  const dir = path.replace(/\/(\*|\.\*|\.\[!.\]\*)$/, '') || '/';
  if (dir === '/' || dir === '/*') return true;
  if (HOME_FORMS.includes(dir) || dir === home || /^~[a-z_][\w-]*$/.test(dir)) return true;
  if (/^\/(home|Users|mnt\/c\/Users)\/[^/]+$/.test(dir) || dir === '/home') return true;
  return SYSTEM_DIRS.includes(dir) || CRITICAL_SUBDIRS.includes(dir);
}

/** Strictly inside the workspace (the workspace itself, or all of it via `*`, is not "inside"). */
export function isInsideWorkspace(word: string, ctx: PathContext): boolean {
  const workspace = usableWorkspace(ctx);
  const resolved = resolvePath(word, ctx);
  if (workspace === null || resolved === null) return false;
  const target = resolved.replace(/\/(\*|\.\*)$/, '');
  return target.startsWith(`${workspace}/`) && target !== `${workspace}/*`;
}

/** A workspace at `/`, a home or a system directory would make "inside the workspace" mean everything. */
function usableWorkspace(ctx: PathContext): string | null {
  if (ctx.workspace === undefined || !ctx.workspace.startsWith('/')) return null;
  const workspace = posix.normalize(ctx.workspace).replace(/(.)\/+$/, '$1');
  return isCriticalAbsolute(workspace, ctx.home) ? null : workspace;
}

/** `path` is `root` or below it; the root `/` matches only its direct children. */
export function isUnder(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => path === root || (root === '/' ? path.startsWith('/') && !path.slice(1).includes('/') : path.startsWith(`${root}/`)));
}

/** The form a path takes in the user's home, `~/x`, whether written `~/x`, `$HOME/x` or `/home/me/x`. */
export function homeRelative(word: string, ctx: PathContext): string | null {
  const p = normalize(word);
  if (p === '~' || p.startsWith('~/')) return p;
  const resolved = resolvePath(word, ctx);
  if (resolved === null) return null;
  if (ctx.home !== undefined && (resolved === ctx.home || resolved.startsWith(`${ctx.home}/`))) return `~${resolved.slice(ctx.home.length)}`;
  const other = /^\/(root|home\/[^/]+|Users\/[^/]+)(\/.*)?$/.exec(resolved);
  return other ? `~${other[2] ?? ''}` : null;
}
