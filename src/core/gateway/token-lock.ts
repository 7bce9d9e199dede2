import { createHash } from 'node:crypto';
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HearthError } from '../errors.js';

/**
 * One owner per bot token (PARITY §10): two HEARTH_HOMEs polling one Telegram bot would steal each other's updates
 * and answer from two different memories. The lock is a file named by a hash of the token (never the token) in a
 * folder every home on the machine shares, holding the owner's pid and home. A lock whose pid is gone is stale and
 * is taken over.
 */
export interface TokenLock {
  readonly path: string;
  release(): void;
}

interface LockContent {
  pid: number;
  home: string;
  platform: string;
  since: number;
}

/** The shared folder: the user's runtime dir where there is one (Linux), else the OS temp dir. */
export function lockDirectory(env: NodeJS.ProcessEnv): string {
  return env.XDG_RUNTIME_DIR?.trim() || tmpdir();
}

export function tokenLockPath(directory: string, platform: string, token: string): string {
  const digest = createHash('sha256').update(`hearth-gateway\0${platform}\0${token}`).digest('hex').slice(0, 32);
  return join(directory, `hearth-gateway-${platform}-${digest}.lock`);
}

export function acquireTokenLock(options: { directory: string; platform: string; token: string; home: string; pid?: number }): TokenLock {
  const path = tokenLockPath(options.directory, options.platform, options.token);
  const pid = options.pid ?? process.pid;
  const content: LockContent = { pid, home: options.home, platform: options.platform, since: Date.now() };
  // Two tries: the second after removing a stale lock. `wx` makes creation atomic, so two starters cannot both win.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, JSON.stringify(content), { flag: 'wx', mode: 0o600 });
      return { path, release: () => releaseIfOurs(path, pid) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new HearthError('config_io', `Could not create the ${options.platform} token lock ${path}: ${(err as Error).message}`);
    }
    const holder = readLock(path);
    if (holder !== null && holder.pid !== pid && isAlive(holder.pid)) {
      throw new HearthError(
        'usage',
        `The ${options.platform} bot token is already in use by another Hearth gateway (pid ${holder.pid}, HEARTH_HOME ${holder.home}). One bot serves one home: stop that gateway, or give this home its own bot.`,
      );
    }
    // Stale (the owner died without releasing) or our own from an earlier start in this process: take it over.
    try {
      unlinkSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new HearthError('config_io', `Could not remove the stale token lock ${path}: ${(err as Error).message}`);
    }
  }
  throw new HearthError('usage', `Another process took the ${options.platform} token lock ${path} at the same moment; try again.`);
}

function readLock(path: string): LockContent | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockContent>;
    return typeof parsed.pid === 'number' ? { pid: parsed.pid, home: String(parsed.home), platform: String(parsed.platform), since: Number(parsed.since) } : null;
  } catch {
    // Unreadable or half-written by a crash: treated as stale.
    return null;
  }
}

function releaseIfOurs(path: string, pid: number): void {
  if (readLock(path)?.pid !== pid) return;
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** Whether a process with this pid exists (signal 0 checks without sending anything). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
