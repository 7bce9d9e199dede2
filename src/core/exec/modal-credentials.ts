import { HearthError, errorMessage } from '../errors.js';
import { getSecret } from '../safety/secrets/keychain.js';

/** Keychain accounts (service `hearth`, or HEARTH_KEYCHAIN_SERVICE) holding a Modal token pair. */
export const MODAL_TOKEN_ID_ACCOUNT = 'modal:token_id';
export const MODAL_TOKEN_SECRET_ACCOUNT = 'modal:token_secret';

export interface ModalCredentials {
  tokenId: string;
  tokenSecret: string;
  /** Where they came from, for messages when Modal refuses them. */
  source: 'environment' | 'keychain';
}

/**
 * The token pair, from the environment (MODAL_TOKEN_ID / MODAL_TOKEN_SECRET) or else the OS keychain.
 * Both halves must come from the same place: a secret from one and an id from the other is a mistake.
 */
export function resolveModalCredentials(env: NodeJS.ProcessEnv, readSecret: (account: string) => string | null = getSecret): ModalCredentials {
  const tokenId = env.MODAL_TOKEN_ID?.trim();
  const tokenSecret = env.MODAL_TOKEN_SECRET?.trim();
  if (tokenId && tokenSecret) return { tokenId, tokenSecret, source: 'environment' };
  if (tokenId || tokenSecret) {
    throw new HearthError('backend_auth', `Only ${tokenId ? 'MODAL_TOKEN_ID' : 'MODAL_TOKEN_SECRET'} is set: set both MODAL_TOKEN_ID and MODAL_TOKEN_SECRET (from \`modal token new\` or modal.com/settings/tokens).`);
  }
  let fromKeychain: { id: string | null; secret: string | null };
  let keychainProblem = '';
  try {
    fromKeychain = { id: readSecret(MODAL_TOKEN_ID_ACCOUNT), secret: readSecret(MODAL_TOKEN_SECRET_ACCOUNT) };
  } catch (err) {
    // No keychain here is the same as no token in it; the reason goes into the message below.
    fromKeychain = { id: null, secret: null };
    keychainProblem = ` (the keychain could not be read: ${errorMessage(err)})`;
  }
  if (fromKeychain.id && fromKeychain.secret) return { tokenId: fromKeychain.id, tokenSecret: fromKeychain.secret, source: 'keychain' };
  throw new HearthError(
    'backend_auth',
    'terminal.backend is "modal" but no Modal token was found: set MODAL_TOKEN_ID and MODAL_TOKEN_SECRET, or store them in the OS keychain ' +
      `as "${MODAL_TOKEN_ID_ACCOUNT}" and "${MODAL_TOKEN_SECRET_ACCOUNT}"${keychainProblem}. Create a token with \`modal token new\` or at modal.com/settings/tokens.`,
  );
}
