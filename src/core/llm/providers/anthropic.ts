import { z } from 'zod';
import { HearthError } from '../../errors.js';
import { openStreamingPost, type HttpRetryOptions } from '../http.js';
import { parseSse } from '../sse.js';
import type { ChatMessage, ChatModel, ChatRequest, FinishReason, ModelDescription, ModelEvent, Usage } from '../types.js';

/**
 * Anthropic Messages API with streaming: text, extended thinking and `tool_use` blocks, whose
 * `input` arrives as `input_json_delta` fragments and is handed over whole at `content_block_stop`.
 */

export interface AnthropicOptions extends HttpRetryOptions {
  /** `anthropic:claude-sonnet-4-5` as shown to the user. */
  id: string;
  /** `https://api.anthropic.com` (a trailing `/v1` is accepted too). */
  baseUrl: string;
  model: string;
  /** The configured provider name; default `anthropic`. */
  provider?: string;
  apiKey: string;
  /** Anthropic requires `max_tokens`; used when the request sets none (default 8192). */
  maxTokens?: number;
  headers?: Record<string, string>;
  contextLength?: number;
}

type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string };

interface WireMessage {
  role: 'user' | 'assistant';
  content: ContentBlock[];
}

/*
 * The stream's events, parsed (not cast): optional and nullable fields as the API documents them,
 * unknown fields and event types ignored, a field of the wrong type a `model_bad_response` naming it.
 */
const usageSchema = z.object({
  input_tokens: z.number().nullish(),
  output_tokens: z.number().nullish(),
  cache_read_input_tokens: z.number().nullish(),
  cache_creation_input_tokens: z.number().nullish(),
});

const streamEventSchema = z.object({
  type: z.string().optional(),
  index: z.number().int().optional(),
  message: z.object({ usage: usageSchema.nullish() }).nullish(),
  content_block: z.object({ type: z.string().optional(), id: z.string().optional(), name: z.string().optional(), text: z.string().optional(), thinking: z.string().optional() }).nullish(),
  delta: z.object({ type: z.string().optional(), text: z.string().optional(), partial_json: z.string().optional(), thinking: z.string().optional(), stop_reason: z.string().nullish() }).nullish(),
  usage: usageSchema.nullish(),
  error: z.object({ type: z.string().optional(), message: z.string().optional() }).nullish(),
});

type StreamEvent = z.infer<typeof streamEventSchema>;
type AnthropicUsage = z.infer<typeof usageSchema>;

/** Anthropic error types that mean the service, not the request, failed: worth a fallback (status ≥ 500). */
const STREAM_ERROR_STATUS: Record<string, number> = { overloaded_error: 529, api_error: 500, rate_limit_error: 429 };

export class AnthropicModel implements ChatModel {
  readonly id: string;
  readonly contextLength: number | undefined;

  constructor(private readonly options: AnthropicOptions) {
    this.id = options.id;
    this.contextLength = options.contextLength;
  }

  describe(): ModelDescription {
    return {
      kind: 'remote',
      provider: this.options.provider ?? 'anthropic',
      model: this.options.model,
      ...(this.contextLength === undefined ? {} : { contextLength: this.contextLength }),
      // Hearth's messages carry no image blocks yet.
      capabilities: { tools: 'native', images: false },
    };
  }

  async *stream(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ModelEvent, void, undefined> {
    const base = this.options.baseUrl.replace(/\/+$/, '');
    const opened = await openStreamingPost({
      url: base.endsWith('/v1') ? `${base}/messages` : `${base}/v1/messages`,
      headers: { 'x-api-key': this.options.apiKey, 'anthropic-version': '2023-06-01', ...this.options.headers },
      body: buildMessagesBody(this.options.model, request, this.options.maxTokens ?? 8192),
      modelId: this.id,
      secrets: [this.options.apiKey],
      signal,
      options: this.options,
    });

    const toolBlocks = new Map<number, { id: string; name: string; json: string }>();
    const usage: AnthropicUsage = {};
    let stopReason: string | undefined;
    let stopped = false;
    for await (const sse of parseSse(opened.chunks)) {
      const event = this.parse(sse.data);
      switch (event.type) {
        case 'message_start':
          Object.assign(usage, event.message?.usage);
          break;
        case 'content_block_start': {
          const block = event.content_block;
          if (block?.type === 'tool_use') {
            toolBlocks.set(event.index ?? -1, { id: block.id ?? '', name: block.name ?? '', json: '' });
          } else if (block?.type === 'text' && block.text) {
            yield { type: 'text', delta: block.text };
          } else if (block?.type === 'thinking' && block.thinking) {
            yield { type: 'reasoning', delta: block.thinking };
          }
          break;
        }
        case 'content_block_delta': {
          const delta = event.delta;
          if (delta?.type === 'text_delta' && delta.text) yield { type: 'text', delta: delta.text };
          else if (delta?.type === 'thinking_delta' && delta.thinking) yield { type: 'reasoning', delta: delta.thinking };
          else if (delta?.type === 'input_json_delta') {
            const tool = toolBlocks.get(event.index ?? -1);
            if (!tool) throw this.badResponse('input_json_delta for a block that is not a tool_use');
            tool.json += delta.partial_json ?? '';
          }
          // signature_delta (thinking integrity) only matters when replaying thinking blocks, which we do not.
          break;
        }
        case 'content_block_stop': {
          const tool = toolBlocks.get(event.index ?? -1);
          if (tool) {
            if (!tool.id || !tool.name) throw this.badResponse('a tool_use block without id or name');
            // A tool with no input streams no fragments at all: that is `{}`.
            yield { type: 'tool_call', call: { id: tool.id, name: tool.name, arguments: tool.json || '{}' } };
            toolBlocks.delete(event.index ?? -1);
          }
          break;
        }
        case 'message_delta':
          if (event.delta?.stop_reason) stopReason = event.delta.stop_reason;
          Object.assign(usage, event.usage);
          break;
        case 'message_stop':
          stopped = true;
          break;
        case 'error':
          throw this.streamError(event);
        default:
          break; // `ping` and event types added after this was written carry nothing we need
      }
      if (stopped) break;
    }
    if (!stopped) throw this.badResponse('the stream ended before message_stop');
    yield { type: 'usage', usage: toUsage(usage) };
    yield { type: 'done', finishReason: mapStopReason(stopReason) };
  }

  private parse(data: string): StreamEvent {
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch (err) {
      throw new HearthError('model_bad_response', `${this.id} sent a stream event that is not JSON: ${data.slice(0, 200)}`, { cause: err });
    }
    if (!json || typeof json !== 'object' || Array.isArray(json)) throw this.badResponse(`unexpected stream event ${data.slice(0, 200)}`);
    const parsed = streamEventSchema.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(event)'}: ${i.message}`).join('; ');
      throw this.badResponse(`an event of the wrong shape (${issues}): ${data.slice(0, 200)}`);
    }
    return parsed.data;
  }

  private badResponse(what: string): HearthError {
    return new HearthError('model_bad_response', `${this.id}: malformed stream (${what}).`);
  }

  private streamError(event: StreamEvent): HearthError {
    const type = event.error?.type ?? 'unknown_error';
    const message = event.error?.message ?? type;
    if (type === 'rate_limit_error') {
      return new HearthError('model_rate_limited', `${this.id} is rate limited: ${message}`, { details: { status: 429, providerMessage: message } });
    }
    const status = STREAM_ERROR_STATUS[type] ?? 400;
    return new HearthError('model_http', `${this.id} reported ${type} mid-response: ${message}`, {
      details: { status, providerMessage: message, errorType: type },
    });
  }
}

/** The request body, exported for the wire-shape tests. */
export function buildMessagesBody(model: string, request: ChatRequest, defaultMaxTokens: number): Record<string, unknown> {
  // Anthropic has no system role inside `messages`: every system message goes to `system`, in order.
  const system = request.messages.filter((m) => m.role === 'system').map((m) => m.content);
  const body: Record<string, unknown> = {
    model,
    max_tokens: request.maxTokens ?? defaultMaxTokens,
    messages: toWireMessages(request.messages),
    stream: true,
  };
  if (system.length > 0) body.system = system.join('\n\n');
  if (request.tools.length > 0) {
    body.tools = request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
    if (request.toolChoice) body.tool_choice = { type: request.toolChoice === 'required' ? 'any' : request.toolChoice };
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  return body;
}

/**
 * Our flat message list → Anthropic's: tool results become `tool_result` blocks of a user message,
 * and consecutive same-role messages merge, because the API requires user/assistant alternation
 * starting with a user turn.
 */
export function toWireMessages(messages: ChatMessage[]): WireMessage[] {
  const out: WireMessage[] = [];
  const append = (role: WireMessage['role'], blocks: ContentBlock[]) => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    if (last && last.role === role) {
      // Tool results must come first in a user message; a user text after them is appended, which keeps that true.
      last.content.push(...blocks);
    } else {
      out.push({ role, content: blocks });
    }
  };
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        break;
      case 'user':
        append('user', m.content ? [{ type: 'text', text: m.content }] : []);
        break;
      case 'assistant': {
        // Thinking is not replayed: Anthropic requires its signature, which ChatMessage does not keep.
        const blocks: ContentBlock[] = m.content ? [{ type: 'text', text: m.content }] : [];
        for (const call of m.toolCalls ?? []) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: parseInput(call.arguments) });
        append('assistant', blocks);
        break;
      }
      case 'tool':
        append('user', [{ type: 'tool_result', tool_use_id: m.toolCallId, content: m.content }]);
        break;
    }
  }
  if (out[0]?.role === 'assistant') out.unshift({ role: 'user', content: [{ type: 'text', text: '(conversation continues)' }] });
  return out;
}

/** `tool_use.input` must be an object; invalid JSON the model wrote is kept verbatim rather than lost. */
function parseInput(args: string): unknown {
  try {
    const parsed: unknown = JSON.parse(args || '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  } catch (_invalid) {
    // Fall through: the tool result already told the model its JSON was invalid.
  }
  return { _raw_arguments: args };
}

function toUsage(u: AnthropicUsage): Usage {
  const fresh = u.input_tokens ?? 0;
  const cacheRead = u.cache_read_input_tokens ?? 0;
  const cacheWrite = u.cache_creation_input_tokens ?? 0;
  return {
    inputTokens: fresh + cacheRead + cacheWrite,
    outputTokens: u.output_tokens ?? 0,
    evaluatedInputTokens: fresh + cacheWrite,
    ...(cacheRead > 0 ? { cachedInputTokens: cacheRead } : {}),
  };
}

function mapStopReason(reason: string | undefined): FinishReason {
  if (reason === 'tool_use') return 'tool_calls';
  if (reason === 'max_tokens') return 'length';
  return 'stop';
}
