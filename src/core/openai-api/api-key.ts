import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { errorMessage } from '../errors.js';
import { getSecret, setSecret } from '../safety/secrets/keychain.js';

/** The keychain account the generated API key is kept under (the key opens the agent, so it is a secret). */
export const API_KEY_ACCOUNT = 'api-key';

const KEY_SHAPE = /^hearth-[A-Za-z0-9_-]{43}$/;

export interface ApiKey {
  key: string;
  /**
   * Where it came from: `env` (HEARTH_API_KEY), `keychain` (generated on an earlier start), `generated` (new now,
   * kept in the keychain: print it this once), `ephemeral` (new now, the keychain could not keep it: valid
   * until this process stops).
   */
  source: 'env' | 'keychain' | 'generated' | 'ephemeral';
  /** Why the key is ephemeral, for the log. */
  note?: string;
}

/** `HEARTH_API_KEY` when set, else the key kept in the OS keychain, else a new one (CSPRNG) stored there. */
export function resolveApiKey(env: NodeJS.ProcessEnv): ApiKey {
  const fromEnv = env.HEARTH_API_KEY?.trim();
  if (fromEnv) return { key: fromEnv, source: 'env' };
  const key = `hearth-${randomBytes(32).toString('base64url')}`;
  try {
    const stored = getSecret(API_KEY_ACCOUNT);
    if (stored !== null && KEY_SHAPE.test(stored)) return { key: stored, source: 'keychain' };
    setSecret(API_KEY_ACCOUNT, key);
    return { key, source: 'generated' };
  } catch (err) {
    return { key, source: 'ephemeral', note: `The OS keychain could not keep the API key (${errorMessage(err)}): this key works until Hearth stops; set HEARTH_API_KEY for one that lasts.` };
  }
}

/**
 * Whether an `Authorization` header carries the key. Both sides are hashed first, so the comparison takes the
 * same time whatever the length or the first wrong byte (timingSafeEqual needs equal lengths).
 */
export function bearerMatches(header: string | undefined, key: string): boolean {
  const presented = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '')?.[1];
  if (presented === undefined) return false;
  return timingSafeEqual(digest(presented), digest(key));
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
