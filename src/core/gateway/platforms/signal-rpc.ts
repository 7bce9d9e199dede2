import { randomUUID } from 'node:crypto';

/**
 * JSON-RPC 2.0 over signal-cli's HTTP endpoint (`POST /api/v1/rpc`, one request per POST). Each call carries the
 * bot's `account`: a multi-account daemon needs it to pick the account, a single-account daemon ignores it.
 */

/**
 * Why a call failed: the daemon could not be reached, answered with HTTP trouble or a JSON-RPC error, answered
 * something unreadable, or the adapter refused the request before sending it (too long, no such file).
 */
export type SignalRpcFailure = 'unreachable' | 'http' | 'rpc' | 'bad_response' | 'refused';

export class SignalRpcError extends Error {
  readonly failure: SignalRpcFailure;
  /** The JSON-RPC error code (signal-cli: -1 user error, -3 I/O error, -4 untrusted identity, -32602 bad params). */
  readonly rpcCode: number | undefined;
  readonly status: number | undefined;

  constructor(failure: SignalRpcFailure, message: string, options: { rpcCode?: number; status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SignalRpcError';
    this.failure = failure;
    this.rpcCode = options.rpcCode;
    this.status = options.status;
  }
}

export interface SignalRpcOptions {
  httpUrl: string;
  account: string;
  /** Per call; a send with attachments may take a while (signal-cli uploads them first). */
  timeoutMs?: number;
}

export class SignalRpc {
  private readonly endpoint: string;

  constructor(private readonly options: SignalRpcOptions) {
    this.endpoint = new URL('/api/v1/rpc', options.httpUrl).toString();
  }

  async call(method: string, params: Record<string, unknown>): Promise<unknown> {
    const body = JSON.stringify({ jsonrpc: '2.0', method, params: { ...params, account: this.options.account }, id: randomUUID() });
    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 60_000),
      });
    } catch (err) {
      throw new SignalRpcError('unreachable', `signal-cli daemon at ${this.options.httpUrl} cannot be reached (is \`signal-cli daemon --http\` running?): ${describeFetchError(err)}`, { cause: err });
    }
    const text = await response.text();
    if (response.status !== 200) {
      throw new SignalRpcError('http', `signal-cli answered ${method} with HTTP ${response.status}`, { status: response.status });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new SignalRpcError('bad_response', `signal-cli answered ${method} with something that is not JSON`, { cause: err });
    }
    if (typeof parsed !== 'object' || parsed === null) throw new SignalRpcError('bad_response', `signal-cli answered ${method} with no JSON-RPC object`);
    const reply = parsed as { result?: unknown; error?: { code?: unknown; message?: unknown } };
    if (reply.error !== undefined && reply.error !== null) {
      const code = typeof reply.error.code === 'number' ? reply.error.code : undefined;
      const message = typeof reply.error.message === 'string' ? reply.error.message : 'no message';
      throw new SignalRpcError('rpc', `signal-cli refused ${method}: ${message}${code === undefined ? '' : ` (JSON-RPC error ${code})`}`, code === undefined ? {} : { rpcCode: code });
    }
    return reply.result;
  }
}

/** fetch's own message is "fetch failed"; the reason (ECONNREFUSED, a timeout) is in `cause`. */
export function describeFetchError(err: unknown): string {
  if (err instanceof Error) {
    const cause = err.cause instanceof Error ? err.cause.message : undefined;
    return cause === undefined ? err.message : `${err.message} (${cause})`;
  }
  return String(err);
}
