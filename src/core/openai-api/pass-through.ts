import { errorMessage, isHearthError } from '../errors.js';
import type { ChatModel, ChatRequest } from '../llm/types.js';
import type { CompletionOutput } from './completion-output.js';
import { toChatMessages, toolsOf } from './messages.js';
import { ApiError, type ChatCompletionBody } from './wire.js';

/**
 * A model id other than `hearth-agent`: one model call, straight to that configured model, with the client's
 * messages, tools and sampling settings; tool calls go back to the client to run, as OpenAI's would.
 */

/** The model request for a body; throws a 400 `ApiError` before anything is sent when the body cannot be honoured. */
export function passThroughRequest(body: ChatCompletionBody): ChatRequest {
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  return {
    messages: toChatMessages(body.messages),
    ...toolsOf(body),
    ...(maxTokens === null || maxTokens === undefined ? {} : { maxTokens }),
    ...(body.temperature === null || body.temperature === undefined ? {} : { temperature: body.temperature }),
  };
}

export async function runPassThrough(model: ChatModel, request: ChatRequest, output: CompletionOutput, signal: AbortSignal): Promise<void> {
  let sawToolCall = false;
  try {
    for await (const event of model.stream(request, signal)) {
      if (event.type === 'text') output.text(event.delta);
      else if (event.type === 'tool_call') {
        sawToolCall = true;
        output.toolCall(event.call);
      } else if (event.type === 'usage') output.usage(event.usage);
      else if (event.type === 'done') {
        if (event.finishReason === 'aborted') break;
        output.finish(event.finishReason === 'length' ? 'length' : sawToolCall || event.finishReason === 'tool_calls' ? 'tool_calls' : 'stop');
        return;
      }
      // Reasoning and fallback notes have no place in the chat-completions format this API promises.
    }
    if (signal.aborted) return;
    output.fail(new ApiError(502, 'server_error', 'model_bad_response', `${model.id} ended its answer without finishing it.`));
  } catch (err) {
    // The client went away: there is nobody to tell.
    if (signal.aborted) return;
    output.fail(apiErrorFrom(err));
  }
}

/** A model failure as the status and code an OpenAI client branches on. */
export function apiErrorFrom(err: unknown): ApiError {
  const message = errorMessage(err);
  if (err instanceof ApiError) return err;
  if (isHearthError(err, 'model_rate_limited')) return new ApiError(429, 'rate_limit_error', 'rate_limit_exceeded', message);
  if (isHearthError(err, 'model_context_overflow')) return new ApiError(400, 'invalid_request_error', 'context_length_exceeded', message);
  if (isHearthError(err, 'model_timeout')) return new ApiError(504, 'server_error', 'model_timeout', message);
  if (isHearthError(err) && err.code.startsWith('model_')) return new ApiError(502, 'server_error', err.code, message);
  if (isHearthError(err, 'all_models_failed')) return new ApiError(502, 'server_error', err.code, message);
  if (isHearthError(err)) return new ApiError(500, 'server_error', err.code, message);
  return new ApiError(500, 'server_error', 'internal', message);
}
