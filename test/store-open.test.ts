import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../src/core/store/open-store.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'hearth-open-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

const keyEnv = (key = randomBytes(32).toString('hex')) => ({ HEARTH_DB_KEY: key });

describe('openStore with HEARTH_DB_KEY', () => {
  it('creates <home>/state.db, persists across opens, and writes no key file', () => {
    const env = keyEnv();
    const store = openStore(home, { env });
    const session = store.createSession({ source: 'cli', model: 'x' });
    store.appendMessage(session.id, { role: 'user', content: 'persist me' });
    store.close();

    const again = openStore(home, { env });
    expect(again.getMessages(session.id).map((m) => m.content)).toEqual(['persist me']);
    again.close();
    // Only the database (and its WAL companions) and the standard folders: nothing that could hold a key.
    const entries = readdirSync(home).filter((name) => !['skills', 'models', 'logs'].includes(name));
    expect(entries.every((name) => name.startsWith('state.db'))).toBe(true);
  });

  it('a different HEARTH_DB_KEY on an existing database is db_wrong_key', () => {
    openStore(home, { env: keyEnv() }).close();
    expect(() => openStore(home, { env: keyEnv() })).toThrow(expect.objectContaining({ code: 'db_wrong_key' }));
  });

  it.each(['abc', 'z'.repeat(64), '0'.repeat(63)])('a malformed HEARTH_DB_KEY (%s) is db_key_invalid naming the format', (bad) => {
    expect(() => openStore(home, { env: { HEARTH_DB_KEY: bad } })).toThrow(
      expect.objectContaining({ code: 'db_key_invalid', message: expect.stringContaining('64 hexadecimal characters') }),
    );
  });
});
