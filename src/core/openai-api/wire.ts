import { z } from 'zod';

/**
 * The OpenAI chat-completions wire format as Hearth's API accepts and answers it: the request body is parsed
 * (never cast) by these schemas, and the response objects are built by the functions below, so every route
 * speaks one shape. Fields Hearth cannot honour are refused with a 400 that names them rather than ignored.
 */

/** The model id that runs the whole agent (tools, memory, skills) instead of one model call. */
export const AGENT_MODEL_ID = 'hearth-agent';

const TextPart = z.object({ type: z.literal('text'), text: z.string() });

/** Message content: a string, or text parts (images and audio are not carried by Hearth's model interface). */
const Content = z.union([
  z.string(),
  z.array(
    z.looseObject({ type: z.string() }).superRefine((part, ctx) => {
      if (part.type !== 'text') ctx.addIssue({ code: 'custom', message: `only text content parts are supported (got a "${part.type}" part)` });
      else if (!TextPart.safeParse(part).success) ctx.addIssue({ code: 'custom', message: 'a text part needs a "text" string' });
    }),
  ),
]);

const WireToolCall = z.object({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.object({ name: z.string().min(1), arguments: z.string() }),
});

// Loose: clients send `name`, `refusal`, `audio: null` and similar fields that change nothing here.
const WireMessage = z.discriminatedUnion('role', [
  z.looseObject({ role: z.literal('system'), content: Content }),
  z.looseObject({ role: z.literal('developer'), content: Content }),
  z.looseObject({ role: z.literal('user'), content: Content }),
  z.looseObject({ role: z.literal('assistant'), content: Content.nullish(), tool_calls: z.array(WireToolCall).nullish() }),
  z.looseObject({ role: z.literal('tool'), content: Content, tool_call_id: z.string().min(1) }),
]);

const WireTool = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'tool names are 1-64 letters, digits, "_" or "-"' }),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullish(),
  }),
});

const ToolChoice = z.union([
  z.enum(['auto', 'none', 'required']),
  z.object({ type: z.literal('function'), function: z.object({ name: z.string().min(1) }) }),
]);

/** `POST /v1/chat/completions`. Strict at the top level: an unsupported field is a 400 naming it. */
export const ChatCompletionBody = z.strictObject({
  model: z.string().min(1),
  messages: z.array(WireMessage).min(1, { error: 'messages must hold at least one message' }),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  max_tokens: z.number().int().positive().nullish(),
  max_completion_tokens: z.number().int().positive().nullish(),
  tools: z.array(WireTool).nullish(),
  tool_choice: ToolChoice.nullish(),
  /** Accepted (clients send it); Hearth has one user per API key, so it changes nothing. */
  user: z.string().nullish(),
  n: z.literal(1, { error: 'n must be 1: Hearth answers with one choice' }).nullish(),
});
export type ChatCompletionBody = z.infer<typeof ChatCompletionBody>;
export type WireMessage = z.infer<typeof WireMessage>;
export type WireToolCall = z.infer<typeof WireToolCall>;

/** The text of a message's content (text parts joined). */
export function contentText(content: z.infer<typeof Content> | null | undefined): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
}

/** A zod failure as one line a client can act on: `messages.2.content: only text content parts…`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.join('.');
      if (issue.code === 'unrecognized_keys') return `unsupported field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}${path === '' ? '' : ` in ${path}`}`;
      return `${path === '' ? 'body' : path}: ${issue.message}`;
    })
    .join('; ');
}

export type ApiErrorType = 'invalid_request_error' | 'authentication_error' | 'not_found_error' | 'rate_limit_error' | 'server_error';

/** An error as OpenAI sends it, with the HTTP status it goes out with. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ApiErrorType,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  body(): { error: { message: string; type: ApiErrorType; code: string; param: null } } {
    return { error: { message: this.message, type: this.type, code: this.code, param: null } };
  }
}

export type FinishReason = 'stop' | 'length' | 'tool_calls';

export interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export function wireUsage(usage: { inputTokens: number; outputTokens: number }): WireUsage {
  return { prompt_tokens: usage.inputTokens, completion_tokens: usage.outputTokens, total_tokens: usage.inputTokens + usage.outputTokens };
}

export function wireToolCall(call: { id: string; name: string; arguments: string }): WireToolCall {
  return { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } };
}

/** What one completion is answered as, shared by its chunks. */
export interface CompletionIdentity {
  id: string;
  created: number;
  model: string;
}

export function chatCompletion(
  identity: CompletionIdentity,
  message: { content: string; toolCalls: WireToolCall[] },
  finishReason: FinishReason,
  usage: WireUsage | null,
): Record<string, unknown> {
  return {
    id: identity.id,
    object: 'chat.completion',
    created: identity.created,
    model: identity.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: message.content, refusal: null, ...(message.toolCalls.length > 0 ? { tool_calls: message.toolCalls } : {}) },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    ...(usage === null ? {} : { usage }),
  };
}

/** One `chat.completion.chunk`; `usage: null` rides on every chunk when the client asked for usage, as OpenAI does. */
export function completionChunk(identity: CompletionIdentity, delta: Record<string, unknown>, finishReason: FinishReason | null, withUsage: boolean): Record<string, unknown> {
  return {
    id: identity.id,
    object: 'chat.completion.chunk',
    created: identity.created,
    model: identity.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(withUsage ? { usage: null } : {}),
  };
}

/** The last chunk when `stream_options.include_usage` is set: no choices, the whole request's usage. */
export function usageChunk(identity: CompletionIdentity, usage: WireUsage): Record<string, unknown> {
  return { id: identity.id, object: 'chat.completion.chunk', created: identity.created, model: identity.model, choices: [], usage };
}
