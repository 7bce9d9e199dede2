/**
 * Connection test and model discovery for a provider endpoint: one `GET {base}/models` (Anthropic:
 * `{base}/v1/models`), the same listing every OpenAI-compatible server (OpenAI, OpenRouter, Ollama, LM Studio,
 * llama-server, vLLM) and Anthropic answer. Setup surfaces call it before saving, so a wrong URL, a dead port
 * or a refused key is reported while the user is still there to fix it, not at the first chat message.
 *
 * It never throws for a failed probe: every outcome is a value with a message a user can act on. The API key
 * is sent only in the provider's own header and never appears in a message.
 */
import { z } from 'zod';
import type { ProviderConfig } from '../config/schema.js';
import { errorMessage } from '../errors.js';
import { errorBodyMessage, networkErrorCode } from './http.js';

export type ProbeProblem =
  /** 401/403: the key is missing, wrong or lacks access. */
  | 'unauthorized'
  /** 404: nothing at that path (often a base URL without `/v1`). */
  | 'not_found'
  /** Nothing listens there: connection refused, host unknown, network unreachable. */
  | 'unreachable'
  /** No answer within the time limit. */
  | 'timeout'
  /** An answer that is not a model listing (an HTML page, other JSON). */
  | 'not_compatible'
  /** Any other HTTP failure (5xx, 429…). */
  | 'http_error';

export type ProbeResult =
  | { ok: true; url: string; models: string[]; message: string }
  | { ok: false; url: string; problem: ProbeProblem; message: string; status?: number };

export interface ProbeRequest {
  type: ProviderConfig['type'];
  baseUrl: string;
  apiKey?: string | undefined;
  /** Connect + answer (default 10 s: a listing is instant; a server that takes longer is not usable). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const ANTHROPIC_VERSION = '2023-06-01';
/** The body read for a message excerpt or a listing; real listings are a few hundred KiB at most. */
const MAX_BODY_CHARS = 4_000_000;

/** The listing URL for an endpoint, as the chat providers build their request URLs from the same base. */
export function modelsUrl(type: ProviderConfig['type'], baseUrl: string): string {
  const base = baseUrl.trim().replace(/\/+$/, '');
  if (type === 'anthropic') return base.endsWith('/v1') ? `${base}/models` : `${base}/v1/models`;
  return `${base}/models`;
}

/**
 * True for an endpoint on this machine (Ollama, LM Studio, llama-server, a vLLM on localhost): these usually
 * need no API key, and the UI says so instead of asking for one.
 */
export function isLocalEndpoint(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  } catch (_err) {
    return false; // not a URL at all: the caller's URL validation reports it
  }
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || host === '0.0.0.0' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export async function probeProvider(request: ProbeRequest): Promise<ProbeResult> {
  const url = modelsUrl(request.type, request.baseUrl);
  const fail = (problem: ProbeProblem, message: string, status?: number): ProbeResult => ({
    ok: false,
    url,
    problem,
    message: hideKey(message, request.apiKey),
    ...(status === undefined ? {} : { status }),
  });
  try {
    new URL(url);
  } catch (_err) {
    return fail('unreachable', `"${request.baseUrl}" is not a URL. Write it in full, e.g. http://127.0.0.1:11434/v1.`);
  }

  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  let response: Response;
  let body: string;
  try {
    // Not followed: a redirect to another host would carry the key there (fetch drops only `authorization`, not
    // Anthropic's `x-api-key`); the user is told the address to use instead.
    response = await fetch(withListLimit(request.type, url), { headers: headersFor(request), signal, redirect: 'manual' });
    body = (await response.text()).slice(0, MAX_BODY_CHARS);
  } catch (err) {
    if (timeout.aborted) return fail('timeout', `No answer from ${url} within ${Math.round(timeoutMs / 1000)} s. Is the server overloaded, or is a firewall dropping the connection?`);
    if (request.signal?.aborted) return fail('timeout', `The connection test of ${url} was cancelled.`);
    return fail('unreachable', unreachableMessage(url, err));
  }

  if (response.status === 401 || response.status === 403) {
    const said = serverMessage(body);
    const why = request.apiKey ? 'refused the API key' : 'needs an API key';
    return fail('unauthorized', `${url} ${why} (HTTP ${response.status}${said ? `: ${said}` : ''}).${request.apiKey ? ' Check the key and that it belongs to this provider.' : ' Enter the key for this provider.'}`, response.status);
  }
  if (response.status === 404) return fail('not_found', notFoundMessage(request, url), 404);
  if (response.status >= 300 && response.status < 400) {
    const location = response.headers.get('location');
    const target = location ? new URL(location, url).href.replace(/\/models(\?.*)?$/, '') : null;
    return fail('http_error', `${url} redirects${target ? ` to ${target}` : ''} (HTTP ${response.status}).${target ? ` Use ${target} as the base URL.` : ''}`, response.status);
  }
  if (!response.ok) {
    const said = serverMessage(body);
    return fail('http_error', `${url} answered HTTP ${response.status}${said ? `: ${said}` : ''}.`, response.status);
  }

  const models = parseModelList(body);
  if (models === null) {
    const what = looksLikeHtml(body) ? 'a web page' : 'something that is not a model list';
    const wire = request.type === 'anthropic' ? 'the Anthropic API' : 'an OpenAI-compatible API';
    return fail('not_compatible', `${url} answered with ${what}, so it does not look like ${wire}.${baseUrlHint(request)}`, response.status);
  }
  const count = models.length === 1 ? '1 model' : `${models.length} models`;
  return { ok: true, url, models, message: `Connected to ${url}: ${count} available.` };
}

function headersFor(request: ProbeRequest): Record<string, string> {
  const key = request.apiKey?.trim();
  if (request.type === 'anthropic') return { accept: 'application/json', 'anthropic-version': ANTHROPIC_VERSION, ...(key ? { 'x-api-key': key } : {}) };
  return { accept: 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) };
}

/** Anthropic pages its listing (20 by default); one page of its maximum holds every model it offers. */
function withListLimit(type: ProviderConfig['type'], url: string): string {
  return type === 'anthropic' ? `${url}?limit=1000` : url;
}

/**
 * `{ data: [{ id }] }`: the OpenAI listing (`object: "list"`) and Anthropic's (`has_more`, `first_id`) share it.
 * Null when the body is not that shape. Ids are kept in the server's order, duplicates dropped.
 */
export function parseModelList(body: string): string[] | null {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (_err) {
    return null; // not JSON: the caller says what it looked like instead
  }
  const parsed = modelListSchema.safeParse(json);
  return parsed.success ? [...new Set(parsed.data.data.map((entry) => entry.id))] : null;
}

/** `GET /models` of OpenAI-compatible servers and Anthropic: `{data: [{id}, …]}`, other fields ignored. */
const modelListSchema = z.object({ data: z.array(z.object({ id: z.string().min(1) })) });

function notFoundMessage(request: ProbeRequest, url: string): string {
  return `Nothing at ${url} (HTTP 404).${baseUrlHint(request) || ' The server may not offer a model list; check the base URL in its documentation.'}`;
}

/** The usual mistake: an OpenAI-compatible base URL without its `/v1` (`http://127.0.0.1:11434`). */
function baseUrlHint(request: ProbeRequest): string {
  if (request.type !== 'openai') return '';
  const base = request.baseUrl.trim().replace(/\/+$/, '');
  if (/\/v\d+$/.test(base)) return '';
  return ` Is "/v1" missing? Most OpenAI-compatible servers (Ollama, LM Studio, llama-server, vLLM) serve under ${base}/v1.`;
}

function unreachableMessage(url: string, err: unknown): string {
  const code = networkErrorCode(err);
  const where = hostOf(url);
  if (code === 'ECONNREFUSED') return `Nothing is listening at ${where} (connection refused). Is the server running? (Ollama: \`ollama serve\`; LM Studio: start its local server; llama-server: check the --port.)`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `The host ${where} was not found (${code}). Check the spelling of the base URL, or your network connection.`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return `${where} closed the connection without an answer (${code}). Is it an HTTP server? An https:// URL on an http:// server (or the reverse) does this.`;
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT') || code === 'EPROTO') return `The TLS connection to ${where} failed (${code}). Check http:// versus https:// in the base URL.`;
  return `Cannot connect to ${where} (${code ?? errorMessage(err)}).`;
}

function hostOf(url: string): string {
  const parsed = new URL(url);
  return parsed.host;
}

/** The error text of a JSON error body (`{ error: { message } }`, `{ error: "…" }`, `{ message }`), shortened. */
function serverMessage(body: string): string {
  // A non-JSON error page says nothing useful in a sentence.
  const text = errorBodyMessage(body) ?? '';
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 200 ? `${oneLine.slice(0, 200)}…` : oneLine;
}

function looksLikeHtml(body: string): boolean {
  return /^\s*<(!doctype|html|head|body)/i.test(body);
}

/** A server may echo the key back in its error; it never reaches a message. */
function hideKey(text: string, key: string | undefined): string {
  const secret = key?.trim();
  return secret && secret.length >= 4 ? text.split(secret).join('[redacted]') : text;
}
