import { z } from 'zod';

/**
 * The typed event stream of a running agent. Every surface (terminal, desktop renderer, gateway, API
 * server) renders these and nothing else, so no surface has agent logic of its own.
 */
export const AgentStatus = z.enum(['loading_model', 'thinking', 'running_tools', 'waiting_for_user', 'idle']);

export const AgentEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('session'), sessionId: z.string(), model: z.string() }),
  z.object({ type: z.literal('status'), state: AgentStatus, detail: z.string().optional() }),
  z.object({ type: z.literal('text_delta'), delta: z.string() }),
  z.object({ type: z.literal('reasoning_delta'), delta: z.string() }),
  z.object({ type: z.literal('tool_start'), callId: z.string(), name: z.string(), args: z.unknown() }),
  z.object({ type: z.literal('tool_progress'), callId: z.string(), text: z.string() }),
  z.object({
    type: z.literal('tool_end'),
    callId: z.string(),
    name: z.string(),
    content: z.string(),
    isError: z.boolean(),
    durationMs: z.number(),
  }),
  z.object({
    type: z.literal('approval_request'),
    id: z.string(),
    command: z.string(),
    reasons: z.array(z.string()),
    expiresAt: z.number(),
  }),
  z.object({ type: z.literal('approval_resolved'), id: z.string(), approved: z.boolean(), reason: z.string() }),
  z.object({ type: z.literal('clarify_request'), id: z.string(), question: z.string(), choices: z.array(z.string()) }),
  z.object({ type: z.literal('model_fallback'), from: z.string(), to: z.string(), reason: z.string() }),
  z.object({
    type: z.literal('usage'),
    inputTokens: z.number(),
    outputTokens: z.number(),
    evaluatedInputTokens: z.number().optional(),
  }),
  z.object({ type: z.literal('steer_applied'), text: z.string() }),
  z.object({ type: z.literal('notice'), level: z.enum(['info', 'warning', 'error']), message: z.string() }),
  z.object({
    type: z.literal('turn_end'),
    final: z.string(),
    reason: z.enum(['stop', 'budget', 'aborted', 'error']),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
  }),
]);

export type AgentEvent = z.infer<typeof AgentEvent>;
export type AgentStatus = z.infer<typeof AgentStatus>;
