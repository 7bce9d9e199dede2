import type { HearthConfig } from '../config/schema.js';

/** The two curated stores: the agent's own notes, and what it knows about the user. */
export type MemoryTarget = 'memory' | 'user';
export const MEMORY_TARGETS: readonly MemoryTarget[] = ['memory', 'user'];

/** Character budgets per target (Unicode code points, the same count the usage header shows). */
export interface MemoryLimits {
  memory: number;
  user: number;
}

/** Hermes Agent's defaults: about 800 and 500 tokens, sized for an 8k-token context. */
export const DEFAULT_MEMORY_LIMITS: Readonly<MemoryLimits> = { memory: 2200, user: 1375 };

/** The context window the configured limits are sized for. */
export const BASE_CONTEXT_TOKENS = 8192;
/** Scaling stops here: 4× the configured limits, reached at a 128k-token context. */
export const MAX_SCALE = 4;

/**
 * The limits for a session, given the model's context window.
 *
 * With `scale_with_context` and a window above 8k tokens, both limits grow with the square root of the
 * window: `limit = floor(configured × min(√(contextLength / 8192), 4))`. 32k → 2×, 128k and up → 4×
 * (2,200 → 8,800 chars, about 2% of a 128k window; Hermes Agent's fixed 2,200 is 0.6% and fills in days).
 * Square root rather than proportional, because memory competes with the conversation for the window:
 * a big window gets a bigger memory but a smaller share of the window. Never below the configured limits,
 * so entries that fitted on a small model still fit on a large one.
 */
export function memoryBudget(config: HearthConfig['memory'], contextLength?: number): MemoryLimits {
  const base: MemoryLimits = { memory: config.memory_char_limit, user: config.user_char_limit };
  if (!config.scale_with_context || contextLength === undefined || contextLength <= BASE_CONTEXT_TOKENS) return base;
  const scale = Math.min(Math.sqrt(contextLength / BASE_CONTEXT_TOKENS), MAX_SCALE);
  return { memory: Math.floor(base.memory * scale), user: Math.floor(base.user * scale) };
}
