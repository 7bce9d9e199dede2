import type * as ModalSdk from 'modal';
import type { ModalClient } from 'modal';
import { HearthError, errorMessage } from '../errors.js';
import type { ModalCredentials } from './modal-credentials.js';

const DEFAULT_SERVER_URL = 'https://api.modal.com:443';
/** MODAL_* variables the SDK reads from process.env when a client is built (besides the token, passed explicitly). */
const SDK_PROFILE_VARIABLES = ['MODAL_SERVER_URL', 'MODAL_ENVIRONMENT', 'MODAL_PROFILE'] as const;

/** The API address the client will use (MODAL_SERVER_URL; tests point it at a local server), for messages. */
export function modalServerUrl(env: NodeJS.ProcessEnv): string {
  return env.MODAL_SERVER_URL || DEFAULT_SERVER_URL;
}

/**
 * The SDK is loaded on first use, so Hearth starts without it when another backend is configured. It reads
 * its API address and environment from process.env while the client is built (synchronously), so the
 * backend's environment is put there for that moment; the token is passed explicitly.
 */
export async function newModalClient(credentials: ModalCredentials, env: NodeJS.ProcessEnv): Promise<ModalClient> {
  let sdk: typeof ModalSdk;
  try {
    sdk = await import('modal');
  } catch (err) {
    throw new HearthError('backend_unavailable', `The Modal SDK (npm package "modal") cannot be loaded: ${errorMessage(err)}. Reinstall Hearth, or set terminal.backend to another value.`, { cause: err });
  }
  const { ModalClient } = sdk;
  const saved = SDK_PROFILE_VARIABLES.map((name) => [name, process.env[name]] as const);
  try {
    for (const name of SDK_PROFILE_VARIABLES) {
      if (env[name] === undefined) delete process.env[name];
      else process.env[name] = env[name];
    }
    // Only errors: the SDK's warnings would land in the middle of the terminal UI.
    return new ModalClient({ tokenId: credentials.tokenId, tokenSecret: credentials.tokenSecret, logLevel: 'error' });
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
