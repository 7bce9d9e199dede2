/**
 * Messages between the engine and the embedding host process (node-llama-cpp runs there, as for the
 * chat model, so a native abort on a bad GGUF kills only that process). Declared once as zod schemas:
 * each end parses what it receives, and an invalid message gets an `error` reply, never a crash.
 */
import { z } from 'zod';
import { hostErrorEventSchema } from './model-host-protocol.js';

/** At most this many texts per `embed` request: keeps one IPC message small and lets `abort` act between batches. */
export const MAX_EMBED_BATCH = 256;

// ---- engine → host ----

export const embedLoadRequestSchema = z.object({
  type: z.literal('load'),
  modelPath: z.string().min(1),
  /** Explicit thread count: node-llama-cpp's default oversubscribes small machines badly. */
  threads: z.number().int().positive(),
  /** 'auto' tries CUDA/Vulkan/Metal and falls back to CPU; false forces CPU. */
  gpu: z.union([z.literal('auto'), z.literal(false)]),
  /** Tokens the embedding context sees; longer texts are cut to fit (capped by the model's trained context). */
  contextSize: z.number().int().positive(),
});

export const embedRequestSchema = z.object({
  type: z.literal('embed'),
  requestId: z.string().min(1),
  texts: z.array(z.string()).min(1).max(MAX_EMBED_BATCH),
});

export const embedAbortRequestSchema = z.object({ type: z.literal('abort'), requestId: z.string().min(1) });
export const embedShutdownRequestSchema = z.object({ type: z.literal('shutdown') });

export const embedHostRequestSchema = z.discriminatedUnion('type', [
  embedLoadRequestSchema,
  embedRequestSchema,
  embedAbortRequestSchema,
  embedShutdownRequestSchema,
]);

// ---- host → engine ----

export const embedLoadedInfoSchema = z.object({
  /** Length of every vector this model produces. */
  dimensions: z.number().int().positive(),
  /** The context actually used (the requested size, capped by the model's trained context). */
  contextSize: z.number().int().positive(),
  /** The GPU backend used (`cuda`, `vulkan`, `metal`), or false for CPU. */
  gpu: z.union([z.string(), z.literal(false)]),
  threads: z.number().int().positive(),
});

export const embedHostErrorCodeSchema = z.enum(['invalid_message', 'not_loaded', 'aborted', 'embed_failed']);

export const embedHostEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('loaded'), info: embedLoadedInfoSchema }),
  z.object({ type: z.literal('load_error'), message: z.string() }),
  z.object({
    type: z.literal('embedded'),
    requestId: z.string(),
    /** Raw (not normalised) vectors, one per text, in request order; an empty text gets all zeros. */
    vectors: z.array(z.array(z.number())),
    /** How many of the texts were cut to fit the context. */
    truncated: z.number().int().nonnegative(),
  }),
  hostErrorEventSchema(embedHostErrorCodeSchema),
]);

export type EmbedHostRequest = z.infer<typeof embedHostRequestSchema>;
export type EmbedLoadRequest = z.infer<typeof embedLoadRequestSchema>;
export type EmbedRequest = z.infer<typeof embedRequestSchema>;
export type EmbedHostEvent = z.infer<typeof embedHostEventSchema>;
export type EmbedLoadedInfo = z.infer<typeof embedLoadedInfoSchema>;
export type EmbedHostErrorCode = z.infer<typeof embedHostErrorCodeSchema>;
