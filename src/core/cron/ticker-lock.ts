import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { errorMessage } from '../errors.js';

/**
 * One cron ticker per HEARTH_HOME: `<home>/cron.lock` holds the owner's pid, host and a token. A lock whose
 * process is gone (same host), or whose owner stopped touching it (any host, e.g. a home on a shared disk), is
 * stale and taken over. The owner touches it on every wake, and checks it still holds it.
 */
export interface LockOwner {
  pid: number;
  host: string;
  token: string;
  since: number;
}

export type LockResult = { acquired: true } | { acquired: false; reason: string; owner: LockOwner | null };

/** A heartbeat older than this marks the lock stale even when its pid looks alive (pid reuse, another host). */
export const LOCK_STALE_MS = 5 * 60_000;

export class TickerLock {
  readonly path: string;
  private readonly token = randomBytes(8).toString('hex');
  private held = false;

  constructor(home: string, private readonly staleMs = LOCK_STALE_MS) {
    this.path = join(home, 'cron.lock');
  }

  get isHeld(): boolean {
    return this.held;
  }

  acquire(): LockResult {
    if (this.held) return this.stillHeld() ? { acquired: true } : this.lost();
    if (this.tryCreate()) return { acquired: true };
    const owner = this.readOwner();
    const staleWhy = this.staleReason(owner);
    if (staleWhy === null) {
      const who = owner === null ? 'another process' : `pid ${owner.pid} on ${owner.host} (since ${new Date(owner.since).toISOString()})`;
      return { acquired: false, owner, reason: `another cron ticker owns this HEARTH_HOME: ${who}; this one stays idle and takes over if that one stops (lock ${this.path})` };
    }
    // Stale: remove it and race for it like a fresh start; whoever creates it first owns it.
    try {
      unlinkSync(this.path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return { acquired: false, owner, reason: `cannot take over the stale cron lock ${this.path} (${staleWhy}): ${errorMessage(err)}` };
    }
    if (this.tryCreate()) return { acquired: true };
    return { acquired: false, owner: this.readOwner(), reason: `another cron ticker took over the stale lock ${this.path} first` };
  }

  /** Marks the owner alive; false when the lock is no longer ours (taken over after a long stall). */
  heartbeat(): boolean {
    if (!this.held) return false;
    if (!this.stillHeld()) {
      this.held = false;
      return false;
    }
    const now = new Date();
    try {
      utimesSync(this.path, now, now);
    } catch {
      // A failed touch only risks a takeover after LOCK_STALE_MS; the next wake touches again.
    }
    return true;
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    if (this.readOwner()?.token !== this.token) return;
    try {
      unlinkSync(this.path);
    } catch (err) {
      // Gone already is fine; anything else leaves a lock the next ticker sees as stale (our pid is gone).
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }

  private tryCreate(): boolean {
    const owner: LockOwner = { pid: process.pid, host: hostname(), token: this.token, since: Date.now() };
    try {
      writeFileSync(this.path, `${JSON.stringify(owner)}\n`, { flag: 'wx', mode: 0o600 });
      this.held = true;
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    }
  }

  private stillHeld(): boolean {
    return this.readOwner()?.token === this.token;
  }

  private lost(): LockResult {
    this.held = false;
    return { acquired: false, owner: this.readOwner(), reason: `the cron lock ${this.path} was taken over by another ticker` };
  }

  private readOwner(): LockOwner | null {
    try {
      const value = JSON.parse(readFileSync(this.path, 'utf8')) as Partial<LockOwner>;
      if (typeof value.pid !== 'number' || typeof value.token !== 'string') return null;
      return { pid: value.pid, host: String(value.host ?? ''), token: value.token, since: Number(value.since ?? 0) };
    } catch {
      // Missing, half-written or not JSON: treated as "no readable owner"; staleReason decides by its age.
      return null;
    }
  }

  /** Why the existing lock may be taken over, or null when its owner looks alive. */
  private staleReason(owner: LockOwner | null): string | null {
    let age: number;
    try {
      age = Date.now() - statSync(this.path).mtimeMs;
    } catch {
      return 'it disappeared';
    }
    if (age > this.staleMs) return `its owner has not touched it for ${Math.round(age / 1000)} s`;
    if (owner === null) return age > 10_000 ? 'it cannot be read' : null;
    if (owner.host === hostname() && !processAlive(owner.pid)) return `its process ${owner.pid} is gone`;
    return null;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else, so it is alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
