/**
 * Real OS keychain tests. They need a Secret Service on the session bus; the project's test script runs
 * the suite inside one (dbus-run-session + an unlocked gnome-keyring-daemon). Each test uses its own
 * HEARTH_KEYCHAIN_SERVICE so a developer's real `hearth` entries are never touched.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DB_KEY_ACCOUNT, resolveDbKey } from '../src/core/safety/secrets/db-key.js';
import { deleteSecret, getSecret, setSecret } from '../src/core/safety/secrets/keychain.js';
import { openStore } from '../src/core/store/open-store.js';

const RESOLVE_FIXTURE = join(import.meta.dirname, 'fixtures', 'resolve-db-key.ts');
const savedService = process.env.HEARTH_KEYCHAIN_SERVICE;
const savedDbKey = process.env.HEARTH_DB_KEY;
let service: string;

beforeEach(() => {
  service = `hearth-test-${randomBytes(6).toString('hex')}`;
  process.env.HEARTH_KEYCHAIN_SERVICE = service;
  delete process.env.HEARTH_DB_KEY;
});
afterEach(() => {
  for (const account of [DB_KEY_ACCOUNT, 'provider:openai']) deleteSecret(account);
  restore('HEARTH_KEYCHAIN_SERVICE', savedService);
  restore('HEARTH_DB_KEY', savedDbKey);
});

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/** Run resolveDbKey in a child process with the given environment changes; returns its JSON outcome. */
function resolveInChild(env: NodeJS.ProcessEnv): { ok: boolean; code?: string; message?: string; bytes?: number } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', RESOLVE_FIXTURE], { env, encoding: 'utf8', timeout: 30_000 });
  if (result.status !== 0) throw new Error(`fixture failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim()) as { ok: boolean; code?: string; message?: string };
}

describe('keychain secrets (real Secret Service)', () => {
  it('stores, reads, overwrites and deletes a secret', () => {
    expect(getSecret('provider:openai')).toBeNull();
    setSecret('provider:openai', 'sk-test-1');
    expect(getSecret('provider:openai')).toBe('sk-test-1');
    setSecret('provider:openai', 'sk-test-2');
    expect(getSecret('provider:openai')).toBe('sk-test-2');
    expect(deleteSecret('provider:openai')).toBe(true);
    expect(getSecret('provider:openai')).toBeNull();
    expect(deleteSecret('provider:openai')).toBe(false);
  });

  it('keeps services apart (catches tests clobbering the real "hearth" entries)', () => {
    setSecret('provider:openai', 'in-test-service');
    process.env.HEARTH_KEYCHAIN_SERVICE = `${service}-other`;
    expect(getSecret('provider:openai')).toBeNull();
    process.env.HEARTH_KEYCHAIN_SERVICE = service;
    expect(getSecret('provider:openai')).toBe('in-test-service');
  });
});

describe('database key', () => {
  it('creates a random 32-byte key on first run, stores it as hex, and returns the same key after', () => {
    const first = resolveDbKey();
    expect(first).toHaveLength(32);
    expect(getSecret(DB_KEY_ACCOUNT)).toBe(first.toString('hex'));
    expect(resolveDbKey().equals(first)).toBe(true);
    // Another process (a new keychain connection) sees the same key: it really is in the keychain.
    const child = resolveInChild({ ...process.env });
    expect(child).toEqual({ ok: true, bytes: 32 });
    expect(getSecret(DB_KEY_ACCOUNT)).toBe(first.toString('hex'));
  });

  it('prefers HEARTH_DB_KEY and then leaves the keychain alone', () => {
    const hex = randomBytes(32).toString('hex');
    expect(resolveDbKey({ env: { ...process.env, HEARTH_DB_KEY: hex } }).toString('hex')).toBe(hex);
    expect(getSecret(DB_KEY_ACCOUNT)).toBeNull();
  });

  it('rejects a malformed keychain entry instead of replacing it (replacing would orphan the database)', () => {
    setSecret(DB_KEY_ACCOUNT, 'not-a-key');
    expect(() => resolveDbKey()).toThrow(expect.objectContaining({ code: 'db_key_invalid' }));
    expect(getSecret(DB_KEY_ACCOUNT)).toBe('not-a-key');
  });

  it('does not mint a new key for an existing database whose key is missing', () => {
    expect(() => resolveDbKey({ databaseExists: true })).toThrow(expect.objectContaining({ code: 'db_wrong_key', message: expect.stringContaining('HEARTH_DB_KEY') }));
    expect(getSecret(DB_KEY_ACCOUNT)).toBeNull();
  });

  it('openStore works end to end with the keychain key and writes no key file', () => {
    const home = mkdtempSync(join(tmpdir(), 'hearth-keychain-home-'));
    try {
      const store = openStore(home);
      const session = store.createSession({ source: 'cli', model: 'x' });
      store.appendMessage(session.id, { role: 'user', content: 'kept under the keychain key' });
      store.close();
      const again = openStore(home);
      expect(again.getMessages(session.id)[0]?.content).toBe('kept under the keychain key');
      again.close();
      const keyHex = getSecret(DB_KEY_ACCOUNT) ?? '';
      expect(keyHex).toMatch(/^[0-9a-f]{64}$/);
      expect(readdirSync(home).filter((name) => !name.startsWith('state.db')).sort()).toEqual(['logs', 'models', 'skills']);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('without a reachable keychain and without HEARTH_DB_KEY, fails with an error naming both options', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/hearth-test-bus' };
    delete env.HEARTH_DB_KEY;
    const outcome = resolveInChild(env);
    expect(outcome.ok).toBe(false);
    expect(outcome.code).toBe('keychain_unavailable');
    expect(outcome.message).toMatch(/Secret Service keychain/);
    expect(outcome.message).toMatch(/unlock/);
    expect(outcome.message).toContain('HEARTH_DB_KEY');
    expect(outcome.message).toContain('64 hex characters');
    // The same environment with HEARTH_DB_KEY set works: the env key never needs the keychain.
    expect(resolveInChild({ ...env, HEARTH_DB_KEY: randomBytes(32).toString('hex') })).toEqual({ ok: true, bytes: 32 });
  });

  it('with a Secret Service whose keyring is locked (nobody to type the password), says so and names both options', () => {
    // A fresh bus where gnome-keyring starts on demand with no unlocked collection: the unlock prompt
    // cannot be shown headless, which is what a locked desktop keyring looks like to Hearth.
    const env = { ...process.env };
    delete env.HEARTH_DB_KEY;
    const result = spawnSync('dbus-run-session', ['--', process.execPath, '--import', 'tsx', RESOLVE_FIXTURE], { env, encoding: 'utf8', timeout: 30_000 });
    const outcome = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as { ok: boolean; code?: string; message?: string };
    expect(outcome.code).toBe('keychain_unavailable');
    expect(outcome.message).toContain('locked');
    expect(outcome.message).toContain('HEARTH_DB_KEY');
  });
});
