/**
 * One assistant response on one context sequence: free text streamed as it decodes; a `<tool_call>`
 * switches sampling to a JSON-schema grammar so the call is always `{"name": <a tool>, "arguments":
 * <valid for it>}`; after a call the model may only open another call or end the turn.
 */
import { randomUUID } from 'node:crypto';
import { LlamaGrammarEvaluationState, type LlamaContextSequence, type LlamaGrammar, type LlamaModel, type Token } from 'node-llama-cpp';
import { IM_END, IM_START, TOOL_CALL_CLOSE, TOOL_CALL_OPEN } from './hermes-prompt.js';
import { alignToPrompt } from './session-pool.js';
import { partialTagSuffixLength, TokenTextDecoder } from './token-text.js';

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'aborted';

export interface GeneratedToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface ResponseSink {
  text(delta: string): void;
  toolCall(call: GeneratedToolCall): void;
}

export interface ResponseOptions {
  model: LlamaModel;
  sequence: LlamaContextSequence;
  /** The whole rendered prompt; only the part the sequence does not already hold is evaluated. */
  promptTokens: Token[];
  /** 'required': the prompt already ends in `<tool_call>\n` and the grammar applies from the first token. */
  toolChoice: 'auto' | 'required' | 'none';
  /** Grammar for `{"name", "arguments"}` over the offered tools; absent when no tools are offered. */
  toolCallGrammar: LlamaGrammar | undefined;
  maxTokens: number;
  temperature: number;
  seed: number | undefined;
  signal: AbortSignal;
}

export interface ResponseResult {
  finishReason: FinishReason;
  /** Prompt tokens actually handed to the evaluator this call. */
  evaluatedInputTokens: number;
  outputTokens: number;
}

type Phase = 'text' | 'call' | 'after_call';

/** The completed call object, or undefined while the JSON is still open. */
function completedCall(json: string): { name: string; arguments: unknown } | undefined {
  if (!json.trimEnd().endsWith('}')) return undefined;
  try {
    const value = JSON.parse(json) as unknown;
    if (typeof value === 'object' && value !== null && 'name' in value && typeof value.name === 'string') {
      return { name: value.name, arguments: (value as { arguments?: unknown }).arguments ?? {} };
    }
    return undefined;
  } catch (_incomplete) {
    // Expected on every token until the closing brace of the top-level object arrives.
    return undefined;
  }
}

function firstIndexOf(text: string, needles: readonly string[]): number {
  const found = needles.map((n) => text.indexOf(n)).filter((i) => i >= 0);
  return found.length === 0 ? -1 : Math.min(...found);
}

export async function generateResponse(o: ResponseOptions, sink: ResponseSink): Promise<ResponseResult> {
  const { model, sequence } = o;
  const toEvaluate = await alignToPrompt(sequence, o.promptTokens);
  const newlineTokens = model.tokenize('\n', true);
  const closeCallTokens = model.tokenize(`\n${TOOL_CALL_CLOSE}`, true);
  const grammar = o.toolChoice === 'none' ? undefined : o.toolCallGrammar;

  let phase: Phase = o.toolChoice === 'required' && grammar ? 'call' : 'text';
  let grammarState = phase === 'call' && grammar ? new LlamaGrammarEvaluationState({ model, grammar }) : undefined;
  const decoder = new TokenTextDecoder(model);
  let pending = ''; // decoded text not yet emitted (a possible tag start, or whitespace after a call)
  let callJson = '';
  let calls = 0;
  let outputTokens = 0;
  let finishReason: FinishReason = 'stop';

  const iterator = sequence.evaluate(toEvaluate, {
    temperature: o.temperature,
    ...(o.seed === undefined ? {} : { seed: o.seed }),
    grammarEvaluationState: () => grammarState,
  });
  /** Tokens to evaluate instead of the sampled one on the next step (to inject a newline or a closing tag). */
  let replacement: Token[] | undefined;

  const openCall = (token: Token): void => {
    if (!grammar) return;
    phase = 'call';
    callJson = '';
    pending = '';
    grammarState = new LlamaGrammarEvaluationState({ model, grammar });
    // Hermes writes the JSON on the line after the tag: put the newline there ourselves.
    replacement = [token, ...newlineTokens];
    decoder.reset();
  };

  try {
    for (;;) {
      if (o.signal.aborted) {
        finishReason = 'aborted';
        break;
      }
      const step = await iterator.next(replacement);
      replacement = undefined;
      if (step.done) {
        // The model produced an end-of-generation token.
        finishReason = calls > 0 ? 'tool_calls' : phase === 'call' ? 'length' : 'stop';
        break;
      }
      const token = step.value;
      outputTokens++;
      const text = decoder.push(token);

      if (phase === 'call') {
        callJson += text;
        const call = completedCall(callJson);
        if (call) {
          sink.toolCall({ id: `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`, name: call.name, arguments: JSON.stringify(call.arguments) });
          calls++;
          grammarState = undefined;
          phase = 'after_call';
          pending = '';
          replacement = [token, ...closeCallTokens];
          decoder.reset();
        }
      } else {
        pending += text;
        // A turn marker in the output (end of this turn, or the model starting the next one) ends the response.
        const end = firstIndexOf(pending, [IM_END, IM_START]);
        if (end >= 0) {
          if (phase === 'text') sink.text(pending.slice(0, end));
          pending = '';
          finishReason = calls > 0 ? 'tool_calls' : 'stop';
          break;
        }
        if (phase === 'after_call') {
          // Hermes only ever follows a call with another call or the end of its turn.
          const trimmed = pending.trimStart();
          if (trimmed.startsWith(TOOL_CALL_OPEN)) openCall(token);
          else if (!TOOL_CALL_OPEN.startsWith(trimmed)) {
            finishReason = 'tool_calls';
            break;
          }
        } else if (grammar && pending.includes(TOOL_CALL_OPEN)) {
          sink.text(pending.slice(0, pending.indexOf(TOOL_CALL_OPEN)));
          openCall(token);
        } else {
          const keep = grammar ? partialTagSuffixLength(pending, TOOL_CALL_OPEN) : 0;
          const emit = pending.slice(0, pending.length - keep);
          if (emit !== '') sink.text(emit);
          pending = pending.slice(emit.length);
        }
      }

      if (outputTokens >= o.maxTokens) {
        finishReason = phase === 'after_call' ? 'tool_calls' : 'length';
        break;
      }
    }
  } finally {
    await iterator.return();
  }
  // Text held back as a possible tag start turned out to be plain text.
  if (phase === 'text' && pending !== '') sink.text(pending);
  return { finishReason, evaluatedInputTokens: toEvaluate.length, outputTokens };
}
