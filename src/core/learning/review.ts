import type { AgentEvent } from '../../shared/events.js';
import { HearthError } from '../errors.js';
import type { ChatMessage, ChatModel } from '../llm/types.js';
import type { ApprovalBroker } from '../safety/approvals/broker.js';
import { runTurn, type TurnResult } from '../agent/loop.js';
import type { ToolRegistry } from '../tools/registry.js';
import { reviewPrompt, type ReviewPurpose } from './review-prompts.js';

/** Tools a review may call: memory and skill management, and the read-only skill lookups they need. */
export const REVIEW_TOOLS = ['memory', 'skills_list', 'skills_search', 'skill_view', 'skill_manage'] as const;
export const DEFAULT_REVIEW_ITERATIONS = 16;

/** The session a review looks at, as the agent host hands it over. */
export interface SessionView {
  sessionId: string;
  model: ChatModel;
  /** The session's own system prompt, unchanged, so providers' prompt caches hit the same prefix. */
  systemPrompt: string;
  /** The conversation to review (copied; the review never changes the session's history). */
  history: readonly ChatMessage[];
  /** The session's registry; the review sees only REVIEW_TOOLS of it. */
  tools: ToolRegistry;
  approvals: ApprovalBroker;
  workspace: string;
}

export interface ReviewOptions extends Omit<SessionView, 'sessionId'> {
  purpose: ReviewPurpose;
  /** Model sequence key. Distinct from the session's own so a review never races the user's turn on one sequence. */
  sessionKey: string;
  loadedSkills: readonly string[];
  maxIterations?: number;
  signal: AbortSignal;
  /** Learning updates and notices the review's tools produce. */
  emit(event: AgentEvent): void;
  /** Each message of the review, for an audit trail. */
  onMessage?(message: ChatMessage): void;
}

export interface ReviewResult {
  reason: TurnResult['reason'];
  /** The review's last words ("Nothing to save." or what it did). */
  final: string;
  /** What it changed, as the user was told. */
  updates: Extract<AgentEvent, { type: 'learning' }>[];
  error?: TurnResult['error'];
}

/**
 * One background review: a forked agent turn over the session's conversation with a review prompt,
 * the memory and skill tools only, and its own small budget. It asks nobody anything (no user is
 * watching) and is cancelled through `signal`. What it changes reaches the user as `learning` events.
 */
export async function runReview(options: ReviewOptions): Promise<ReviewResult> {
  const tools = options.tools.subset(REVIEW_TOOLS);
  const names = tools.names();
  if (!names.includes('memory') && !names.includes('skill_manage')) {
    throw new HearthError('usage', 'A background review needs the memory or skill_manage tool, and its toolset has neither.');
  }
  const updates: ReviewResult['updates'] = [];
  const result = await runTurn({
    sessionId: options.sessionKey,
    workspace: options.workspace,
    systemPrompt: options.systemPrompt,
    history: options.history,
    userText: reviewPrompt(options.purpose, options.loadedSkills, names),
    model: options.model,
    tools,
    approvals: options.approvals,
    toolState: new Map(),
    signal: options.signal,
    maxIterations: options.maxIterations ?? DEFAULT_REVIEW_ITERATIONS,
    askUser: () => Promise.reject(new HearthError('usage', 'A background review cannot ask the user; decide from the conversation.')),
    emit: (event) => {
      if (event.type === 'learning') updates.push(event);
      // Only what the user must see leaves the review: its streaming text and statuses would read as a second reply.
      if (event.type === 'learning' || event.type === 'notice') options.emit(event);
    },
    onMessage: (message) => options.onMessage?.(message),
  });
  return { reason: result.reason, final: result.final, updates, ...(result.error === undefined ? {} : { error: result.error }) };
}
