import { HearthError, errorMessage } from '../errors.js';

/**
 * Turns what the Daytona SDK throws into HearthErrors that say what to do. The SDK maps every axios failure
 * to a `DaytonaError` subclass: no response at all → `DaytonaConnectionError` (and its timeout subclass),
 * otherwise a class per HTTP status with `statusCode` set.
 */
interface SdkErrorShape {
  name?: string;
  statusCode?: number;
  message?: string;
}

const KEY_HELP =
  'Create an API key at https://app.daytona.io/dashboard/keys and put it in the DAYTONA_API_KEY environment variable ' +
  'or in the OS keychain (service "hearth", account "provider:daytona"; `hearth setup` stores it there).';

export function missingKeyError(apiUrl: string, keychainProblem: string | null): HearthError {
  const keychain = keychainProblem === null ? '' : ` (The keychain could not be read: ${keychainProblem})`;
  return new HearthError('backend_auth', `terminal.backend is "daytona" but no Daytona API key is set for ${apiUrl}. ${KEY_HELP}${keychain}`, {
    details: { apiUrl },
  });
}

/** `doing` names the step that failed ("create the sandbox", "run the command"). */
export function daytonaError(err: unknown, doing: string, apiUrl: string): HearthError {
  if (err instanceof HearthError) return err;
  const e = err as SdkErrorShape;
  const status = e.statusCode;
  if (status === 401 || status === 403 || e.name === 'DaytonaAuthenticationError' || e.name === 'DaytonaForbiddenError') {
    return new HearthError('backend_auth', `Daytona at ${apiUrl} refused the API key (HTTP ${status ?? 'auth error'}: ${errorMessage(err)}). ${KEY_HELP}`, {
      cause: err,
      details: { apiUrl, status },
    });
  }
  if (status === undefined && (e.name === 'DaytonaConnectionError' || e.name === 'DaytonaConnectionTimeoutError' || isSocketError(err))) {
    return new HearthError(
      'backend_unavailable',
      `The Daytona API at ${apiUrl} is not reachable (${errorMessage(err)}). Check the network connection and terminal.daytona.api_url.`,
      { cause: err, details: { apiUrl } },
    );
  }
  return new HearthError('backend_failed', `Daytona could not ${doing}${status === undefined ? '' : ` (HTTP ${status})`}: ${errorMessage(err)}`, {
    cause: err,
    details: { apiUrl, status },
  });
}

function isSocketError(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) && code !== 'ERR_BAD_REQUEST';
}
