import type { AgentEvent } from '../../shared/events.js';
import { errorMessage } from '../errors.js';
import type { LearnedContext } from '../agent/prompt.js';
import type { ChatMessage } from '../llm/types.js';
import type { SessionStore } from '../store/types.js';
import type { ToolRegistry } from '../tools/registry.js';
import { NudgeCounters, type NudgeThresholds } from './nudges.js';
import type { ReviewPurpose } from './review-prompts.js';
import { runReview, type ReviewResult, type SessionView } from './review.js';

export type { SessionView } from './review.js';

/**
 * What the learning loop reads and writes, as plain functions: the engine wires them to the memory
 * store, the skill library and the user model, so this class only decides *when* things happen.
 */
export interface LearningSources {
  /** Frozen at session start: skills catalog, memory snapshot, user profile. */
  learnedContext(): LearnedContext;
  /**
   * A short note of the skills most relevant to a request, appended to it; null when none stands out.
   * May be async: with an embedding model the ranking needs one embedding call for the request.
   */
  skillHint(requestText: string, signal?: AbortSignal): string | null | Promise<string | null>;
  /** One user-model reflection pass over messages not seen yet; resolves to how many facts changed. */
  reflect?(signal: AbortSignal): Promise<number>;
}

export interface LearningSettings {
  reviewEnabled: boolean;
  reviewIterations: number;
  nudges: NudgeThresholds;
  /** Reflection every this many user turns; null when the user model is off. */
  reflectEveryTurns: number | null;
  /** Also reflect when a session has been idle this long after a turn (ms); null: never. */
  idleReflectMs?: number | null;
}

/** A session quiet for five minutes has probably finished its task: a good moment to reflect. */
export const DEFAULT_IDLE_REFLECT_MS = 5 * 60_000;


type Listener = (sessionId: string, event: AgentEvent) => void;

interface Running {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * The closed learning loop's clock (PARITY §3, issue 3): counts iterations and turns per session, and
 * after a delivered (not interrupted) turn starts a background review when a nudge is due, or a
 * user-model reflection every N turns. Background work never blocks the user: it runs after the turn's
 * events have ended, reports through `listener`, and is cancelled by `cancel`/`close`. A flush review
 * (before compression or a reset) is the one kind a caller awaits.
 */
export class LearningLoop {
  private readonly counters = new Map<string, NudgeCounters>();
  private readonly turnsSinceReflection = new Map<string, number>();
  private readonly running = new Map<string, Running>();
  private readonly idleTimers = new Map<string, NodeJS.Timeout>();
  private listener: Listener = () => undefined;

  constructor(
    readonly sources: LearningSources,
    private readonly settings: LearningSettings,
    private readonly store: SessionStore,
    /**
     * The tools reviews get, whatever the session's toolset: a `lite` session leaves skill_manage out
     * of its own prompt, but its reviews still need it. Default: the session's registry.
     */
    private readonly reviewTools?: ToolRegistry,
  ) {}

  onEvent(listener: Listener): void {
    this.listener = listener;
  }

  /** Called once per delivered turn with the messages it added. Starts background work when due. */
  afterTurn(view: SessionView, turnMessages: readonly ChatMessage[], interrupted: boolean): void {
    const counters = this.countersFor(view.sessionId);
    counters.recordTurn(turnMessages);
    const turns = (this.turnsSinceReflection.get(view.sessionId) ?? 0) + 1;
    this.turnsSinceReflection.set(view.sessionId, turns);
    if (interrupted) return;
    this.armIdleReflection(view.sessionId);
    const due = this.settings.reviewEnabled ? counters.due(this.settings.nudges) : null;
    if (due !== null && !this.running.has(view.sessionId)) {
      counters.reset(due);
      this.start(view.sessionId, (signal) => this.review(view, due, signal).then(() => undefined));
      return;
    }
    if (this.settings.reflectEveryTurns !== null && this.sources.reflect !== undefined) {
      if (turns >= this.settings.reflectEveryTurns && !this.running.has(view.sessionId)) {
        this.turnsSinceReflection.set(view.sessionId, 0);
        this.start(view.sessionId, (signal) => this.reflect(view.sessionId, signal));
      }
    }
  }

  /** The turn that runs before compression or a reset: awaited, bounded, and never fatal to the caller. */
  async flush(view: SessionView, signal: AbortSignal): Promise<ReviewResult | null> {
    if (!this.settings.reviewEnabled) return null;
    await this.cancel(view.sessionId);
    return this.review(view, 'flush', signal);
  }

  /** True while background work runs for the session. */
  isBusy(sessionId: string): boolean {
    return this.running.has(sessionId);
  }

  /** Waits for the session's background work (tests and shutdown use it). */
  async idle(sessionId: string): Promise<void> {
    await this.running.get(sessionId)?.done;
  }

  async cancel(sessionId: string): Promise<void> {
    const running = this.running.get(sessionId);
    if (running === undefined) return;
    running.controller.abort(new Error('review cancelled'));
    await running.done;
  }

  async close(): Promise<void> {
    for (const timer of this.idleTimers.values()) clearTimeout(timer);
    this.idleTimers.clear();
    await Promise.all([...this.running.keys()].map((id) => this.cancel(id)));
  }

  /** (Re)starts the session's idle clock; when it runs out with new turns unreflected, reflect. */
  private armIdleReflection(sessionId: string): void {
    const delay = this.settings.idleReflectMs === undefined ? DEFAULT_IDLE_REFLECT_MS : this.settings.idleReflectMs;
    if (delay === null || this.settings.reflectEveryTurns === null || this.sources.reflect === undefined) return;
    clearTimeout(this.idleTimers.get(sessionId));
    const timer = setTimeout(() => {
      this.idleTimers.delete(sessionId);
      if ((this.turnsSinceReflection.get(sessionId) ?? 0) === 0 || this.running.has(sessionId)) return;
      this.turnsSinceReflection.set(sessionId, 0);
      this.start(sessionId, (signal) => this.reflect(sessionId, signal));
    }, delay);
    // An idle timer must never keep a finished `hearth run` alive.
    timer.unref();
    this.idleTimers.set(sessionId, timer);
  }

  private countersFor(sessionId: string): NudgeCounters {
    let counters = this.counters.get(sessionId);
    if (counters === undefined) {
      counters = new NudgeCounters();
      this.counters.set(sessionId, counters);
    }
    return counters;
  }

  private start(sessionId: string, work: (signal: AbortSignal) => Promise<void>): void {
    const controller = new AbortController();
    const done = work(controller.signal)
      .catch((err: unknown) => {
        // Cancelled on purpose (/new, shutdown, Ctrl+C): not a failure to report.
        if (controller.signal.aborted) return;
        // Background work reports its own failures as events; this is the last line so nothing is silent.
        this.listener(sessionId, { type: 'notice', level: 'warning', message: `Background learning failed: ${errorMessage(err)}` });
      })
      .finally(() => this.running.delete(sessionId));
    this.running.set(sessionId, { controller, done });
  }

  private async review(view: SessionView, purpose: ReviewPurpose, signal: AbortSignal): Promise<ReviewResult> {
    const emit = (event: AgentEvent) => this.listener(view.sessionId, event);
    emit({ type: 'review', state: 'started', reason: purpose });
    // The review's own messages are kept as a linked session: what the agent decided, and why, stays auditable.
    const audit = this.store.createSession({ source: 'subagent', model: view.model.id, parentSessionId: view.sessionId, title: `Background review (${purpose})` });
    try {
      const result = await runReview({
        purpose,
        model: view.model,
        systemPrompt: view.systemPrompt,
        history: view.history,
        tools: this.reviewTools ?? view.tools,
        approvals: view.approvals,
        workspace: view.workspace,
        sessionKey: audit.id,
        loadedSkills: loadedSkills(view.history),
        maxIterations: this.settings.reviewIterations,
        signal,
        emit,
        onMessage: (message) => this.store.appendMessage(audit.id, message),
      });
      const state = result.reason === 'aborted' ? 'cancelled' : result.reason === 'error' ? 'failed' : 'finished';
      const reason = result.error?.message ?? (result.updates.length === 0 ? 'nothing to save' : result.updates.map((u) => u.message).join('; '));
      emit({ type: 'review', state, reason });
      return result;
    } finally {
      this.store.endSession(audit.id);
    }
  }

  private async reflect(sessionId: string, signal: AbortSignal): Promise<void> {
    const changed = await this.sources.reflect?.(signal);
    if (changed !== undefined && changed > 0) {
      this.listener(sessionId, { type: 'learning', action: 'user_model_updated', target: 'user', message: `User model updated (${changed} fact${changed === 1 ? '' : 's'})` });
    }
  }
}

/** Skills the session loaded, from its skill_view calls (the review prefers patching these). */
export function loadedSkills(history: readonly ChatMessage[]): string[] {
  const names = new Set<string>();
  for (const message of history) {
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls ?? []) {
      if (call.name !== 'skill_view') continue;
      const name = skillName(call.arguments);
      if (name !== null) names.add(name);
    }
  }
  return [...names];
}

function skillName(argumentsJson: string): string | null {
  try {
    const parsed = JSON.parse(argumentsJson) as { name?: unknown };
    return typeof parsed.name === 'string' ? parsed.name : null;
  } catch (err) {
    // Invalid arguments were refused by the tool, so no skill was loaded by that call.
    void err;
    return null;
  }
}
