import type { AgentEvent } from '../../shared/events.js';
import { HearthError } from '../errors.js';
import type { ChatMessage, ChatModel } from '../llm/types.js';
import type { ApprovalBroker } from '../safety/approvals/broker.js';
import { withoutHearthText } from '../store/provenance.js';
import type { ClarifyRequest } from '../tools/define.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { LearningRunOutcome, RefusedWrite } from './journal.js';
import { reviewPrompt, type ReviewPurpose } from './review-prompts.js';

/** Tools a review may call: memory and skill management, and the read-only skill lookups they need. */
export const REVIEW_TOOLS = ['memory', 'skills_list', 'skills_search', 'skill_view', 'skill_manage'] as const;
export const DEFAULT_REVIEW_ITERATIONS = 16;
/** The review tools that write; a refused or failed call of one of these is a write that did not land. */
const WRITE_TOOLS: ReadonlySet<string> = new Set(['memory', 'skill_manage']);
/** A refusal reason is the tool's error text; this much of it is plenty to say why. */
const REASON_CHARS = 300;

/**
 * One agent turn as a review runs it: the part of the agent loop's options a forked turn fills in. Learning sits
 * below the agent (decision 0016), so it names what it needs here and the agent hands over its loop (`runTurn`
 * fits this shape; the compiler checks it where the host builds a SessionView).
 */
export interface ForkedTurn {
  sessionId: string;
  workspace: string;
  systemPrompt: string;
  history: readonly ChatMessage[];
  userText: string;
  model: ChatModel;
  tools: ToolRegistry;
  approvals: ApprovalBroker;
  toolState: Map<string, unknown>;
  signal: AbortSignal;
  maxIterations?: number;
  askUser(request: ClarifyRequest, signal: AbortSignal): Promise<string>;
  emit(event: AgentEvent): void;
  onMessage(message: ChatMessage): void;
}

export interface ForkedTurnResult {
  reason: 'stop' | 'budget' | 'aborted' | 'error';
  /** The turn's last assistant text. */
  final: string;
  error?: { code: string; message: string };
}

/** The port learning needs from the agent: run one turn. */
export type TurnRunner = (turn: ForkedTurn) => Promise<ForkedTurnResult>;

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
  /** The agent's turn loop, which a review runs as a forked turn. */
  runTurn: TurnRunner;
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
  reason: ForkedTurnResult['reason'];
  /** The review's last words ("Nothing to save." or what it did). */
  final: string;
  /** What it changed, as the user was told. */
  updates: Extract<AgentEvent, { type: 'learning' }>[];
  /** Write calls that came back refused, denied or failed (from the tool outcome, not the model's words). */
  refused: RefusedWrite[];
  error?: ForkedTurnResult['error'];
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
  const refused: RefusedWrite[] = [];
  const result = await options.runTurn({
    sessionId: options.sessionKey,
    workspace: options.workspace,
    systemPrompt: options.systemPrompt,
    // Hearth's own user-role text (a compression summary, the step-budget request) is not the user's words:
    // a memory saved from a summary's paraphrase would be one the user never stated (issue 11).
    history: withoutHearthText(options.history),
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
      const refusal = event.type === 'tool_end' ? refusedWrite(event) : null;
      if (refusal !== null) refused.push(refusal);
      // Only what the user must see leaves the review: its streaming text and statuses would read as a second reply.
      if (event.type === 'learning' || event.type === 'notice') options.emit(event);
    },
    onMessage: (message) => options.onMessage?.(message),
  });
  return { reason: result.reason, final: result.final, updates, refused, ...(result.error === undefined ? {} : { error: result.error }) };
}

/** A write tool call that did not land: its outcome is anything but done (older producers: isError). */
function refusedWrite(event: Extract<AgentEvent, { type: 'tool_end' }>): RefusedWrite | null {
  if (!WRITE_TOOLS.has(event.name)) return null;
  const status = event.outcome?.status ?? (event.isError ? 'failed' : 'done');
  if (status === 'done') return null;
  const text = event.content.trim().replace(/\s+/g, ' ');
  const reason = text === '' ? (event.outcome?.note ?? status) : text.length > REASON_CHARS ? `${text.slice(0, REASON_CHARS - 1)}…` : text;
  return { tool: event.name, reason };
}

/**
 * How a review ended, for the journal and the user: success only when a write landed. A review whose every
 * write was refused is `refused` whatever its last words claim ("Saved." after a refused skill_manage).
 */
export function reviewOutcome(result: ReviewResult): { outcome: LearningRunOutcome; reason: string } {
  const refusals = result.refused.map((r) => `${r.tool} refused: ${r.reason}`).join('; ');
  if (result.reason === 'aborted') return { outcome: 'cancelled', reason: result.error?.message ?? 'review cancelled' };
  if (result.reason === 'error') return { outcome: 'failed', reason: result.error?.message ?? 'the review failed' };
  if (result.updates.length > 0) {
    const saved = result.updates.map((u) => u.message).join('; ');
    return { outcome: 'saved', reason: refusals === '' ? saved : `${saved}; ${refusals}` };
  }
  if (result.refused.length > 0) return { outcome: 'refused', reason: `review could not save: ${refusals}` };
  return { outcome: 'nothing', reason: 'nothing to save' };
}
