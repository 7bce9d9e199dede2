import { randomInt } from 'node:crypto';
import { HearthError } from '../errors.js';
import type { Db } from '../store/database.js';
import type { Platform } from './types.js';

/**
 * DM pairing, as PARITY §10 describes Hermes' (and with its limits): someone unknown DMs the bot and gets a code;
 * the owner approves it (`hearth pairing approve <platform> <code>` or the desktop page), after which the user may
 * talk to the agent. Everything lives in the encrypted store (tables of store version 11). The clock is injected
 * so expiry, rate limits and lockouts are tested without waiting.
 */

/** No 0/O, 1/I: a code read off a phone screen and typed into a terminal must not be ambiguous. */
export const PAIRING_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const PAIRING_CODE_LENGTH = 8;
export const PAIRING_LIMITS = {
  codeTtlMs: 60 * 60_000,
  /** One new code per user per 10 minutes. */
  requestIntervalMs: 10 * 60_000,
  maxPendingPerPlatform: 3,
  /** Failed approvals (a wrong or expired code) before the platform's approvals lock. */
  maxFailedApprovals: 5,
  lockoutMs: 60 * 60_000,
} as const;

export interface PairingRequest {
  platform: Platform;
  code: string;
  userId: string;
  userName: string | null;
  createdAt: number;
  expiresAt: number;
}

export interface PairedUser {
  platform: Platform;
  userId: string;
  userName: string | null;
  approvedAt: number;
}

/** What an unknown DM gets. `issued` and `pending` carry a code to tell the user; the others are logged, not answered. */
export type PairingOutcome =
  | { kind: 'issued'; request: PairingRequest }
  /** The user already has a live code: the same code again, no new request. */
  | { kind: 'pending'; request: PairingRequest }
  | { kind: 'rate_limited'; retryAt: number }
  | { kind: 'too_many_pending' }
  | { kind: 'already_paired' };

interface RequestRow {
  platform: Platform;
  code: string;
  user_id: string;
  user_name: string | null;
  created_at: number;
  expires_at: number;
}

export class PairingStore {
  private readonly statements;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
    private readonly limits: typeof PAIRING_LIMITS = PAIRING_LIMITS,
  ) {
    this.statements = {
      pendingOfUser: db.prepare<[string, string, number], RequestRow>('SELECT * FROM gateway_pairing_requests WHERE platform = ? AND user_id = ? AND expires_at > ? ORDER BY created_at DESC LIMIT 1'),
      countPending: db.prepare<[string, number], { n: number }>('SELECT count(*) AS n FROM gateway_pairing_requests WHERE platform = ? AND expires_at > ?'),
      lastRequest: db.prepare<[string, string], { requested_at: number }>('SELECT requested_at FROM gateway_pairing_last_request WHERE platform = ? AND user_id = ?'),
      setLastRequest: db.prepare(
        'INSERT INTO gateway_pairing_last_request (platform, user_id, requested_at) VALUES (?, ?, ?) ON CONFLICT (platform, user_id) DO UPDATE SET requested_at = excluded.requested_at',
      ),
      insertRequest: db.prepare('INSERT INTO gateway_pairing_requests (platform, code, user_id, user_name, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)'),
      requestByCode: db.prepare<[string, string], RequestRow>('SELECT * FROM gateway_pairing_requests WHERE platform = ? AND code = ?'),
      deleteRequestsOfUser: db.prepare<[string, string]>('DELETE FROM gateway_pairing_requests WHERE platform = ? AND user_id = ?'),
      deleteExpired: db.prepare<[number]>('DELETE FROM gateway_pairing_requests WHERE expires_at <= ?'),
      allPending: db.prepare<[number], RequestRow>('SELECT * FROM gateway_pairing_requests WHERE expires_at > ? ORDER BY platform, created_at'),
      clearPending: db.prepare('DELETE FROM gateway_pairing_requests'),
      isPaired: db.prepare<[string, string], { one: number }>('SELECT 1 AS one FROM gateway_paired_users WHERE platform = ? AND user_id = ?'),
      pair: db.prepare(
        'INSERT INTO gateway_paired_users (platform, user_id, user_name, approved_at) VALUES (?, ?, ?, ?) ON CONFLICT (platform, user_id) DO UPDATE SET user_name = excluded.user_name, approved_at = excluded.approved_at',
      ),
      unpair: db.prepare<[string, string]>('DELETE FROM gateway_paired_users WHERE platform = ? AND user_id = ?'),
      allPaired: db.prepare<[], { platform: Platform; user_id: string; user_name: string | null; approved_at: number }>('SELECT * FROM gateway_paired_users ORDER BY platform, approved_at'),
      lockout: db.prepare<[string], { failures: number; locked_until: number | null }>('SELECT failures, locked_until FROM gateway_pairing_lockouts WHERE platform = ?'),
      setLockout: db.prepare(
        'INSERT INTO gateway_pairing_lockouts (platform, failures, locked_until) VALUES (?, ?, ?) ON CONFLICT (platform) DO UPDATE SET failures = excluded.failures, locked_until = excluded.locked_until',
      ),
      clearLockout: db.prepare<[string]>('DELETE FROM gateway_pairing_lockouts WHERE platform = ?'),
    };
  }

  isPaired(platform: Platform, userId: string): boolean {
    return this.statements.isPaired.get(platform, userId) !== undefined;
  }

  /** An unknown user DMed the bot: a code for them, the code they already hold, or why none is given. */
  request(platform: Platform, user: { id: string; name?: string }): PairingOutcome {
    return this.db.transaction((): PairingOutcome => {
      const now = this.now();
      if (this.isPaired(platform, user.id)) return { kind: 'already_paired' };
      const live = this.statements.pendingOfUser.get(platform, user.id, now);
      if (live !== undefined) return { kind: 'pending', request: toRequest(live) };
      const last = this.statements.lastRequest.get(platform, user.id)?.requested_at;
      if (last !== undefined && now - last < this.limits.requestIntervalMs) return { kind: 'rate_limited', retryAt: last + this.limits.requestIntervalMs };
      if ((this.statements.countPending.get(platform, now)?.n ?? 0) >= this.limits.maxPendingPerPlatform) return { kind: 'too_many_pending' };
      this.statements.deleteExpired.run(now);
      const code = this.freshCode(platform);
      const request: PairingRequest = { platform, code, userId: user.id, userName: user.name ?? null, createdAt: now, expiresAt: now + this.limits.codeTtlMs };
      this.statements.insertRequest.run(platform, code, user.id, request.userName, now, request.expiresAt);
      this.statements.setLastRequest.run(platform, user.id, now);
      return { kind: 'issued', request };
    })();
  }

  /**
   * The owner approves a code. A wrong or expired code counts as a failed approval; the fifth in a row locks the
   * platform's approvals for an hour (a guessed code must not pair a stranger). Throws a HearthError saying which.
   */
  approve(platform: Platform, code: string): PairedUser {
    const normalized = code.trim().toUpperCase();
    // Decided in one transaction, thrown after it: a throw inside would roll back the failure count it records.
    const outcome = this.db.transaction((): PairedUser | string => {
      const now = this.now();
      const lock = this.statements.lockout.get(platform);
      if (lock?.locked_until != null && lock.locked_until > now) {
        return `Pairing approvals for ${platform} are locked until ${new Date(lock.locked_until).toISOString()} after ${this.limits.maxFailedApprovals} failed attempts. Wait, then try again (ask the user for a new code if theirs expired).`;
      }
      const row = this.statements.requestByCode.get(platform, normalized);
      if (row === undefined || row.expires_at <= now) {
        // A lockout that has run out starts the count again.
        const failures = (lock?.locked_until != null ? 0 : (lock?.failures ?? 0)) + 1;
        const lockedUntil = failures >= this.limits.maxFailedApprovals ? now + this.limits.lockoutMs : null;
        this.statements.setLockout.run(platform, lockedUntil === null ? failures : 0, lockedUntil);
        const why =
          row === undefined
            ? `No pending ${platform} pairing request has the code ${normalized}`
            : `The ${platform} pairing code ${normalized} has expired (codes last an hour); the user gets a new one by messaging the bot again`;
        const left = this.limits.maxFailedApprovals - failures;
        return `${why}. ${lockedUntil === null ? `${left} more failed attempt${left === 1 ? '' : 's'} lock approvals for an hour.` : 'Approvals for this platform are now locked for an hour.'} \`hearth pairing list\` shows the pending codes.`;
      }
      this.statements.clearLockout.run(platform);
      this.statements.deleteRequestsOfUser.run(platform, row.user_id);
      this.statements.pair.run(platform, row.user_id, row.user_name, now);
      return { platform, userId: row.user_id, userName: row.user_name, approvedAt: now };
    })();
    if (typeof outcome === 'string') throw new HearthError('usage', outcome);
    return outcome;
  }

  /** Takes a paired user's access away. False when the user was not paired. */
  revoke(platform: Platform, userId: string): boolean {
    return this.statements.unpair.run(platform, userId).changes > 0;
  }

  /** Drops every pending code; returns how many. */
  clearPending(): number {
    return this.statements.clearPending.run().changes;
  }

  pending(): PairingRequest[] {
    return this.statements.allPending.all(this.now()).map(toRequest);
  }

  paired(): PairedUser[] {
    return this.statements.allPaired.all().map((r) => ({ platform: r.platform, userId: r.user_id, userName: r.user_name, approvedAt: r.approved_at }));
  }

  /** When the platform's approvals are locked, until when; null when they are not. */
  lockedUntil(platform: Platform): number | null {
    const until = this.statements.lockout.get(platform)?.locked_until ?? null;
    return until !== null && until > this.now() ? until : null;
  }

  private freshCode(platform: Platform): string {
    // 32^8 codes: a collision among at most three live ones is vanishingly rare, but never reuse a live code.
    for (;;) {
      let code = '';
      for (let i = 0; i < PAIRING_CODE_LENGTH; i++) code += PAIRING_ALPHABET[randomInt(PAIRING_ALPHABET.length)];
      if (this.statements.requestByCode.get(platform, code) === undefined) return code;
    }
  }
}

function toRequest(row: RequestRow): PairingRequest {
  return { platform: row.platform, code: row.code, userId: row.user_id, userName: row.user_name, createdAt: row.created_at, expiresAt: row.expires_at };
}
