import { afterEach, describe, expect, it } from 'vitest';
import { PAIRING_ALPHABET, PAIRING_LIMITS, PairingStore } from '../src/core/gateway/pairing.js';
import { createTempStore, type TempStore } from './fixtures/temp-store.js';

/**
 * DM pairing exactly as PARITY §10 describes it, on a real encrypted store file with an injected clock: codes of 8
 * from the unambiguous alphabet, an hour's life, one request per user per 10 minutes, at most 3 pending per
 * platform, and 5 failed approvals locking the platform's approvals for an hour.
 */
const temps: TempStore[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) t.cleanup();
});

function setup(): { pairing: PairingStore; clock: { now: number }; reopen(): PairingStore } {
  const temp = createTempStore('hearth-pairing-');
  temps.push(temp);
  const clock = { now: Date.UTC(2026, 0, 1) };
  return { pairing: new PairingStore(temp.open().db, () => clock.now), clock, reopen: () => new PairingStore(temp.open().db, () => clock.now) };
}

const MIN = 60_000;

function issued(outcome: ReturnType<PairingStore['request']>): string {
  if (outcome.kind !== 'issued') throw new Error(`expected a new code, got ${outcome.kind}`);
  return outcome.request.code;
}

describe('pairing codes', () => {
  // Catches Math.random codes, ambiguous characters (0/O, 1/I) and short codes.
  it('are 8 characters from the unambiguous alphabet, different each time', () => {
    const { pairing, clock } = setup();
    const codes = new Set<string>();
    for (let i = 0; i < 60; i++) {
      clock.now += PAIRING_LIMITS.requestIntervalMs;
      pairing.clearPending();
      const code = issued(pairing.request('telegram', { id: `u${i}` }));
      expect(code).toMatch(new RegExp(`^[${PAIRING_ALPHABET}]{8}$`));
      expect(code).not.toMatch(/[01OI]/);
      codes.add(code);
    }
    expect(codes.size).toBe(60);
  });

  it('approve pairs the user, stored across a reopen, and the code is used up', () => {
    const { pairing, reopen } = setup();
    const code = issued(pairing.request('telegram', { id: 'u1', name: 'Ann' }));
    expect(pairing.isPaired('telegram', 'u1')).toBe(false);
    expect(pairing.approve('telegram', code.toLowerCase())).toMatchObject({ platform: 'telegram', userId: 'u1', userName: 'Ann' });
    const again = reopen();
    expect(again.isPaired('telegram', 'u1')).toBe(true);
    expect(again.isPaired('discord', 'u1')).toBe(false);
    expect(again.pending()).toEqual([]);
    expect(() => again.approve('telegram', code)).toThrow(/No pending telegram pairing request/);
    expect(again.revoke('telegram', 'u1')).toBe(true);
    expect(again.isPaired('telegram', 'u1')).toBe(false);
    expect(again.revoke('telegram', 'u1')).toBe(false);
  });

  // Catches codes that never expire (a code leaked in a screenshot days later still pairs).
  it('expire after an hour', () => {
    const { pairing, clock } = setup();
    const code = issued(pairing.request('telegram', { id: 'u1' }));
    clock.now += PAIRING_LIMITS.codeTtlMs;
    expect(() => pairing.approve('telegram', code)).toThrow(/has expired/);
    expect(pairing.isPaired('telegram', 'u1')).toBe(false);
    expect(pairing.pending()).toEqual([]);
  });

  // Catches a user who floods the bot with DMs minting a code each time.
  it('one request per user per 10 minutes; the live code is repeated, not renewed', () => {
    const { pairing, clock } = setup();
    const code = issued(pairing.request('telegram', { id: 'u1' }));
    clock.now += 5 * MIN;
    expect(pairing.request('telegram', { id: 'u1' })).toMatchObject({ kind: 'pending', request: { code } });
    pairing.clearPending();
    expect(pairing.request('telegram', { id: 'u1' })).toMatchObject({ kind: 'rate_limited', retryAt: Date.UTC(2026, 0, 1) + PAIRING_LIMITS.requestIntervalMs });
    clock.now += 5 * MIN;
    expect(pairing.request('telegram', { id: 'u1' }).kind).toBe('issued');
  });

  // Catches an unbounded queue of requests an attacker fills with many accounts.
  it('at most 3 pending per platform; other platforms are counted apart', () => {
    const { pairing, clock } = setup();
    for (const id of ['a', 'b', 'c']) issued(pairing.request('telegram', { id }));
    expect(pairing.request('telegram', { id: 'd' })).toEqual({ kind: 'too_many_pending' });
    expect(pairing.request('discord', { id: 'd' }).kind).toBe('issued');
    // Expired ones no longer count.
    clock.now += PAIRING_LIMITS.codeTtlMs;
    expect(pairing.request('telegram', { id: 'd' }).kind).toBe('issued');
  });

  // Catches brute force: 32^8 codes are many, but unlimited tries against 3 live codes must still be stopped.
  it('5 failed approvals lock the platform for an hour, even for the right code', () => {
    const { pairing, clock } = setup();
    const code = issued(pairing.request('telegram', { id: 'u1' }));
    for (let i = 1; i <= 4; i++) expect(() => pairing.approve('telegram', 'WRONGCDE')).toThrow(new RegExp(`${5 - i} more failed attempt`));
    expect(() => pairing.approve('telegram', 'WRONGCDE')).toThrow(/now locked for an hour/);
    expect(() => pairing.approve('telegram', code)).toThrow(/locked until/);
    expect(pairing.lockedUntil('telegram')).toBe(clock.now + PAIRING_LIMITS.lockoutMs);
    // Another platform is not locked.
    issued(pairing.request('discord', { id: 'u2' }));
    expect(pairing.lockedUntil('discord')).toBeNull();
    clock.now += PAIRING_LIMITS.lockoutMs;
    // The lock is over; the code itself expired with it, so the user asks again and the new code works.
    expect(() => pairing.approve('telegram', code)).toThrow(/has expired/);
    const fresh = issued(pairing.request('telegram', { id: 'u1' }));
    expect(pairing.approve('telegram', fresh).userId).toBe('u1');
  });

  it('a success resets the failure count', () => {
    const { pairing } = setup();
    for (let i = 0; i < 4; i++) expect(() => pairing.approve('telegram', 'BADCODE2')).toThrow();
    pairing.approve('telegram', issued(pairing.request('telegram', { id: 'u1' })));
    for (let i = 0; i < 4; i++) expect(() => pairing.approve('telegram', 'BADCODE2')).toThrow(/more failed attempt/);
  });
});
