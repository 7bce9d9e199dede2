import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensureHome } from '../config/home.js';
import { resolveDbKey } from '../safety/secrets/db-key.js';
import { openDatabase } from './database.js';
import { migrateStore } from './migrations.js';
import { SqliteSessionStore } from './session-store.js';

export function databasePath(home: string): string {
  return join(home, 'state.db');
}

/**
 * Open `<home>/state.db` with the key from HEARTH_DB_KEY or the OS keychain (created on first run),
 * bring its schema up to date, and return the session store.
 */
export function openStore(home: string, options: { env?: NodeJS.ProcessEnv } = {}): SqliteSessionStore {
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
  return new SqliteSessionStore(db);
}
