import { z } from 'zod';
import { HearthError, abortError, errorMessage } from '../errors.js';

/**
 * The HTTP edge every cloud provider shares: one POST that is retried (exponential backoff with
 * jitter, `Retry-After` honoured) on 429, 5xx and connection failures — but only before the first
 * byte of the response body, so a retried request can never duplicate streamed output — plus a
 * request timeout (connect + response headers) and an idle timeout between body chunks.
 */

export interface HttpRetryOptions {
  /** Extra attempts after the first one (default 2). */
  retries?: number;
  /** First backoff delay; doubles each attempt, plus up to 50% jitter (default 500 ms). */
  retryBaseDelayMs?: number;
  /** Longest backoff or `Retry-After` wait we accept; a longer `Retry-After` fails at once (default 30 s). */
  maxRetryDelayMs?: number;
  /** Connect + time until response headers (default 120 s: a local server may prefill a long prompt first). */
  timeoutMs?: number;
  /** Longest silence between two body chunks once streaming (default 120 s). */
  idleTimeoutMs?: number;
}

export interface StreamingPost {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** Model id for messages (`openai:gpt-4o-mini`). */
  modelId: string;
  /** Secrets that must never appear in an error message (a server may echo the key back). */
  secrets: string[];
  signal: AbortSignal;
  options: HttpRetryOptions;
}

export interface OpenedStream {
  contentType: string;
  /** Decoded body text in the pieces the network delivered, with the idle timeout applied. */
  chunks: AsyncGenerator<string, void, undefined>;
}

const DEFAULTS = { retries: 2, retryBaseDelayMs: 500, maxRetryDelayMs: 30_000, timeoutMs: 120_000, idleTimeoutMs: 120_000 };

/** POST `body` as JSON and open the response body as a stream, retrying failures that happen before it opens. */
export async function openStreamingPost(post: StreamingPost): Promise<OpenedStream> {
  const opts = { ...DEFAULTS, ...definedOnly(post.options) };
  for (let attempt = 0; ; attempt++) {
    if (post.signal.aborted) throw abortError(post.signal);
    try {
      return await attemptOnce(post, opts);
    } catch (err) {
      if (!(err instanceof RetryableFailure)) throw err;
      if (attempt >= opts.retries) throw withAttempts(err.error, attempt + 1);
      const delay = err.retryAfterMs ?? backoffDelay(opts.retryBaseDelayMs, attempt);
      if (delay > opts.maxRetryDelayMs) throw withAttempts(err.error, attempt + 1);
      await sleep(delay, post.signal);
    }
  }
}

/** The final error, saying how many attempts were made (so "retries: 2" is visible in the message). */
function withAttempts(error: HearthError, attempts: number): HearthError {
  if (attempts === 1) return error;
  return new HearthError(error.code, `${error.message} (gave up after ${attempts} attempts)`, {
    cause: error.cause,
    details: { ...error.details, attempts },
  });
}

/** Thrown inside the retry loop only: a failure worth another attempt. */
class RetryableFailure extends Error {
  constructor(
    readonly error: HearthError,
    readonly retryAfterMs: number | undefined,
  ) {
    super(error.message);
  }
}

async function attemptOnce(post: StreamingPost, opts: typeof DEFAULTS): Promise<OpenedStream> {
  // One controller per attempt carries the caller's abort and our own timeouts into undici.
  const controller = new AbortController();
  let timedOut: 'request' | 'idle' | undefined;
  const onCallerAbort = () => controller.abort(post.signal.reason);
  post.signal.addEventListener('abort', onCallerAbort, { once: true });
  let timer: NodeJS.Timeout | undefined = setTimeout(() => {
    timedOut = 'request';
    controller.abort(new Error('request timeout'));
  }, opts.timeoutMs);
  const release = () => {
    clearTimeout(timer);
    post.signal.removeEventListener('abort', onCallerAbort);
  };

  const failure = (err: unknown, phase: 'connect' | 'body'): HearthError => {
    if (post.signal.aborted) return abortError(post.signal);
    if (timedOut === 'request') {
      return new HearthError('model_timeout', `${post.modelId} did not respond within ${opts.timeoutMs} ms (${post.url}).`, {
        cause: err,
        details: { timeoutMs: opts.timeoutMs },
      });
    }
    if (timedOut === 'idle') {
      return new HearthError('model_timeout', `${post.modelId} stopped streaming: no data for ${opts.idleTimeoutMs} ms.`, {
        cause: err,
        details: { idleTimeoutMs: opts.idleTimeoutMs },
      });
    }
    const code = networkErrorCode(err);
    const what = phase === 'connect' ? `cannot reach ${post.url}` : 'the connection broke mid-response';
    return new HearthError('model_connection', `${post.modelId}: ${what} (${code ?? redact(errorMessage(err), post.secrets)}). Is the server running?`, {
      cause: err,
      details: { url: post.url, ...(code ? { errno: code } : {}) },
    });
  };

  let response: Response;
  try {
    response = await fetch(post.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream, application/json', ...post.headers },
      body: JSON.stringify(post.body),
      signal: controller.signal,
    });
  } catch (err) {
    release();
    const error = failure(err, 'connect');
    throw error.code === 'model_connection' ? new RetryableFailure(error, undefined) : error;
  }

  if (!response.ok) {
    let text = '';
    try {
      text = await response.text();
    } catch (err) {
      release();
      throw failure(err, 'body');
    }
    release();
    throw httpFailure(response, text, post);
  }
  if (!response.body) {
    release();
    throw new HearthError('model_bad_response', `${post.modelId} answered ${response.status} with no body.`);
  }

  // Headers are in: from here the idle timeout guards each chunk, the request timeout is done.
  clearTimeout(timer);
  timer = undefined;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  async function* chunks(): AsyncGenerator<string, void, undefined> {
    try {
      for (;;) {
        timer = setTimeout(() => {
          timedOut = 'idle';
          controller.abort(new Error('idle timeout'));
        }, opts.idleTimeoutMs);
        let result: Awaited<ReturnType<typeof reader.read>>;
        try {
          result = await reader.read();
        } catch (err) {
          throw failure(err, 'body');
        } finally {
          clearTimeout(timer);
        }
        if (result.done) break;
        const text = decoder.decode(result.value, { stream: true });
        if (text) yield text;
      }
      const tail = decoder.decode();
      if (tail) yield tail;
    } finally {
      release();
      // Consumer stopped early (abort, error, fallback): close the socket instead of leaking it.
      // cancel() rejects only when the stream already errored, which is the case we are cleaning up after.
      await reader.cancel().catch(() => undefined);
    }
  }
  return { contentType: response.headers.get('content-type') ?? '', chunks: chunks() };
}

function httpFailure(response: Response, bodyText: string, post: StreamingPost): HearthError | RetryableFailure {
  const status = response.status;
  const providerMessage = redact(providerErrorMessage(bodyText), post.secrets);
  const details = { status, providerMessage };
  const suffix = providerMessage ? `: ${providerMessage}` : '';
  if (status === 401 || status === 403) {
    return new HearthError('model_auth', `${post.modelId} rejected the credentials (HTTP ${status})${suffix}. Check the API key.`, { details });
  }
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
  if (status === 429) {
    const error = new HearthError('model_rate_limited', `${post.modelId} is rate limited (HTTP 429)${suffix}.`, {
      details: { ...details, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) },
    });
    return new RetryableFailure(error, retryAfterMs);
  }
  if (isContextOverflow(status, bodyText)) {
    return new HearthError('model_context_overflow', `${post.modelId} rejected the prompt as too long for its context window (HTTP ${status})${suffix}.`, { details });
  }
  const error = new HearthError('model_http', `${post.modelId} failed with HTTP ${status}${suffix}.`, { details });
  return status >= 500 ? new RetryableFailure(error, retryAfterMs) : error;
}

/**
 * How providers say a prompt is over the window, so the agent can recover (prune) instead of failing
 * every later turn: OpenAI / vLLM / OpenRouter "maximum context length is … tokens" and code
 * `context_length_exceeded`, Anthropic "prompt is too long", llama-server `exceed_context_size_error`,
 * Gemini "input token count … exceeds the maximum", Mistral/Groq "reduce the length of the messages".
 */
const CONTEXT_OVERFLOW_PATTERN =
  /context_length_exceeded|maximum context length|context (?:length|window|size) (?:is |was )?exceeded|exceeds? the (?:available |maximum )?context|exceed_context_size|prompt (?:is )?too long|greater than the context length|input token count .* exceeds|reduce the length of the messages|too many tokens in the prompt/i;

function isContextOverflow(status: number, bodyText: string): boolean {
  return (status === 400 || status === 413 || status === 422) && CONTEXT_OVERFLOW_PATTERN.test(bodyText);
}

/**
 * The error bodies providers send: OpenAI/Anthropic `{error: {message}}`, `{error: "…"}`, `{message}`,
 * FastAPI's `{detail}`. Each field is optional and checked for its type, never cast.
 */
const errorBodySchema = z.object({
  error: z.union([z.string(), z.object({ message: z.string().optional() }), z.unknown()]).optional(),
  message: z.unknown().optional(),
  detail: z.unknown().optional(),
});

/** The message of a JSON error body, or undefined when the body is not JSON or names none. */
export function errorBodyMessage(bodyText: string): string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch (_notJson) {
    // Not JSON (an HTML error page from a proxy, plain text): the caller decides what to show.
    return undefined;
  }
  const parsed = errorBodySchema.safeParse(json);
  if (!parsed.success) return undefined;
  const { error, message, detail } = parsed.data;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string') return error.message;
  if (typeof message === 'string') return message;
  if (typeof detail === 'string') return detail;
  return undefined;
}

/** The human part of a provider's error body: OpenAI/Anthropic `{error:{message}}`, `{message}`, or plain text. */
export function providerErrorMessage(bodyText: string): string {
  const trimmed = bodyText.trim();
  if (!trimmed) return '';
  return errorBodyMessage(trimmed) ?? (trimmed.length > 500 ? `${trimmed.slice(0, 500)}…` : trimmed);
}

/** `Retry-After` as delay-seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function backoffDelay(baseMs: number, attempt: number): number {
  const exp = baseMs * 2 ** attempt;
  return exp + Math.random() * exp * 0.5;
}

/** The socket error's code (`ECONNREFUSED`, `ENOTFOUND`…) under undici's wrappers; the provider probe reads it too. */
export function networkErrorCode(err: unknown): string | undefined {
  // undici wraps socket errors: TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }).
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'ABORT_ERR') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function redact(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out;
}

function definedOnly<T extends object>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Abortable delay for backoff. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
