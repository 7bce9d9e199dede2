import type { ApiError } from '../../shared/contract.js';

/**
 * A failed call as the renderer sees it, whichever transport carried it: the contract's `ApiError` fields on
 * a real `Error`, so a view can show `message` and branch on `code`.
 */
export class ApiCallError extends Error {
  readonly code: string;
  readonly issues: NonNullable<ApiError['issues']>;

  constructor(error: ApiError) {
    super(error.message);
    this.name = 'ApiCallError';
    this.code = error.code;
    this.issues = error.issues ?? [];
  }
}

/** A readable one-line message for any rejection a call can produce. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiCallError && error.issues.length > 0) {
    return `${error.message} (${error.issues.map((i) => `${i.path}: ${i.message}`).join('; ')})`;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}
