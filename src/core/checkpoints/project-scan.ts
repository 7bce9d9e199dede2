import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { HearthError } from '../errors.js';
import { streamGitRecords, type ShadowLocation } from './git.js';

export interface ScanLimits {
  max_files: number;
  max_file_mb: number;
}

export interface ProjectScan {
  /** Files a snapshot would hold (after .gitignore), large ones included. */
  fileCount: number;
  /** Paths relative to the root of files over max_file_mb: left out of the snapshot. */
  largeFiles: string[];
}

/** How many stats run at once: enough to hide latency, few enough not to exhaust file descriptors. */
const STAT_BATCH = 64;

/**
 * Lists the files a snapshot would take — exactly what git would add, so `.gitignore` files at every level
 * count — and stops git as soon as the count passes max_files, so a huge folder is neither listed into
 * memory nor hashed. The list of large files comes from the same pass. Large-file exclusions from an
 * earlier snapshot are deliberately not applied here, so a file that shrank is taken again.
 */
export async function scanProject(location: ShadowLocation, limits: ScanLimits, permanentExcludes: string): Promise<ProjectScan> {
  const paths: string[] = [];
  let tooMany = false;
  await streamGitRecords(
    location,
    ['ls-files', '-z', '--cached', '--others', '--exclude-per-directory=.gitignore', `--exclude-from=${permanentExcludes}`],
    (path) => {
      if (path === '') return true;
      if (paths.length >= limits.max_files) {
        tooMany = true;
        return false;
      }
      paths.push(path);
      return true;
    },
  );
  if (tooMany) {
    throw new HearthError(
      'checkpoint_failed',
      `${location.root} has more than ${limits.max_files} files (after its .gitignore), so it is not checkpointed: raise checkpoints.max_files, or ignore generated folders in .gitignore.`,
      { details: { reason: 'too_many_files', root: location.root, max_files: limits.max_files } },
    );
  }
  const maxBytes = limits.max_file_mb * 1024 * 1024;
  const largeFiles: string[] = [];
  for (let i = 0; i < paths.length; i += STAT_BATCH) {
    const batch = paths.slice(i, i + STAT_BATCH);
    const sizes = await Promise.all(batch.map((path) => sizeOf(join(location.root, path))));
    batch.forEach((path, j) => {
      if ((sizes[j] ?? 0) > maxBytes) largeFiles.push(path);
    });
  }
  return { fileCount: paths.length, largeFiles };
}

async function sizeOf(path: string): Promise<number> {
  try {
    const stats = await lstat(path);
    return stats.isFile() ? stats.size : 0;
  } catch (err) {
    // Deleted between the listing and the stat (or a stale index entry): it has no size to limit.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return 0;
    throw new HearthError('checkpoint_failed', `Cannot read ${path} to check its size: ${(err as Error).message}`, { cause: err });
  }
}

/** A gitignore line matching exactly this root-relative path: anchored, glob characters escaped, newlines as `?`. */
export function literalIgnorePattern(path: string): string {
  const escaped = path.replace(/[\\*?[\]]/g, (c) => `\\${c}`).replace(/[\r\n]/g, '?');
  // Trailing spaces are stripped by git unless escaped; a leading ! or # is handled by the leading slash.
  return `/${escaped.replace(/ $/, '\\ ')}`;
}
