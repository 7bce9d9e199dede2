/**
 * Messages between the engine and the model host process (node-llama-cpp runs there so a native
 * abort on a bad GGUF kills only the host). Declared once as zod schemas: the host parses every
 * incoming message and answers an invalid one with an `error` reply instead of crashing.
 */
import { z } from 'zod';

// ---- shared shapes (structurally identical to core/llm/types.ts, which src/shared may not import) ----

export const toolCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.string() });

export const chatMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), content: z.string(), toolCalls: z.array(toolCallSchema).optional(), reasoning: z.string().optional() }),
  z.object({ role: z.literal('tool'), content: z.string(), toolCallId: z.string(), toolName: z.string() }),
]);

export const toolSchemaSchema = z.object({
  name: z.string().min(1),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()),
});

export const usageSchema = z.object({
  /** Tokens of the whole rendered prompt. */
  inputTokens: z.number().int().nonnegative(),
  /** Prompt tokens actually evaluated this call (the rest came from the session's KV cache). */
  evaluatedInputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
});

export const finishReasonSchema = z.enum(['stop', 'tool_calls', 'length', 'aborted']);

// ---- engine → host ----

export const loadRequestSchema = z.object({
  type: z.literal('load'),
  modelPath: z.string().min(1),
  /** Explicit thread count: node-llama-cpp's default oversubscribes small machines badly. */
  threads: z.number().int().positive(),
  /** 'auto' tries CUDA/Vulkan/Metal and falls back to CPU; false forces CPU. */
  gpu: z.union([z.literal('auto'), z.literal(false)]),
  /** Tokens per session sequence. */
  contextSize: z.number().int().positive(),
  /** How many sessions keep a live KV cache at once; the least recently used is evicted beyond that. */
  maxSessions: z.number().int().positive().max(64).optional(),
});

export const generateRequestSchema = z.object({
  type: z.literal('generate'),
  requestId: z.string().min(1),
  sessionKey: z.string().min(1),
  messages: z.array(chatMessageSchema).min(1),
  tools: z.array(toolSchemaSchema),
  toolChoice: z.enum(['auto', 'required', 'none']),
  maxTokens: z.number().int().positive(),
  temperature: z.number().min(0).max(5),
  seed: z.number().int().nonnegative().optional(),
});

export const abortRequestSchema = z.object({ type: z.literal('abort'), requestId: z.string().min(1) });
export const releaseSessionRequestSchema = z.object({ type: z.literal('release_session'), sessionKey: z.string().min(1) });
export const shutdownRequestSchema = z.object({ type: z.literal('shutdown') });

export const hostRequestSchema = z.discriminatedUnion('type', [
  loadRequestSchema,
  generateRequestSchema,
  abortRequestSchema,
  releaseSessionRequestSchema,
  shutdownRequestSchema,
]);

// ---- host → engine ----

export const loadedInfoSchema = z.object({
  /** The GPU backend used (`cuda`, `vulkan`, `metal`), or false for CPU. */
  gpu: z.union([z.string(), z.literal(false)]),
  /** Set when GPU was requested but unavailable or failed, so the user can be told why it runs on CPU. */
  gpuFallbackReason: z.string().optional(),
  threads: z.number().int(),
  contextSize: z.number().int(),
  trainContextSize: z.number().int(),
  maxSessions: z.number().int(),
  params: z.number().optional(),
  /** What the GGUF says about the model's family, from which the engine picks the tool-call format it reads. */
  formatHints: z.object({ chatTemplate: z.string().optional(), architecture: z.string().optional(), name: z.string().optional() }).optional(),
});

/** The `error` event of a host protocol (chat model host, embedding host), with that host's error codes. */
export function hostErrorEventSchema<Codes extends z.ZodType<string>>(codes: Codes) {
  return z.object({
    type: z.literal('error'),
    /** Absent when the failing message had no usable requestId (e.g. it did not parse). */
    requestId: z.string().optional(),
    code: codes,
    message: z.string(),
  });
}

export const hostErrorCodeSchema = z.enum(['invalid_message', 'not_loaded', 'busy', 'context_overflow', 'generation_failed']);

export const hostEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('load_progress'), progress: z.number().min(0).max(1) }),
  z.object({ type: z.literal('loaded'), info: loadedInfoSchema }),
  z.object({ type: z.literal('load_error'), message: z.string() }),
  z.object({ type: z.literal('text'), requestId: z.string(), delta: z.string() }),
  z.object({ type: z.literal('tool_call'), requestId: z.string(), call: toolCallSchema }),
  z.object({ type: z.literal('usage'), requestId: z.string(), usage: usageSchema }),
  z.object({ type: z.literal('done'), requestId: z.string(), finishReason: finishReasonSchema }),
  hostErrorEventSchema(hostErrorCodeSchema),
]);

export type HostRequest = z.infer<typeof hostRequestSchema>;
export type LoadRequest = z.infer<typeof loadRequestSchema>;
export type GenerateRequest = z.infer<typeof generateRequestSchema>;
export type HostEvent = z.infer<typeof hostEventSchema>;
export type LoadedInfo = z.infer<typeof loadedInfoSchema>;
export type HostChatMessage = z.infer<typeof chatMessageSchema>;
export type HostToolSchema = z.infer<typeof toolSchemaSchema>;
export type HostUsage = z.infer<typeof usageSchema>;
export type HostErrorCode = z.infer<typeof hostErrorCodeSchema>;

/**
 * The transport both ends speak: `child_process.fork` IPC under the CLI, an Electron
 * `utilityProcess` port in the desktop app. Kept this small so either fits behind it.
 */
export interface MessageTransport<Out, In> {
  postMessage(message: Out): void;
  onMessage(listener: (message: In) => void): void;
}
