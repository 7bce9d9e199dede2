/**
 * A paced OpenAI-compatible model for the UI benchmark: `POST /v1/chat/completions` with `stream: true`
 * answers with one SSE `data:` chunk per token (as OpenAI does), `tokensPerSecond` of them, written in a
 * batch every `tickMs`. Anything else (a title or review call without streaming) gets a short whole answer,
 * so the engine never waits on it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PacedModelOptions {
  /** What a streamed answer says, cut into tokens of about `charsPerToken` characters. */
  answer: string;
  tokensPerSecond: number;
  charsPerToken?: number;
  /** The answer stops after this many tokens (default: all of `answer`). */
  maxTokens?: number;
  tickMs?: number;
}

export interface PacedModel {
  /** Base URL for the provider config (`http://127.0.0.1:port/v1`). */
  url: string;
  /** When each streamed answer started and ended (ms, `performance.now()` of this process), and its tokens. */
  streams: { startedAt: number; endedAt: number | null; tokens: number }[];
  close(): Promise<void>;
}

/** Token-sized pieces: runs of up to `size` characters, cut before whitespace when one is near. */
export function splitTokens(text: string, size: number): string[] {
  const tokens: string[] = [];
  for (let i = 0; i < text.length; ) {
    let end = Math.min(text.length, i + size);
    const space = text.slice(i + 1, end).search(/\s/);
    if (space >= 0) end = i + 1 + space;
    tokens.push(text.slice(i, end));
    i = end;
  }
  return tokens;
}

export async function startPacedModel(options: PacedModelOptions): Promise<PacedModel> {
  const tokens = splitTokens(options.answer, options.charsPerToken ?? 4).slice(0, options.maxTokens ?? Infinity);
  const tickMs = options.tickMs ?? 10;
  const perTick = Math.max(1, Math.round((options.tokensPerSecond * tickMs) / 1000));
  const streams: PacedModel['streams'] = [];

  const server = createServer((request, response) => {
    void readJson(request).then(
      (body) => respond(body, response),
      (error: unknown) => {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: String(error), type: 'invalid_request_error' } }));
      },
    );
  });

  const respond = (body: { stream?: unknown; model?: unknown }, response: ServerResponse) => {
    const model = String(body.model ?? 'bench');
    const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
    if (body.stream !== true) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          ...base,
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content: 'Benchmark thread' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
        }),
      );
      return;
    }
    const sse = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => sse({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
    response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    response.write(chunk({ role: 'assistant', content: '' }));
    const record: PacedModel['streams'][number] = { startedAt: performance.now(), endedAt: null, tokens: 0 };
    streams.push(record);
    let next = 0;
    const started = performance.now();
    // Paced by the clock, not by counting ticks: a late timer sends the tokens it owes, so the rate holds.
    const tick = () => {
      if (response.destroyed) return;
      const due = Math.min(tokens.length, Math.floor(((performance.now() - started) * options.tokensPerSecond) / 1000) + perTick);
      let batch = '';
      for (; next < due; next++) batch += chunk({ content: tokens[next] });
      record.tokens = next;
      if (batch) response.write(batch);
      if (next < tokens.length) {
        setTimeout(tick, tickMs);
        return;
      }
      record.endedAt = performance.now();
      response.write(chunk({}, 'stop'));
      response.write(sse({ ...base, choices: [], usage: { prompt_tokens: 100, completion_tokens: tokens.length, total_tokens: 100 + tokens.length } }));
      response.end('data: [DONE]\n\n');
    };
    tick();
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    streams,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function readJson(request: IncomingMessage): Promise<{ stream?: unknown; model?: unknown }> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('error', reject);
    request.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(parts).toString('utf8')) as { stream?: unknown; model?: unknown });
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}
