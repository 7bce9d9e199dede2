import type { ServerResponse } from 'node:http';
import type { ToolCall } from '../llm/types.js';
import {
  chatCompletion,
  completionChunk,
  usageChunk,
  wireToolCall,
  wireUsage,
  type ApiError,
  type CompletionIdentity,
  type FinishReason,
  type WireToolCall,
} from './wire.js';

/**
 * Where a completion's pieces go, whoever produces them (the agent or a passed-through model): streamed as
 * `chat.completion.chunk` frames, or collected into one `chat.completion`. Producers call `text`/`toolCall`/
 * `usage` any number of times, then exactly one of `finish` or `fail`; calls after that are ignored.
 */
export interface CompletionOutput {
  text(delta: string): void;
  toolCall(call: ToolCall): void;
  usage(usage: { inputTokens: number; outputTokens: number }): void;
  finish(reason: FinishReason): void;
  fail(error: ApiError): void;
}

/** Proxies and the client's own timeouts see bytes while a long tool run or an approval wait is silent. */
const KEEP_ALIVE_MS = 15_000;

/**
 * Server-sent events exactly as OpenAI streams them: the role delta first, content deltas, each tool call as
 * its header delta then its arguments, the finish reason on an empty delta, the usage chunk when asked for,
 * then `data: [DONE]`. A failure after the headers went out ends the stream with an `{"error": …}` frame,
 * which the official clients raise as an error, so a client never hangs on a broken turn.
 */
export class StreamedCompletion implements CompletionOutput {
  private ended = false;
  private readonly totals = { inputTokens: 0, outputTokens: 0 };
  private sawUsage = false;
  private toolIndex = 0;
  private readonly keepAlive: NodeJS.Timeout;

  constructor(
    private readonly res: ServerResponse,
    private readonly identity: CompletionIdentity,
    private readonly includeUsage: boolean,
    headers: Record<string, string>,
  ) {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...headers });
    this.chunk({ role: 'assistant', content: '' }, null);
    this.keepAlive = setInterval(() => this.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    this.keepAlive.unref();
    // A client that left ends the stream too: nothing more is written, and the timer goes.
    res.once('close', () => {
      this.ended = true;
      clearInterval(this.keepAlive);
    });
  }

  text(delta: string): void {
    if (delta !== '') this.chunk({ content: delta }, null);
  }

  toolCall(call: ToolCall): void {
    const index = this.toolIndex++;
    const wire = wireToolCall(call);
    this.chunk({ tool_calls: [{ index, id: wire.id, type: 'function', function: { name: wire.function.name, arguments: '' } }] }, null);
    if (wire.function.arguments !== '') this.chunk({ tool_calls: [{ index, function: { arguments: wire.function.arguments } }] }, null);
  }

  usage(usage: { inputTokens: number; outputTokens: number }): void {
    this.sawUsage = true;
    this.totals.inputTokens += usage.inputTokens;
    this.totals.outputTokens += usage.outputTokens;
  }

  finish(reason: FinishReason): void {
    if (this.ended) return;
    this.chunk({}, reason);
    if (this.includeUsage) this.event(usageChunk(this.identity, wireUsage(this.sawUsage ? this.totals : { inputTokens: 0, outputTokens: 0 })));
    this.write('data: [DONE]\n\n');
    this.end();
  }

  fail(error: ApiError): void {
    if (this.ended) return;
    this.event(error.body());
    this.end();
  }

  private chunk(delta: Record<string, unknown>, finishReason: FinishReason | null): void {
    this.event(completionChunk(this.identity, delta, finishReason, this.includeUsage));
  }

  private event(data: unknown): void {
    this.write(`data: ${JSON.stringify(data)}\n\n`);
  }

  private write(text: string): void {
    if (!this.ended && !this.res.destroyed) this.res.write(text);
  }

  private end(): void {
    this.ended = true;
    clearInterval(this.keepAlive);
    if (!this.res.destroyed) this.res.end();
  }
}

/** One `chat.completion` JSON object when the producer finishes; an OpenAI error body with its status when it fails. */
export class WholeCompletion implements CompletionOutput {
  private ended = false;
  private content = '';
  private readonly toolCalls: WireToolCall[] = [];
  private totals: { inputTokens: number; outputTokens: number } | null = null;

  constructor(
    private readonly res: ServerResponse,
    private readonly identity: CompletionIdentity,
    private readonly headers: Record<string, string>,
  ) {}

  text(delta: string): void {
    this.content += delta;
  }

  toolCall(call: ToolCall): void {
    this.toolCalls.push(wireToolCall(call));
  }

  usage(usage: { inputTokens: number; outputTokens: number }): void {
    this.totals = { inputTokens: (this.totals?.inputTokens ?? 0) + usage.inputTokens, outputTokens: (this.totals?.outputTokens ?? 0) + usage.outputTokens };
  }

  finish(reason: FinishReason): void {
    if (this.ended) return;
    this.ended = true;
    sendJson(this.res, 200, chatCompletion(this.identity, { content: this.content, toolCalls: this.toolCalls }, reason, this.totals === null ? null : wireUsage(this.totals)), this.headers);
  }

  fail(error: ApiError): void {
    if (this.ended) return;
    this.ended = true;
    sendJson(this.res, error.status, error.body(), this.headers);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}
