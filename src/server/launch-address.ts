import { randomBytes } from 'node:crypto';
import { errorMessage } from '../core/errors.js';
import { getSecret, setSecret } from '../core/safety/secrets/keychain.js';

/**
 * What makes web mode's address stable across launches, so a bookmark keeps working (issue 12): one port by
 * default, and one token per install kept in the OS keychain (it opens the user's sessions, so it is a secret and
 * lives nowhere else). `hearth serve --new-token` replaces it; where the keychain cannot keep it, each launch gets
 * a fresh token, as before, and the log says why.
 */

/** The port tried first when none is given; taken, the server falls back to any free port (and says so). */
export const DEFAULT_WEB_PORT = 47_291;

const TOKEN_ACCOUNT = 'web-token';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function freshToken(): string {
  return randomBytes(32).toString('base64url');
}

export function launchToken(options: { rotate: boolean }): { token: string; note: string | null } {
  try {
    const stored = options.rotate ? null : getSecret(TOKEN_ACCOUNT);
    if (stored !== null && TOKEN_SHAPE.test(stored)) return { token: stored, note: null };
    const token = freshToken();
    setSecret(TOKEN_ACCOUNT, token);
    return { token, note: options.rotate ? 'A new token: addresses opened before stop working.' : null };
  } catch (err) {
    return { token: freshToken(), note: `The address changes on every start: the OS keychain could not keep its token (${errorMessage(err)}).` };
  }
}
