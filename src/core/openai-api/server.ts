import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Engine } from '../engine.js';
import { HearthError, errorMessage } from '../errors.js';
import { relayAgentTurn, SESSION_HEADER, startAgentTurn, type AgentDeps } from './agent-turn.js';
import { bearerMatches } from './api-key.js';
import { sendJson, StreamedCompletion, WholeCompletion, type CompletionOutput } from './completion-output.js';
import { passThroughRequest, runPassThrough, apiErrorFrom } from './pass-through.js';
import { PassThroughModels } from './pass-through-models.js';
import { AGENT_MODEL_ID, ApiError, ChatCompletionBody, describeIssues, type CompletionIdentity } from './wire.js';

/**
 * Hearth's local OpenAI-compatible API: `GET /v1/models`, `GET /v1/models/{id}`, `POST /v1/chat/completions`
 * on `node:http`, every route behind the bearer key. `hearth serve --api` runs it alone; `hearth gateway` runs it
 * beside the chat platforms, on the same engine.
 */

export interface StartApiOptions {
  engine: Pick<Engine, 'config' | 'sessions' | 'models'>;
  /** The bearer key every request must carry (`resolveApiKey`). */
  apiKey: string;
  /** Default `api.host` (loopback unless changed). */
  host?: string;
  /** Default `api.port`; 0 picks a free port. */
  port?: number;
  /**
   * Dangerous actions of `hearth-agent` turns: `deny` when nobody else can answer them (`hearth serve --api`),
   * `surface` when another surface of this engine shows the engine's open questions (the desktop), where an
   * unanswered one is denied at the broker's timeout. No default: whoever composes the API decides.
   */
  approvals: 'deny' | 'surface';
  log?: (line: string) => void;
}

export interface RunningApi {
  /** The base URL clients use, e.g. `http://127.0.0.1:8642/v1`. */
  url: string;
  host: string;
  port: number;
  /** Stops listening, stops the turns and model calls in flight (their sessions keep what was stored), closes the models it built. */
  stop(): Promise<void>;
}

/** Bodies past this are refused: a conversation this size is a mistake or an attack, not a chat. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** Fields `hearth-agent` accepts but cannot apply (the agent's model settings are config.yaml's): named in a response header. */
const IGNORED_BY_AGENT = ['temperature', 'max_tokens', 'max_completion_tokens', 'tool_choice'] as const;

export async function startApi(options: StartApiOptions): Promise<RunningApi> {
  const { engine, apiKey } = options;
  const log = options.log ?? (() => undefined);
  const settings = engine.config.current().api;
  const host = options.host ?? settings.host;
  const models = new PassThroughModels(engine.config, engine.models, log);
  const agent: AgentDeps = {
    host: engine.sessions.host,
    store: engine.sessions.store,
    modelId: () => engine.models.chat.id,
    approvals: options.approvals,
    clarifyWaitMs: () => engine.config.current().approvals.timeout_s * 1000,
  };
  // Requests in flight, so stop() can end them rather than wait on a turn that may run for minutes.
  const inFlight = new Map<AbortController, Promise<void>>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!bearerMatches(req.headers.authorization, apiKey)) {
      const message = req.headers.authorization === undefined
        ? 'No API key: send it as "Authorization: Bearer <key>" (the key `hearth serve --api` printed, or HEARTH_API_KEY).'
        : 'Incorrect API key provided.';
      req.resume();
      return sendJson(res, 401, new ApiError(401, 'invalid_request_error', 'invalid_api_key', message).body(), { 'www-authenticate': 'Bearer' });
    }
    const path = new URL(req.url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '');
    if (path === '/v1/models') return only(req, res, 'GET', () => sendJson(res, 200, { object: 'list', data: modelList(models) }));
    if (path.startsWith('/v1/models/')) return only(req, res, 'GET', () => oneModel(res, models, decodeURIComponent(path.slice('/v1/models/'.length))));
    if (path === '/v1/chat/completions') {
      if (req.method !== 'POST') return only(req, res, 'POST', () => undefined);
      const controller = new AbortController();
      // 'close' after a finished response is normal; before it, the client went away: stop the work.
      res.on('close', () => {
        if (!res.writableFinished) controller.abort(new Error('the API client disconnected'));
      });
      const done = completions(req, res, controller.signal);
      inFlight.set(controller, done);
      try {
        await done;
      } finally {
        inFlight.delete(controller);
      }
      return;
    }
    req.resume();
    sendJson(res, 404, new ApiError(404, 'invalid_request_error', 'unknown_url', `Unknown request URL: ${req.method} ${path}. Routes: GET /v1/models, POST /v1/chat/completions.`).body());
  };

  const completions = async (req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> => {
    const body = parseBody(await readJson(req));
    const identity: CompletionIdentity = { id: `chatcmpl-${randomUUID()}`, created: Math.floor(Date.now() / 1000), model: body.model };
    const output = (headers: Record<string, string>): CompletionOutput =>
      body.stream === true ? new StreamedCompletion(res, identity, body.stream_options?.include_usage === true, headers) : new WholeCompletion(res, identity, headers);
    if (body.model === AGENT_MODEL_ID) {
      const turn = startAgentTurn(agent, body, headerValue(req, SESSION_HEADER));
      const ignored = IGNORED_BY_AGENT.filter((field) => body[field] !== undefined && body[field] !== null);
      const headers = { [SESSION_HEADER]: turn.sessionId, ...(ignored.length > 0 ? { 'x-hearth-ignored': ignored.join(', ') } : {}) };
      await relayAgentTurn(agent, turn, output(headers), signal);
      return;
    }
    const model = models.get(body.model);
    const request = passThroughRequest(body);
    await runPassThrough(model, request, output({}), signal);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const error = err instanceof ApiError ? err : apiErrorFrom(err);
      if (error.status >= 500) log(`API request ${req.method} ${req.url} failed: ${error.message}`);
      if (!res.headersSent) sendJson(res, error.status, error.body());
      else res.destroy();
    });
  });
  await listen(server, host, options.port ?? settings.port);
  const port = (server.address() as AddressInfo).port;
  if (!LOOPBACK.has(host)) log(`The API listens on ${host}:${port}, which other machines can reach: anyone with the key can run the agent on this computer.`);
  let stopping: Promise<void> | null = null;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/v1`,
    host,
    port,
    stop: () => {
      stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const controller of inFlight.keys()) controller.abort(new Error('the API is stopping'));
        await Promise.allSettled([...inFlight.values()]);
        server.closeAllConnections();
        await closed;
        await models.dispose();
      })();
      return stopping;
    },
  };
}

function modelList(models: PassThroughModels): Record<string, unknown>[] {
  return [AGENT_MODEL_ID, ...models.ids()].map(modelObject);
}

function modelObject(id: string): Record<string, unknown> {
  const colon = id.indexOf(':');
  return { id, object: 'model', created: 0, owned_by: id === AGENT_MODEL_ID ? 'hearth' : colon > 0 ? id.slice(0, colon) : 'local' };
}

function oneModel(res: ServerResponse, models: PassThroughModels, id: string): void {
  if (id !== AGENT_MODEL_ID && !models.ids().includes(id)) throw new ApiError(404, 'invalid_request_error', 'model_not_found', `The model "${id}" does not exist here.`);
  sendJson(res, 200, modelObject(id));
}

/** Runs `answer` for the route's method; any other method is a 405 naming the one allowed. */
function only(req: IncomingMessage, res: ServerResponse, method: 'GET' | 'POST', answer: () => void): void {
  if (req.method === method) {
    req.resume();
    answer();
    return;
  }
  req.resume();
  sendJson(res, 405, new ApiError(405, 'invalid_request_error', 'method_not_allowed', `${req.method} is not allowed here: use ${method}.`).body(), { allow: method });
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function parseBody(json: unknown): ChatCompletionBody {
  const parsed = ChatCompletionBody.safeParse(json);
  if (!parsed.success) throw new ApiError(400, 'invalid_request_error', 'invalid_request', `Invalid request body: ${describeIssues(parsed.error)}.`);
  return parsed.data;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      req.resume();
      throw new ApiError(413, 'invalid_request_error', 'request_too_large', `The request body is over ${MAX_BODY_BYTES / (1024 * 1024)} MiB.`);
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') throw new ApiError(400, 'invalid_request_error', 'invalid_json', 'The request body is empty: send the chat completion request as JSON.');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError(400, 'invalid_request_error', 'invalid_json', `The request body is not valid JSON: ${errorMessage(err)}.`);
  }
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      const reason = err.code === 'EADDRINUSE' ? `port ${port} is taken: choose another with --port or api.port` : err.code === 'EADDRNOTAVAIL' ? `${host} is not an address of this machine (api.host)` : err.message;
      reject(new HearthError('usage', `The API cannot listen on ${host}:${port}: ${reason}.`, { cause: err }));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}
