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
    /** What is asked about: a shell command (default), a file a tool would write, or the agent changing Hearth itself. */
    kind: z.enum(['command', 'file_write', 'self_modification']).optional(),
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
  /**
   * The learning loop changed (or staged a change to) what Hearth knows: "Skill 'deploy-docs' created",
   * "Memory updated". Emitted by the agent's own tools and by background reviews.
   */
  z.object({
    type: z.literal('learning'),
    action: z.enum(['skill_created', 'skill_updated', 'skill_deleted', 'skill_archived', 'memory_updated', 'user_model_updated', 'write_staged']),
    target: z.string(),
    message: z.string(),
  }),
  /** A background review started or ended (it never blocks the user; it can be cancelled). */
  z.object({ type: z.literal('review'), state: z.enum(['started', 'finished', 'failed', 'cancelled']), reason: z.string() }),
  /**
   * The context was compressed: the session continues as a child session. `kept` says how the middle
   * was handled: summarised, or kept whole because summarising failed (the user is warned, nothing dropped).
   */
  z.object({
    type: z.literal('compressed'),
    parentSessionId: z.string(),
    sessionId: z.string(),
    summarizedMessages: z.number(),
    prunedToolOutputs: z.number(),
    tokensBefore: z.number(),
    tokensAfter: z.number(),
  }),
  z.object({
    type: z.literal('turn_end'),
    final: z.string(),
    reason: z.enum(['stop', 'budget', 'aborted', 'error']),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
  }),
]);

export type AgentEvent = z.infer<typeof AgentEvent>;
export type AgentStatus = z.infer<typeof AgentStatus>;
