import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { HearthError, errorMessage } from '../errors.js';

/** Sub-folders every Hearth home has; created by `ensureHome`. */
export const HOME_SUBDIRS = ['skills', 'models', 'logs'] as const;

/**
 * The Hearth home folder: `HEARTH_HOME` when set, otherwise `~/.hearth`. The desktop app and the CLI
 * resolve it the same way so they share one store, one config and one skill library.
 */
export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.HEARTH_HOME?.trim();
  if (fromEnv) {
    // `~/x` is not expanded by every shell when quoted; accept it rather than creating a folder named "~".
    const expanded = fromEnv === '~' || fromEnv.startsWith('~/') ? join(homedir(), fromEnv.slice(1)) : fromEnv;
    return isAbsolute(expanded) ? expanded : resolve(expanded);
  }
  return join(homedir(), '.hearth');
}

/**
 * Create the home (owner-only, 0700: logs and skills can carry private text even though the database
 * itself is encrypted) and its sub-folders. Idempotent. An existing folder's permissions are left alone:
 * HEARTH_HOME may point at a folder the user manages (never chmod something like /tmp).
 */
export function ensureHome(home: string): void {
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    for (const sub of HOME_SUBDIRS) mkdirSync(join(home, sub), { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new HearthError('config_io', `Cannot create the Hearth home ${home}: ${errorMessage(err)}. Set HEARTH_HOME to a writable folder.`, {
      cause: err,
      details: { home },
    });
  }
}
