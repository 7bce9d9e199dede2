import { abortError } from '../errors.js';
import type { ChatModel, ChatRequest, FinishReason, ModelEvent, ToolCall, Usage } from '../llm/types.js';
import type { AgentEvent } from '../../shared/events.js';

/** One assistant response, assembled from the model's stream. */
export interface ModelResponse {
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  usage: Usage | null;
  finishReason: FinishReason | null;
}

/**
 * Streams one response, forwarding deltas to the surface as they arrive. Nothing is returned unless
 * the stream completes: an interrupted response is thrown away whole (`HearthError('aborted')`), so
 * no half-written assistant text ever enters the history. The stream is raced against the signal,
 * so a model that is slow to notice an interrupt cannot hold the turn open.
 */
export async function streamResponse(model: ChatModel, request: ChatRequest, signal: AbortSignal, emit: (event: AgentEvent) => void): Promise<ModelResponse> {
  const response: ModelResponse = { text: '', reasoning: '', toolCalls: [], usage: null, finishReason: null };
  for await (const event of abortable(model.stream(request, signal), signal)) {
    switch (event.type) {
      case 'text':
        response.text += event.delta;
        emit({ type: 'text_delta', delta: event.delta });
        break;
      case 'reasoning':
        response.reasoning += event.delta;
        emit({ type: 'reasoning_delta', delta: event.delta });
        break;
      case 'tool_call':
        response.toolCalls.push(event.call);
        break;
      case 'usage':
        response.usage = event.usage;
        break;
      case 'fallback':
        emit({ type: 'model_fallback', from: event.from, to: event.to, reason: event.reason });
        break;
      case 'done':
        response.finishReason = event.finishReason;
        break;
    }
  }
  if (signal.aborted) throw abortError(signal);
  return response;
}

async function* abortable(stream: AsyncIterable<ModelEvent>, signal: AbortSignal): AsyncGenerator<ModelEvent> {
  const iterator = stream[Symbol.asyncIterator]();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortError(signal));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  // The race below may leave `aborted` rejected with nobody awaiting it; that rejection is the abort we already act on.
  aborted.catch(() => undefined);
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done === true) return;
      yield next.value;
    }
  } finally {
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
    if (signal.aborted) {
      // Ask the provider to stop without waiting: it may be the very thing that is stuck. An error while
      // it closes changes nothing, because the response is already discarded and the turn reports the interrupt.
      void iterator.return?.()?.catch(() => undefined);
    } else await iterator.return?.();
  }
}
