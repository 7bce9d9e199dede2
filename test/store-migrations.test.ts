import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HearthError } from '../src/core/errors.js';
import { openDatabase, type Db } from '../src/core/store/database.js';
import { checkFtsIntegrity } from '../src/core/store/fts-schema.js';
import { LATEST_STORE_VERSION, STORE_MIGRATIONS, migrateStore, type StoreMigration } from '../src/core/store/migrations.js';
import { createTempStore, type TempStore } from './fixtures/temp-store.js';

let temp: TempStore;
let db: Db;
beforeEach(() => {
  temp = createTempStore('hearth-migrate-');
  db = openDatabase({ path: temp.path, key: temp.key });
});
afterEach(() => {
  if (db.open) db.close();
  temp.cleanup();
});

const version = () => Number(db.pragma('user_version', { simple: true }));
const tableNames = () => db.prepare<[], { name: string }>(`SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger') ORDER BY name`).all().map((r) => r.name);

describe('store migrations on a real encrypted file', () => {
  it('brings a new database to the latest version with the expected tables, FTS and triggers', () => {
    expect(migrateStore(db)).toEqual({ from: 0, to: LATEST_STORE_VERSION });
    expect(version()).toBe(LATEST_STORE_VERSION);
    const names = tableNames();
    for (const name of ['sessions', 'messages', 'messages_fts', 'messages_trigram', 'messages_fts_after_insert', 'messages_trigram_after_update']) {
      expect(names).toContain(name);
    }
    checkFtsIntegrity(db);
  });

  it('is a no-op on an up-to-date database, including after reopening the file', () => {
    migrateStore(db);
    db.close();
    db = openDatabase({ path: temp.path, key: temp.key });
    expect(migrateStore(db)).toEqual({ from: LATEST_STORE_VERSION, to: LATEST_STORE_VERSION });
  });

  it('rolls a failing migration back completely and reports which one failed', () => {
    const failing: StoreMigration = {
      version: LATEST_STORE_VERSION + 1,
      description: 'add a table, then fail',
      up(target) {
        target.exec('CREATE TABLE half_done (x)');
        throw new Error('boom');
      },
    };
    let error: unknown;
    try {
      migrateStore(db, [...STORE_MIGRATIONS, failing]);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(HearthError);
    expect((error as HearthError).code).toBe('db_io');
    expect((error as HearthError).message).toContain('add a table, then fail');
    expect(version()).toBe(LATEST_STORE_VERSION); // earlier steps committed, the failed one did not
    expect(tableNames()).not.toContain('half_done');
  });

  it('refuses a database from a newer Hearth instead of writing to it', () => {
    migrateStore(db);
    db.pragma(`user_version = ${LATEST_STORE_VERSION + 5}`);
    expect(() => migrateStore(db)).toThrow(expect.objectContaining({ code: 'db_io', message: expect.stringContaining('newer') }));
  });
});
