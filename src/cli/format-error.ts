import { HearthError, errorMessage } from '../core/errors.js';

/** One actionable line for our own errors; anything else is a bug, so its stack is kept. */
export function formatError(err: unknown): string {
  if (err instanceof HearthError) return `hearth: ${err.message} [${err.code}]\n`;
  // Not one of ours: keep the stack, it is a bug to report.
  return `hearth: unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : errorMessage(err)}\n`;
}
