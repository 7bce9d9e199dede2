import { HearthError } from '../../errors.js';
import { countReferenceTokens } from '../../llm/token-count.js';
import type { ChatMessage, ToolSchema } from '../../llm/types.js';

/**
 * Prompt size before a model call, under the reference tokenizer (cl100k). It is an estimate of what
 * the provider will count (every model tokenizes differently), good enough to decide when to compress.
 *
 * It runs before every model call, so each message is tokenized once: messages are never mutated in
 * a history (a changed message is a new object), which makes object identity a safe cache key.
 */

/** Role markers and separators each chat message adds (ChatML: `<|im_start|>role\n … <|im_end|>\n`). */
export const PER_MESSAGE_OVERHEAD = 4;
/** A tool call's id, type and JSON framing around the name and arguments. */
const PER_TOOL_CALL_OVERHEAD = 8;

const messageCache = new WeakMap<ChatMessage, number>();
const schemaCache = new WeakMap<ToolSchema, number>();
const textCache = new Map<string, number>();
/** The system prompt is byte-stable within a session: remembering a few avoids re-tokenizing it per call. */
const TEXT_CACHE_LIMIT = 8;

/** Tokens one message costs in a prompt (reasoning is not sent back to providers, so it is not counted). */
export function messageTokens(message: ChatMessage): number {
  const cached = messageCache.get(message);
  if (cached !== undefined) return cached;
  let tokens = PER_MESSAGE_OVERHEAD + countReferenceTokens(message.content);
  if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? []) tokens += PER_TOOL_CALL_OVERHEAD + countReferenceTokens(call.name) + countReferenceTokens(call.arguments);
  }
  messageCache.set(message, tokens);
  return tokens;
}

export function historyTokens(history: readonly ChatMessage[]): number {
  let total = 0;
  for (const message of history) total += messageTokens(message);
  return total;
}

/** The whole prompt of one call: system prompt, conversation, and the tool schemas as JSON. */
export function estimateTokens(systemPrompt: string, history: readonly ChatMessage[], toolSchemas: readonly ToolSchema[] = []): number {
  let total = PER_MESSAGE_OVERHEAD + cachedTextTokens(systemPrompt) + historyTokens(history);
  for (const schema of toolSchemas) total += schemaTokens(schema);
  return total;
}

function schemaTokens(schema: ToolSchema): number {
  const cached = schemaCache.get(schema);
  if (cached !== undefined) return cached;
  const tokens = countReferenceTokens(JSON.stringify({ type: 'function', function: schema }));
  schemaCache.set(schema, tokens);
  return tokens;
}

function cachedTextTokens(text: string): number {
  const cached = textCache.get(text);
  if (cached !== undefined) return cached;
  const tokens = countReferenceTokens(text);
  if (textCache.size >= TEXT_CACHE_LIMIT) textCache.delete(textCache.keys().next().value as string);
  textCache.set(text, tokens);
  return tokens;
}

export interface CompressionTrigger {
  /** The prompt of the next call (estimateTokens, or the provider's count from the last usage event). */
  promptTokens: number;
  /** The model's context window in tokens. */
  contextLength: number;
  /** Fraction of the window at which to compress (config `compression.threshold`). */
  threshold: number;
}

/** The token count at which compression starts for this window (no 64K floor: small local contexts work). */
export function thresholdTokens(contextLength: number, threshold: number): number {
  if (!Number.isFinite(contextLength) || contextLength <= 0) {
    throw new HearthError('usage', `The model's context length must be a positive number of tokens, got ${contextLength}.`);
  }
  if (!Number.isFinite(threshold) || threshold <= 0 || threshold > 1) {
    throw new HearthError('config_invalid', `compression.threshold must be a number above 0 and at most 1, got ${threshold}.`, { details: { key: 'compression.threshold' } });
  }
  return Math.floor(contextLength * threshold);
}

export function needsCompression(trigger: CompressionTrigger): boolean {
  if (!Number.isFinite(trigger.promptTokens) || trigger.promptTokens < 0) {
    throw new HearthError('usage', `promptTokens must be a non-negative number, got ${trigger.promptTokens}.`);
  }
  return trigger.promptTokens >= thresholdTokens(trigger.contextLength, trigger.threshold);
}

/** However large the fixed part, leave this share of the window for the reply and the next tool result. */
const MAX_EFFECTIVE_THRESHOLD = 0.85;

/**
 * `compression.threshold` applied to the part of the window the conversation can use. The system prompt
 * and tool schemas are a fixed cost compression cannot shrink: on an 8K local model they take about a
 * third of the window, and a plain 50 % trigger would compress after a couple of exchanges, again and
 * again. So the trigger is fixed + threshold × (window − fixed), as a fraction of the window.
 */
export function conversationThreshold(threshold: number, fixedTokens: number, contextLength: number): number {
  const usable = Math.max(0, contextLength - fixedTokens);
  return Math.min(MAX_EFFECTIVE_THRESHOLD, Math.max(threshold, (fixedTokens + threshold * usable) / contextLength));
}
