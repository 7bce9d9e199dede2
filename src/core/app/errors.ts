import type { z } from 'zod';
import { ErrorCode, type ApiError } from '../../shared/contract.js';
import { HearthError, type HearthErrorCode } from '../errors.js';

export type ApiErrorCode = z.infer<typeof ErrorCode>;
export type ApiIssue = NonNullable<ApiError['issues']>[number];

/**
 * A refusal that belongs to the UI contract itself (a turn already running, a skill the UI may not edit),
 * with the contract's error code. Engine failures stay HearthErrors and are mapped by `toApiError`.
 */
export class AppError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly issues?: ApiIssue[],
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/**
 * What each engine error means to a UI. HearthError messages are written for users (they never carry
 * secrets), so they pass through; only the code is translated. A code missing here reads as `internal`
 * with its message intact, which is still actionable.
 */
const HEARTH_TO_API: Partial<Record<HearthErrorCode, ApiErrorCode>> = {
  usage: 'invalid_input',
  tool_input_invalid: 'invalid_input',
  config_invalid: 'invalid_input',
  skill_invalid: 'invalid_input',
  memory_ambiguous_match: 'invalid_input',
  session_not_found: 'not_found',
  skill_not_found: 'not_found',
  memory_no_match: 'not_found',
  skill_conflict: 'conflict',
  memory_full: 'conflict',
  memory_protected: 'forbidden',
  memory_change_not_found: 'not_found',
  memory_undo_conflict: 'conflict',
  skill_forbidden: 'forbidden',
  content_unsafe: 'forbidden',
  keychain_unavailable: 'unavailable',
  model_connection: 'unavailable',
  model_http: 'unavailable',
  model_auth: 'unavailable',
  model_rate_limited: 'unavailable',
  model_timeout: 'unavailable',
  model_load_failed: 'unavailable',
  model_host_crashed: 'unavailable',
  model_not_configured: 'unavailable',
  all_models_failed: 'unavailable',
  model_source_invalid: 'invalid_input',
  download_not_found: 'not_found',
  checkpoint_not_found: 'not_found',
  checkpoint_failed: 'unavailable',
  download_conflict: 'conflict',
  download_failed: 'unavailable',
};

export const INTERNAL_MESSAGE = 'Something went wrong inside Hearth; the details are in the log of the process serving this window.';

/**
 * Any thrown value as the contract's ApiError. Unknown errors (a bug, a library failure) become
 * `internal` with a fixed message: their text may hold paths, SQL or a secret, and never reaches a UI;
 * `onInternal` receives the original for the surface's log.
 */
export function toApiError(err: unknown, onInternal?: (err: unknown) => void): ApiError {
  if (err instanceof AppError) return { code: err.code, message: err.message, ...(err.issues ? { issues: err.issues } : {}) };
  if (err instanceof HearthError) {
    const own = ErrorCode.safeParse(err.code);
    return { code: own.success ? own.data : (HEARTH_TO_API[err.code] ?? 'internal'), message: err.message };
  }
  onInternal?.(err);
  return { code: 'internal', message: INTERNAL_MESSAGE };
}
