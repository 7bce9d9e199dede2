import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureHome } from '../config/home.js';
import { resolveDbKey } from '../safety/secrets/db-key.js';
import { openDatabase } from './database.js';
import { migrateStore } from './migrations.js';
import type { TextRedactor } from './redact-message.js';
import { SqliteSessionStore } from './session-store.js';

export function databasePath(home: string): string {
  return join(home, 'state.db');
}

/**
 * Open `<home>/state.db` with the key from HEARTH_DB_KEY or the OS keychain (created on first run),
 * bring its schema up to date, and return the session store. `redact` (secret redaction) is applied to
 * every message written; see `SqliteSessionStore.setRedactor`.
 */
export function openStore(home: string, options: { env?: NodeJS.ProcessEnv; redact?: TextRedactor } = {}): SqliteSessionStore {
  ensureHome(home);
  const path = databasePath(home);
  // An empty file (a first run killed before its first write) holds nothing a new key could orphan.
  const databaseExists = existsSync(path) && statSync(path).size > 0;
  const key = resolveDbKey({ env: options.env, databaseExists });
  const db = openDatabase({ path, key });
  try {
    migrateStore(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return new SqliteSessionStore(db, { redact: options.redact });
}

/**
 * A throwaway encrypted store in a temp folder with a random key, removed by `dispose`: for
 * measurements (`hearth prompt-size`) that need real tools but must not open the user's database.
 */
export function openScratchStore(): { store: SqliteSessionStore; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-scratch-'));
  const db = openDatabase({ path: join(dir, 'scratch.db'), key: randomBytes(32) });
  migrateStore(db);
  const store = new SqliteSessionStore(db);
  return {
    store,
    dispose() {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
