import { z } from 'zod';
import { HearthError } from '../../errors.js';
import { openStreamingPost, providerErrorMessage, type HttpRetryOptions } from '../http.js';
import { withReasoningTags } from '../reasoning-tags.js';
import { parseSse } from '../sse.js';
import { mintCallId, withTextToolCalls } from '../text-tool-calls.js';
import type { ChatMessage, ChatModel, ChatRequest, FinishReason, ModelDescription, ModelEvent, ToolCall, Usage } from '../types.js';

/**
 * Any OpenAI-compatible chat-completions endpoint: OpenAI, OpenRouter, Ollama, vLLM, LM Studio,
 * llama-server. Streams SSE; tool calls arrive as deltas keyed by `index` and are assembled here;
 * reasoning arrives in `reasoning_content`/`reasoning` or as `<think>` tags in the content; tool
 * calls some servers leave in the content are recovered (text-tool-calls.ts).
 */

export interface OpenAICompatibleOptions extends HttpRetryOptions {
  /** `provider:model` as shown to the user, e.g. `openai:gpt-4o-mini`, `ollama:qwen3`. */
  id: string;
  /** Base URL up to and including the version segment, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  /** The model name the server expects. */
  model: string;
  /** The configured provider name (`openai`, `ollama`, `openrouter`, …); default `openai`. */
  provider?: string;
  /** Omitted for local servers that need no key. */
  apiKey?: string;
  headers?: Record<string, string>;
  contextLength?: number;
}

/*
 * The wire shapes, parsed (not cast): every field a server may leave out or send as null is nullish,
 * unknown fields are ignored, and a field of the wrong type is a `model_bad_response` naming it.
 */
const toolCallDeltaSchema = z.object({
  index: z.number().int().nonnegative().nullish(),
  id: z.string().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

/** Content is a string; a few servers send an array of parts instead (only text parts carry anything here). */
const contentSchema = z
  .union([z.string(), z.array(z.object({ type: z.string(), text: z.string().nullish() }))])
  .nullish()
  .transform((content) => (Array.isArray(content) ? content.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('') : content));

const messageDeltaSchema = z.object({
  content: contentSchema,
  reasoning_content: z.string().nullish(),
  reasoning: z.string().nullish(),
  tool_calls: z.array(toolCallDeltaSchema).nullish(),
});

const chunkUsageSchema = z.object({
  prompt_tokens: z.number().nullish(),
  completion_tokens: z.number().nullish(),
  prompt_tokens_details: z.object({ cached_tokens: z.number().nullish() }).nullish(),
});

const completionChunkSchema = z.object({
  choices: z
    .array(
      z.object({
        delta: messageDeltaSchema.nullish(),
        /** Present instead of `delta` when a server ignores `stream: true` and answers with one JSON object. */
        message: messageDeltaSchema.nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: chunkUsageSchema.nullish(),
});

type ToolCallDelta = z.infer<typeof toolCallDeltaSchema>;
type ChunkUsage = z.infer<typeof chunkUsageSchema>;
type CompletionChunk = z.infer<typeof completionChunkSchema>;

export class OpenAICompatibleModel implements ChatModel {
  readonly id: string;
  readonly contextLength: number | undefined;

  constructor(private readonly options: OpenAICompatibleOptions) {
    this.id = options.id;
    this.contextLength = options.contextLength;
  }

  describe(): ModelDescription {
    return {
      kind: 'remote',
      provider: this.options.provider ?? 'openai',
      model: this.options.model,
      ...(this.contextLength === undefined ? {} : { contextLength: this.contextLength }),
      // Hearth's messages carry no image parts yet, whatever the server could take.
      capabilities: { tools: 'native', images: false },
    };
  }

  stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
    // Order matters: reasoning tags come off first, so a `<tool_call>` after `</think>` is found.
    return withTextToolCalls(withReasoningTags(this.rawStream(request, signal)), request.tools);
  }

  private async *rawStream(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ModelEvent, void, undefined> {
    const { apiKey } = this.options;
    const opened = await openStreamingPost({
      url: `${this.options.baseUrl.replace(/\/+$/, '')}/chat/completions`,
      headers: { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...this.options.headers },
      body: buildChatCompletionsBody(this.options.model, request),
      modelId: this.id,
      secrets: apiKey ? [apiKey] : [],
      signal,
      options: this.options,
    });
    const assembler = new ToolCallAssembler();
    let usage: Usage | undefined;
    let finish: string | undefined;
    let sawDone = false;

    const parseChunk = (data: string) => this.parseChunk(data);
    function* handle(data: string): Generator<ModelEvent> {
      const chunk = parseChunk(data);
      if (chunk.usage) usage = toUsage(chunk.usage);
      for (const choice of chunk.choices ?? []) {
        const delta = choice.delta ?? choice.message;
        if (delta) {
          const reasoning = nonEmpty(delta.reasoning_content) ?? nonEmpty(delta.reasoning);
          if (reasoning) yield { type: 'reasoning', delta: reasoning };
          if (delta.content) yield { type: 'text', delta: delta.content };
          for (const piece of delta.tool_calls ?? []) assembler.add(piece);
        }
        if (choice.finish_reason) finish = choice.finish_reason;
      }
    }

    if (opened.contentType.includes('application/json')) {
      // The server ignored `stream: true` (some proxies do): one whole completion object.
      let body = '';
      for await (const chunk of opened.chunks) body += chunk;
      yield* handle(body);
      sawDone = true;
    } else {
      for await (const event of parseSse(opened.chunks)) {
        if (event.data.trim() === '[DONE]') {
          sawDone = true;
          break;
        }
        yield* handle(event.data);
      }
    }
    if (!sawDone && finish === undefined) {
      throw new HearthError('model_bad_response', `${this.id}: the stream ended before the response was complete.`);
    }

    const calls = assembler.finish(this.id);
    for (const call of calls) yield { type: 'tool_call', call };
    yield { type: 'usage', usage: usage ?? { inputTokens: 0, outputTokens: 0 } };
    yield { type: 'done', finishReason: calls.length > 0 ? 'tool_calls' : mapFinishReason(finish) };
  }

  private parseChunk(data: string): CompletionChunk {
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch (err) {
      throw new HearthError('model_bad_response', `${this.id} sent a stream event that is not JSON: ${data.slice(0, 200)}`, {
        cause: err,
      });
    }
    if (!json || typeof json !== 'object' || Array.isArray(json)) {
      throw new HearthError('model_bad_response', `${this.id} sent an unexpected stream event: ${data.slice(0, 200)}`);
    }
    if ('error' in json && json.error !== undefined && json.error !== null) {
      // Mid-stream errors (OpenRouter, vLLM) arrive as an event carrying `error` instead of choices.
      const message = providerErrorMessage(JSON.stringify({ error: json.error }));
      const code = typeof json.error === 'object' && 'code' in json.error ? json.error.code : undefined;
      const status = typeof code === 'number' ? code : 500;
      throw new HearthError('model_http', `${this.id} reported an error mid-response: ${message}`, {
        details: { status, providerMessage: message },
      });
    }
    const parsed = completionChunkSchema.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(event)'}: ${i.message}`).join('; ');
      throw new HearthError('model_bad_response', `${this.id} sent a stream event of the wrong shape (${issues}): ${data.slice(0, 200)}`);
    }
    return parsed.data;
  }
}

/** The request body, exported for the wire-shape tests. */
export function buildChatCompletionsBody(model: string, request: ChatRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model,
    messages: request.messages.map(toWireMessage),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    if (request.toolChoice) body.tool_choice = request.toolChoice;
  }
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  return body;
}

function toWireMessage(message: ChatMessage): Record<string, unknown> {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant': {
      // Reasoning is not sent back: DeepSeek rejects `reasoning_content` in input, others ignore it.
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        content: message.content === '' ? null : message.content,
        tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
      };
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

/** Collects `delta.tool_calls` pieces: id and name come first, `arguments` in fragments split anywhere. */
class ToolCallAssembler {
  private readonly byIndex = new Map<number, { id?: string; name: string; arguments: string }>();

  add(piece: ToolCallDelta): void {
    // A server that omits `index` sends one call per delta sequence; treat a new id as a new call.
    const index = piece.index ?? this.indexWithoutIndexField(piece);
    const entry = this.byIndex.get(index) ?? { name: '', arguments: '' };
    if (piece.id) entry.id = piece.id;
    // Names arrive whole in practice, but some servers repeat them on every delta: never double them.
    const name = piece.function?.name;
    if (name && name !== entry.name) entry.name += name;
    if (piece.function?.arguments) entry.arguments += piece.function.arguments;
    this.byIndex.set(index, entry);
  }

  finish(modelId: string): ToolCall[] {
    return [...this.byIndex.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, e]) => {
        if (!e.name) throw new HearthError('model_bad_response', `${modelId} streamed a tool call without a function name.`);
        return { id: e.id ?? mintCallId(), name: e.name, arguments: e.arguments || '{}' };
      });
  }

  private indexWithoutIndexField(piece: ToolCallDelta): number {
    const last = this.byIndex.size - 1;
    return piece.id && this.byIndex.get(last)?.id !== piece.id ? last + 1 : Math.max(last, 0);
  }
}

function toUsage(u: ChunkUsage): Usage {
  const input = u.prompt_tokens ?? 0;
  const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    inputTokens: input,
    outputTokens: u.completion_tokens ?? 0,
    ...(cached > 0 ? { cachedInputTokens: cached, evaluatedInputTokens: input - cached } : {}),
  };
}

function mapFinishReason(reason: string | undefined): FinishReason {
  if (reason === 'length') return 'length';
  if (reason === 'tool_calls' || reason === 'function_call') return 'tool_calls';
  return 'stop';
}

function nonEmpty(value: string | null | undefined): string | undefined {
  return value ? value : undefined;
}
