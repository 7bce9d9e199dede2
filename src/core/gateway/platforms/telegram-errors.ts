import { GrammyError, HttpError } from 'grammy';

/**
 * What a failed Bot API call means for the adapter: the token is refused (stop: retrying cannot help), the call can
 * be retried (network, 5xx, 409 while another poller lets go, 429 after `retry_after`), or it failed for good (a
 * 4xx about the request itself).
 */
export type FailureVerdict =
  | { kind: 'bad_token'; reason: string }
  | { kind: 'retry'; reason: string; retryAfterMs?: number }
  | { kind: 'fatal'; reason: string };

export function classifyFailure(err: unknown, token: string): FailureVerdict {
  if (err instanceof GrammyError) {
    const reason = redact(`${err.method}: ${err.error_code} ${err.description}`, token);
    // 401 is a revoked or wrong token; the Bot API answers 404 to a token that is not even well formed.
    if (err.error_code === 401 || err.error_code === 404) return { kind: 'bad_token', reason };
    if (err.error_code === 429) {
      const after = err.parameters.retry_after;
      return { kind: 'retry', reason: `rate limited (${reason})`, ...(typeof after === 'number' ? { retryAfterMs: after * 1000 } : {}) };
    }
    if (err.error_code === 409) return { kind: 'retry', reason: `another process is receiving this bot's updates (${reason})` };
    if (err.error_code >= 500) return { kind: 'retry', reason };
    return { kind: 'fatal', reason };
  }
  if (err instanceof HttpError) {
    const cause = err.error instanceof Error ? `: ${err.error.message}` : '';
    return { kind: 'retry', reason: redact(`network: ${err.message}${cause}`, token) };
  }
  return { kind: 'retry', reason: redact(err instanceof Error ? err.message : String(err), token) };
}

/** A Bot API call from `send`, `edit`, … that failed; the message says which call and why, without the token. */
export class TelegramApiError extends Error {
  /** The Bot API's `error_code` (HTTP status), absent for network failures. */
  readonly status: number | undefined;
  constructor(readonly method: string, message: string, status?: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TelegramApiError';
    this.status = status;
  }
}

export function toTelegramApiError(method: string, err: unknown, token: string): TelegramApiError {
  if (err instanceof TelegramApiError) return err;
  if (err instanceof GrammyError) {
    return new TelegramApiError(method, redact(`Telegram refused ${method}: ${err.error_code} ${err.description}`, token), err.error_code);
  }
  const detail = err instanceof HttpError && err.error instanceof Error ? `${err.message}: ${err.error.message}` : err instanceof Error ? err.message : String(err);
  return new TelegramApiError(method, redact(`Telegram ${method} failed: ${detail}`, token));
}

export interface BackoffOptions {
  /** The first retry's delay (default 1 s). */
  initialMs?: number;
  /** The longest delay (default 60 s). */
  maxMs?: number;
  /** [0, 1), for the jitter; tests may fix it. */
  random?: () => number;
}

/**
 * Exponential backoff with jitter: attempt n waits between half and all of `initial * 2^(n-1)`, capped, so many
 * gateways that lost the same server do not come back in the same instant.
 */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const initial = options.initialMs ?? 1000;
  const max = options.maxMs ?? 60_000;
  const ceiling = Math.min(max, initial * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling * (0.5 + 0.5 * (options.random ?? Math.random)()));
}

/** The token is part of every Bot API URL; error text from lower layers must never carry it into a log. */
export function redact(text: string, token: string): string {
  return token === '' ? text : text.split(token).join('<token>');
}
