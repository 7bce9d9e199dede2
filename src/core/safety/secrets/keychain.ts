import { createRequire } from 'node:module';
import type * as Keyring from '@napi-rs/keyring';
import type { Entry, EntryOptions } from '@napi-rs/keyring';

/**
 * The native keyring module is loaded on first use: a command that gets its database key from HEARTH_DB_KEY (or
 * needs no key) should not pay for it at start-up (issue 12, "start fast").
 */
let entryClass: typeof Entry | undefined;
function keyringEntry(): typeof Entry {
  entryClass ??= (createRequire(import.meta.url)('@napi-rs/keyring') as typeof Keyring).Entry;
  return entryClass;
}
import { HearthError, errorMessage } from '../../errors.js';

/**
 * Secrets in the OS keychain (macOS Keychain, Windows Credential Manager, a Secret Service on Linux).
 * Accounts: `db-key` for the database key, `provider:<name>` for API keys.
 */

export const DEFAULT_KEYCHAIN_SERVICE = 'hearth';

/** Tests and side-by-side installs set HEARTH_KEYCHAIN_SERVICE so they never touch a user's real entries. */
export function keychainService(env: NodeJS.ProcessEnv = process.env): string {
  return env.HEARTH_KEYCHAIN_SERVICE?.trim() || DEFAULT_KEYCHAIN_SERVICE;
}

/**
 * On Linux @napi-rs/keyring silently falls back to the kernel keyring when no Secret Service answers.
 * That store lives in memory and is gone after a reboot, which would make the encrypted database
 * unreadable. Pin the Secret Service so "no keychain" is an error the user sees, not data lost later.
 */
const ENTRY_OPTIONS: EntryOptions = { linux: { store: 'secret-service' } };

/** The account name lives in config so llm/ can name a provider's key without importing safety/ (decision 0016). */
export { apiKeyAccount } from '../../config/keychain-accounts.js';

export function getSecret(account: string): string | null {
  return withKeychain('read', account, (entry) => entry.getPassword());
}

export function setSecret(account: string, value: string): void {
  withKeychain('write', account, (entry) => entry.setPassword(value));
}

/** Returns false when there was nothing to delete. */
export function deleteSecret(account: string): boolean {
  return withKeychain('delete', account, (entry) => entry.deletePassword());
}

function withKeychain<T>(action: string, account: string, use: (entry: Entry) => T): T {
  const service = keychainService();
  try {
    return use(new (keyringEntry())(service, account, ENTRY_OPTIONS));
  } catch (err) {
    throw new HearthError('keychain_unavailable', `Cannot ${action} "${service}/${account}" in the OS keychain: ${describeKeyringFailure(err)}.`, {
      cause: err,
      details: { service, account },
    });
  }
}

/** Turn keyring-rs messages ("Platform failure: DBus error: …") into what the user should know. */
function describeKeyringFailure(err: unknown): string {
  const raw = errorMessage(err);
  if (/unlock prompt|locked/i.test(raw)) return `the keychain is locked and could not be unlocked here (${raw})`;
  if (/DBus|D-Bus|AccessDenied|ServiceUnknown|org\.freedesktop\.secrets/i.test(raw)) return `no Secret Service keychain is reachable on the session bus (${raw})`;
  return raw;
}
