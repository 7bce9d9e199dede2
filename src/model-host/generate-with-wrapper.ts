/**
 * One assistant response for a model prompted through its chat wrapper (not Hermes): node-llama-cpp's
 * LlamaChat renders the history in the wrapper's format, stops on the family's own end-of-turn
 * triggers, and detects tool calls in the wrapper's call syntax, sampling their parameters under a
 * grammar built from the tool schemas. It reuses what the session's sequence already holds, as the
 * Hermes path does, because the rendered prompt of a longer conversation starts with the shorter one's.
 */
import { randomUUID } from 'node:crypto';
import { LlamaChat, LlamaJsonSchemaValidationError, LlamaText, type ChatHistoryItem, type ChatModelFunctions, type ChatWrapper, type LlamaContextSequence, type Token } from 'node-llama-cpp';
import type { FinishReason, ResponseResult, ResponseSink } from './generate-response.js';

export interface WrapperResponseOptions {
  sequence: LlamaContextSequence;
  wrapper: ChatWrapper;
  history: ChatHistoryItem[];
  functions: ChatModelFunctions | undefined;
  /** The rendered prompt (same tokens LlamaChat will evaluate), to count what the sequence already holds. */
  promptTokens: readonly Token[];
  maxTokens: number;
  temperature: number;
  seed: number | undefined;
  signal: AbortSignal;
}

function mintCallId(): string {
  return `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
}

/**
 * What LlamaChat could not read of a call, as the arguments of an `unparsed_tool_call`: parameters that
 * parsed but do not fit the schema (LlamaJsonSchemaValidationError: e.g. a string the grammar bounded in
 * tokens that decodes longer), or a call it could not parse (LlamaFunctionCallValidationError, which
 * node-llama-cpp does not export: recognised by its `callText`). Undefined for any other failure.
 */
function unreadableCall(err: unknown): string | undefined {
  if (err instanceof LlamaJsonSchemaValidationError) return JSON.stringify({ error: err.message, arguments: err.object });
  if (!(err instanceof Error) || !('callText' in err) || typeof err.callText !== 'string') return undefined;
  return JSON.stringify({ error: err.message, text: err.callText });
}

function hasNonFiniteNumber(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (typeof value !== 'object' || value === null) return false;
  return Object.values(value).some(hasNonFiniteNumber);
}

function commonPrefixLength(a: readonly Token[], b: readonly Token[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

export async function generateWithWrapper(o: WrapperResponseOptions, sink: ResponseSink): Promise<ResponseResult> {
  // As in alignToPrompt: a fully cached prompt still evaluates its last token (sampling needs its logits).
  const cached = Math.min(commonPrefixLength(o.sequence.contextTokens, o.promptTokens), Math.max(0, o.promptTokens.length - 1));
  const chat = new LlamaChat({ contextSequence: o.sequence, chatWrapper: o.wrapper, autoDisposeSequence: false });
  let outputTokens = 0;
  let thinking = false;
  const endThought = (): void => {
    if (thinking) sink.text('</think>');
    thinking = false;
  };
  try {
    let response;
    try {
      response = await chat.generateResponse(o.history, {
        ...(o.functions ? { functions: o.functions, documentFunctionParams: true } : {}),
        // Thoughts come as segments (Qwen3, DeepSeek R1, …): sent as `<think>` text, as the Hermes path sends what
        // the model writes, so the engine moves them to reasoning the same way; comment segments are not for the user.
        onResponseChunk: (chunk) => {
          if (chunk.type === 'segment') {
            if (chunk.segmentType !== 'thought') return;
            if (!thinking) sink.text('<think>');
            thinking = true;
            if (chunk.text !== '') sink.text(chunk.text);
            if (chunk.segmentEndTime !== undefined) endThought();
            return;
          }
          endThought();
          if (chunk.text !== '') sink.text(chunk.text);
        },
        onToken: (tokens) => {
          outputTokens += tokens.length;
        },
        signal: o.signal,
        // An abort ends the response with what was generated, like the Hermes path, instead of throwing.
        stopOnAbortSignal: true,
        maxTokens: o.maxTokens,
        temperature: o.temperature,
        // The same sampling as the Hermes path (LlamaChat would add a repeat penalty over the last 64 tokens).
        repeatPenalty: false,
        ...(o.seed === undefined ? {} : { seed: o.seed }),
      });
    } catch (err) {
      const unreadable = unreadableCall(err);
      if (unreadable === undefined) throw err;
      // A call the model wrote that does not parse (or fit its schema) goes to the agent, whose validation tells the model.
      sink.toolCall({ id: mintCallId(), name: 'unparsed_tool_call', arguments: unreadable });
      return { finishReason: 'tool_calls', evaluatedInputTokens: o.promptTokens.length - cached, outputTokens };
    }
    endThought();
    const calls = response.functionCalls ?? [];
    for (const call of calls) {
      const params: unknown = call.params ?? {};
      // node-llama-cpp's number rule admits `1e400`: JSON would turn that Infinity into a silent null.
      const text = hasNonFiniteNumber(params) ? undefined : JSON.stringify(params);
      sink.toolCall(
        text === undefined
          ? { id: mintCallId(), name: 'unparsed_tool_call', arguments: JSON.stringify({ error: `a number in the arguments of ${call.functionName} is out of range`, text: LlamaText.fromJSON(call.raw).toString() }) }
          : { id: mintCallId(), name: call.functionName, arguments: text },
      );
    }
    const stop = response.metadata.stopReason;
    const finishReason: FinishReason = calls.length > 0 ? 'tool_calls' : stop === 'abort' ? 'aborted' : stop === 'maxTokens' ? 'length' : 'stop';
    return { finishReason, evaluatedInputTokens: o.promptTokens.length - cached, outputTokens };
  } finally {
    chat.dispose({ disposeSequence: false });
  }
}
