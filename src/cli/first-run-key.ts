import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { isHearthError } from '../core/errors.js';
import { DB_KEY_ACCOUNT, DB_KEY_BYTES } from '../core/safety/secrets/db-key.js';
import { getSecret } from '../core/safety/secrets/keychain.js';
import { databasePath } from '../core/store/open-store.js';
import type { CliIO } from './io.js';
import { LineReader } from './line-reader.js';

/** How many characters of the new key the user types back, to show they kept it. */
const CONFIRM_CHARS = 6;
const CONFIRM_TRIES = 3;

/**
 * First run on a machine whose keychain Hearth cannot use (a headless Linux box, a container, an SSH session with no
 * Secret Service): the database key has nowhere to live, and opening the store would stop with an error that names
 * HEARTH_DB_KEY. On a terminal the user gets the choice instead (issue 12, "first run"): quit and set up a keychain, or
 * have a key generated now and keep it in HEARTH_DB_KEY themselves. The key is printed once, on stdout (never through
 * the logger), and is not written anywhere: typing back its last characters is how the user shows it was kept,
 * because a lost key is a database nobody can open.
 *
 * Returns true when the command can go on (nothing was needed, or the key is now in `io.env`), false when the user
 * chose to quit or could not confirm the key; then nothing was created.
 */
export async function offerDatabaseKey(io: CliIO, home: string): Promise<boolean> {
  if ((io.env.HEARTH_DB_KEY ?? '') !== '') return true;
  const path = databasePath(home);
  // An existing database has its key already; opening it explains what to do if that key is missing.
  if (existsSync(path) && statSync(path).size > 0) return true;
  if (!io.isTTY || io.stdin.isTTY !== true) return true;
  const problem = keychainProblem();
  if (problem === null) return true;

  io.out(
    'Hearth encrypts everything it keeps (sessions, memory, skills) with one key, which it normally keeps in the OS keychain.\n' +
      `This machine has no keychain Hearth can use: ${problem}\n\n` +
      '  1. Quit, set up a keychain (GNOME Keyring, KWallet or KeePassXC with its Secret Service on), and start Hearth again.\n' +
      '  2. Generate a key now and keep it yourself, in the HEARTH_DB_KEY environment variable.\n\n',
  );
  const reader = new LineReader(io.stdin, io.out);
  try {
    const choice = await reader.ask('Choose 1 or 2:', '1');
    if (choice !== '2') {
      io.out('Nothing was created. Start Hearth again once the keychain is unlocked, or with HEARTH_DB_KEY set.\n');
      return false;
    }
    const key = randomBytes(DB_KEY_BYTES).toString('hex');
    io.out(
      '\nYour database key. It is shown only this once and Hearth stores it nowhere:\n\n' +
        `  export HEARTH_DB_KEY=${key}\n\n` +
        'Put that line in your shell profile (~/.bashrc or ~/.profile) or in a password manager. Without it the database\n' +
        'cannot be opened, by you or by anyone.\n',
    );
    for (let attempt = 1; attempt <= CONFIRM_TRIES; attempt++) {
      const typed = await reader.ask(`Type the key's last ${CONFIRM_CHARS} characters to confirm you saved it:`);
      if (typed.toLowerCase() === key.slice(-CONFIRM_CHARS)) {
        io.env.HEARTH_DB_KEY = key;
        io.out('Thanks. Hearth uses this key now; set HEARTH_DB_KEY before you start it next time.\n\n');
        return true;
      }
      io.out(attempt < CONFIRM_TRIES ? 'Those are not the last characters of the key above; try again.\n' : '');
    }
    io.out('The key was not confirmed, so nothing was created. Start Hearth again to get a new one.\n');
    return false;
  } finally {
    reader.dispose();
  }
}

/** Why the keychain cannot hold the key, or null when it can (reading is enough: a keychain that reads will take a write). */
function keychainProblem(): string | null {
  try {
    getSecret(DB_KEY_ACCOUNT);
    return null;
  } catch (err) {
    if (isHearthError(err, 'keychain_unavailable')) return err.message;
    throw err;
  }
}
