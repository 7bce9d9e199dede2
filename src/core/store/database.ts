import Database from 'better-sqlite3-multiple-ciphers';
import { HearthError, errorMessage } from '../errors.js';

export type Db = Database.Database;

export interface OpenDatabaseOptions {
  path: string;
  /** 32 raw bytes. Used as a raw SQLCipher key (no passphrase KDF: it is already random). */
  key: Buffer;
}

/**
 * Open (or create) an encrypted SQLite database, SQLCipher 4 compatible, so the file can also be
 * opened by `sqlcipher` or DB Browser for SQLite given the same raw key. The key is verified before
 * returning: a wrong key is `db_wrong_key`, any other failure `db_io`. The key never appears in an
 * error message or log.
 */
export function openDatabase({ path, key }: OpenDatabaseOptions): Db {
  if (key.length !== 32) {
    throw new HearthError('db_key_invalid', `The database key must be 32 bytes; got ${key.length}.`);
  }

  let db: Db;
  try {
    db = new Database(path);
  } catch (err) {
    throw new HearthError('db_io', `Cannot open the database ${path}: ${errorMessage(err)}`, { cause: err, details: { path } });
  }

  try {
    // Cipher settings must precede the key; the key pragma must precede any other access.
    db.pragma("cipher='sqlcipher'");
    db.pragma('legacy=4');
    db.pragma(`key="x'${key.toString('hex')}'"`);
    // The first read decrypts page 1: this is where a wrong key shows up (SQLITE_NOTADB).
    db.prepare('SELECT count(*) FROM sqlite_master').get();
  } catch (err) {
    db.close();
    if ((err as { code?: unknown }).code === 'SQLITE_NOTADB') {
      throw new HearthError(
        'db_wrong_key',
        `Cannot decrypt ${path}: the key does not match this database (or the file is not a Hearth database). ` +
          'The key comes from HEARTH_DB_KEY when set, otherwise from the OS keychain entry hearth/db-key: use the key the database was created with.',
        { details: { path } },
      );
    }
    throw new HearthError('db_io', `Cannot read the database ${path}: ${describeSqliteError(err)}`, { cause: err, details: { path } });
  }

  try {
    const mode: unknown = db.pragma('journal_mode = WAL', { simple: true });
    if (mode !== 'wal') throw new Error(`the file system did not allow WAL mode (journal_mode is ${String(mode)})`);
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    // FULL: each commit is fsynced, so an append survives power loss too, not only a killed process.
    db.pragma('synchronous = FULL');
    // Sorts and temporary indexes stay in memory: SQLite's temp files are not encrypted.
    db.pragma('temp_store = MEMORY');
    // 64 MiB page cache (default 16): every page read from disk is also decrypted, so hits are worth more.
    db.pragma('cache_size = -65536');
  } catch (err) {
    db.close();
    throw new HearthError('db_io', `Cannot configure the database ${path}: ${describeSqliteError(err)}`, { cause: err, details: { path } });
  }
  return db;
}

function describeSqliteError(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? `${errorMessage(err)} (${code})` : errorMessage(err);
}
