import { readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/** A tool's `path` argument as an absolute path: `~/x` is the user's home, relative paths resolve in the workspace. */
export function resolveToolPath(workspace: string, path: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return resolve(homedir(), path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(workspace, path);
}

/** How a path is shown to the model: relative inside the workspace (shorter, and what it asked for), absolute outside. */
export function displayPath(workspace: string, absolute: string): string {
  const rel = relative(workspace, absolute);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? absolute : rel;
}

/** True when one path is the other or contains it: writes to either could affect a read of the other. */
export function pathsOverlap(a: string, b: string): boolean {
  const withSep = (p: string): string => (p.endsWith(sep) ? p : p + sep);
  return a === b || withSep(a).startsWith(withSep(b)) || withSep(b).startsWith(withSep(a));
}

/** Up to `max` names in the missing file's directory that look like what was meant (typos, wrong case, wrong extension). */
export function similarNames(absolute: string, max = 5): string[] {
  const dir = dirname(absolute);
  const wanted = basename(absolute).toLowerCase();
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch (err) {
    // The directory itself is missing or unreadable: there is nothing nearby to suggest.
    if (['ENOENT', 'ENOTDIR', 'EACCES'].includes((err as NodeJS.ErrnoException).code ?? '')) return [];
    throw err;
  }
  const stem = (name: string): string => name.replace(/\.[^.]*$/, '');
  return entries
    .map((name) => {
      const lower = name.toLowerCase();
      const distance = editDistance(lower, wanted);
      const related = lower.includes(wanted) || wanted.includes(lower) || stem(lower) === stem(wanted);
      return { name, score: related ? Math.min(distance, 1) : distance };
    })
    .filter((c) => c.score <= Math.max(2, Math.floor(wanted.length / 3)))
    .sort((x, y) => x.score - y.score || x.name.localeCompare(y.name))
    .slice(0, max)
    .map((c) => resolve(dir, c.name));
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
