import { z } from 'zod';

/**
 * The typed event stream of a running agent. Every surface (terminal, desktop renderer, gateway, API
 * server) renders these and nothing else, so no surface has agent logic of its own.
 */
export const AgentStatus = z.enum(['loading_model', 'thinking', 'running_tools', 'waiting_for_user', 'idle']);

/**
 * How a tool call ended, kept with its stored result so a reopened session shows what happened: `denied` (the
 * user, the policy or a hardline rule refused it), `timed_out` (nobody answered its approval in time: denied),
 * `cancelled` (interrupted), `failed` (the tool reported an error), `done`. `note` says what decided an approval
 * that was asked or applied (once, session, always, deny, timeout, yolo, allowlisted, hardline, …).
 */
export const ToolOutcomeStatus = z.enum(['done', 'failed', 'denied', 'timed_out', 'cancelled']);
export const ToolOutcome = z.object({ status: ToolOutcomeStatus, note: z.string().optional() });

/** The agent asks the user to approve an action (a shell command, a file write, a change to Hearth itself). */
export const ApprovalRequestEvent = z.object({
  type: z.literal('approval_request'),
  id: z.string(),
  command: z.string(),
  reasons: z.array(z.string()),
  /** What is asked about: a shell command (default), a file a tool would write, or the agent changing Hearth itself. */
  kind: z.enum(['command', 'file_write', 'self_modification', 'message']).optional(),
  expiresAt: z.number(),
  /** The tool call that asked, so a surface can mark its card "waiting for you". */
  callId: z.string().optional(),
  /** A checkpoint cannot undo this (outside the workspace, remote, processes, services…): say so. */
  irreversible: z.boolean().optional(),
  /** The folder snapshotted before the action runs (a checkpoint /rollback restores); absent: none is taken. */
  checkpoint: z.string().optional(),
});

/** The agent asks the user a question (the clarify tool). */
export const ClarifyRequestEvent = z.object({ type: z.literal('clarify_request'), id: z.string(), question: z.string(), choices: z.array(z.string()) });

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
    /** Absent only from producers older than outcomes; surfaces then fall back to `isError`. */
    outcome: ToolOutcome.optional(),
  }),
  ApprovalRequestEvent,
  z.object({ type: z.literal('approval_resolved'), id: z.string(), approved: z.boolean(), reason: z.string() }),
  ClarifyRequestEvent,
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
   * "Removed from user profile: 'Prefers tabs'" (memory changes always name the entry). Emitted by the agent's own tools and by background reviews.
   */
  z.object({
    type: z.literal('learning'),
    action: z.enum(['skill_created', 'skill_updated', 'skill_deleted', 'skill_archived', 'memory_updated', 'user_model_updated', 'write_staged']),
    target: z.string(),
    message: z.string(),
    /** The agent removed or replaced a memory entry: `memory.undo` / `hearth memory undo <id>` puts it back. */
    undo: z.object({ memoryChange: z.number().int() }).optional(),
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
export type ToolOutcome = z.infer<typeof ToolOutcome>;
export type ApprovalRequestEvent = z.infer<typeof ApprovalRequestEvent>;
export type ClarifyRequestEvent = z.infer<typeof ClarifyRequestEvent>;
