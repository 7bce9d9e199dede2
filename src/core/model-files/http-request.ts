/**
 * One HTTP request for a model file, with redirects followed by hand: Hugging Face answers `resolve/` with
 * a redirect to its CDN, and following them here is what lets us refuse any hop that leaves http(s) and
 * keep the headers Hugging Face puts on the first hop (the LFS sha256 and size).
 */
import { errorMessage, HearthError } from '../errors.js';

const MAX_REDIRECTS = 10;

export interface OpenedResponse {
  response: Response;
  /** The URL that answered, after redirects. */
  url: string;
  /** Hugging Face's `X-Linked-Etag` on an LFS file: the file's sha256, from the server itself. */
  linkedSha256: string | null;
  /** Hugging Face's `X-Linked-Size`: the whole file's size, even when the final hop answers a range. */
  linkedSize: number | null;
}

export async function openModelUrl(url: string, init: { method: 'GET' | 'HEAD'; range?: string; signal: AbortSignal }): Promise<OpenedResponse> {
  let current = url;
  let linkedSha256: string | null = null;
  let linkedSize: number | null = null;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await send(current, init);
    linkedSha256 ??= parseLinkedEtag(response.headers.get('x-linked-etag'));
    linkedSize ??= parseSize(response.headers.get('x-linked-size'));
    if (![301, 302, 303, 307, 308].includes(response.status)) return { response, url: current, linkedSha256, linkedSize };
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (!location) throw failed(`${hostOf(current)} answered HTTP ${response.status} (a redirect) without saying where to.`);
    const next = new URL(location, current);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw failed(`${hostOf(current)} redirected to a ${next.protocol} URL; only http(s) downloads are allowed.`);
    }
    current = next.href;
  }
  throw failed(`Too many redirects (more than ${MAX_REDIRECTS}) starting at ${url}.`);
}

/** A readable message for a status that is not a success, with what to do about it. */
export function httpStatusError(status: number, url: string): HearthError {
  const where = `${hostOf(url)} (${url})`;
  const message =
    status === 404
      ? `The file was not found (HTTP 404) at ${where}. Check the repository and file name.`
      : status === 401 || status === 403
        ? `Access denied (HTTP ${status}) by ${where}. The model may be gated: accept its license on the website, or download it yourself and add the file.`
        : status === 429
          ? `Too many requests (HTTP 429) to ${where}. Wait a few minutes, then resume.`
          : status >= 500
            ? `The server failed (HTTP ${status}) at ${where}. Try resuming later.`
            : `Unexpected HTTP ${status} from ${where}.`;
  return failed(message, { status });
}

/** fetch() reports a refused connection as "fetch failed"; the cause holds the errno that says why. */
export function networkError(err: unknown, url: string): HearthError {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code;
  const host = hostOf(url);
  const message =
    code === 'ECONNREFUSED'
      ? `Cannot connect to ${host}: the connection was refused (ECONNREFUSED).`
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? `Cannot find the host ${host} (${code}). Check the address and your internet connection.`
        : code === 'ECONNRESET' || code === 'UND_ERR_SOCKET'
          ? `The connection to ${host} was reset (${code}). Resume to continue from where it stopped.`
          : `Network error talking to ${host}: ${cause?.message ?? errorMessage(err)}${code ? ` (${code})` : ''}.`;
  return failed(message, { code });
}

export function failed(message: string, details?: Record<string, unknown>): HearthError {
  return new HearthError('download_failed', message, details === undefined ? undefined : { details });
}

export function parseSize(text: string | null): number | null {
  if (text === null || !/^\d+$/.test(text.trim())) return null;
  return Number(text.trim());
}

function parseLinkedEtag(text: string | null): string | null {
  const hex = text?.trim().replace(/^W\//, '').replace(/^"|"$/g, '').toLowerCase() ?? '';
  // Non-LFS files carry a git blob sha1 (40 hex) here, which is not a content sha256: ignore it.
  return /^[0-9a-f]{64}$/.test(hex) ? hex : null;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch (err) {
    return `${url} (${errorMessage(err)})`;
  }
}

async function send(url: string, init: { method: 'GET' | 'HEAD'; range?: string; signal: AbortSignal }): Promise<Response> {
  try {
    return await fetch(url, {
      method: init.method,
      redirect: 'manual',
      signal: init.signal,
      // identity: a Range offset counts bytes of the file, which a compressed body would not.
      headers: { 'accept-encoding': 'identity', ...(init.range ? { range: init.range } : {}) },
    });
  } catch (err) {
    if (init.signal.aborted) throw err;
    throw networkError(err, url);
  }
}
