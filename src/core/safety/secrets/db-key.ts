import { randomBytes } from 'node:crypto';
import { HearthError, isHearthError } from '../../errors.js';
import { getSecret, keychainService, setSecret } from './keychain.js';

/** Keychain account holding the database key (64 hex characters). */
export const DB_KEY_ACCOUNT = 'db-key';
export const DB_KEY_BYTES = 32;

const HEX_KEY = /^[0-9a-fA-F]{64}$/;

const KEYCHAIN_BY_PLATFORM: Partial<Record<NodeJS.Platform, string>> = {
  darwin: 'unlock the macOS login keychain',
  win32: 'make sure Windows Credential Manager is available to your user',
};

/** The two ways out, named in every "no keychain" error. */
const BOTH_OPTIONS =
  `Either ${KEYCHAIN_BY_PLATFORM[process.platform] ?? 'unlock (or install) a Secret Service keychain such as GNOME Keyring, KWallet or KeePassXC'}, ` +
  'or set HEARTH_DB_KEY to 64 hex characters (for example the output of `openssl rand -hex 32`) and keep that value safe: ' +
  'it is the only way to open the database.';

export interface ResolveDbKeyOptions {
  env?: NodeJS.ProcessEnv;
  /**
   * Whether the encrypted database already exists. A missing keychain entry for an existing database
   * means the key was lost or the keychain changed: minting a new key then would only produce a
   * database nobody can open, so that case is an error instead.
   */
  databaseExists?: boolean;
}

/**
 * The 32-byte database key. Order: `HEARTH_DB_KEY` (64 hex characters) → the keychain entry
 * `<service>/db-key` → a new random key stored in the keychain on first run. Never written to a file.
 */
export function resolveDbKey(options: ResolveDbKeyOptions = {}): Buffer {
  const env = options.env ?? process.env;
  const fromEnv = env.HEARTH_DB_KEY;
  if (fromEnv !== undefined && fromEnv !== '') return parseHexKey(fromEnv.trim(), 'HEARTH_DB_KEY');

  const account = `${keychainService(env)}/${DB_KEY_ACCOUNT}`;
  const stored = withBothOptions(() => getSecret(DB_KEY_ACCOUNT));
  if (stored !== null) return parseHexKey(stored, `the keychain entry ${account}`);

  if (options.databaseExists) {
    throw new HearthError(
      'db_wrong_key',
      `The encrypted database exists but the keychain returned no ${account} entry, so it cannot be opened. ` +
        'If the keychain is locked, unlock it and retry; otherwise restore that entry, or set HEARTH_DB_KEY to the ' +
        '64-hex-character key the database was created with. (No new key is created: it could not open this database.)',
    );
  }

  const key = randomBytes(DB_KEY_BYTES);
  withBothOptions(() => setSecret(DB_KEY_ACCOUNT, key.toString('hex')));
  // Read it back: a keychain that accepts writes but does not keep them would lose the database.
  const check = withBothOptions(() => getSecret(DB_KEY_ACCOUNT));
  if (check !== key.toString('hex')) {
    throw new HearthError('keychain_unavailable', `The OS keychain accepted the new database key but did not return it when read back. ${BOTH_OPTIONS}`);
  }
  return key;
}

function parseHexKey(value: string, source: string): Buffer {
  if (!HEX_KEY.test(value)) {
    // Say what is wrong without echoing the value: it may be a real secret pasted in the wrong place.
    throw new HearthError('db_key_invalid', `${source} must be exactly 64 hexadecimal characters (32 bytes), e.g. from \`openssl rand -hex 32\`; it has ${value.length} characters${/[^0-9a-fA-F]/.test(value) ? ' including non-hex ones' : ''}.`);
  }
  return Buffer.from(value, 'hex');
}

function withBothOptions<T>(use: () => T): T {
  try {
    return use();
  } catch (err) {
    if (!isHearthError(err, 'keychain_unavailable')) throw err;
    throw new HearthError('keychain_unavailable', `Hearth keeps its database key in the OS keychain, which is unavailable. ${err.message} ${BOTH_OPTIONS}`, {
      cause: err,
      details: err.details,
    });
  }
}
