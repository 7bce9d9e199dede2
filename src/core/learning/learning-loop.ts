import type { AgentEvent } from '../../shared/events.js';
import { errorMessage } from '../errors.js';
import type { ChatMessage } from '../llm/types.js';
import type { SessionStore } from '../store/types.js';
import type { ToolRegistry } from '../tools/registry.js';
import { conversationRoot, type ConversationCounterStore } from './conversation-counters.js';
import type { LearningJournal, LearningRunKind } from './journal.js';
import { NudgeCounters, type NudgeThresholds } from './nudges.js';
import type { ReviewPurpose } from './review-prompts.js';
import { reviewOutcome, runReview, type ReviewResult, type SessionView } from './review.js';

export type { SessionView, TurnRunner } from './review.js';

/** What the agent's system prompt gets from learning; frozen at session start so the prompt stays byte-stable. */
export interface LearnedContext {
  /** `<available_skills>` block ('' when there are none: no empty block). */
  skillsCatalog?: string;
  /** Memory snapshot with its usage header. */
  memory?: string;
  /** User profile: USER entries and active user-model facts. */
  user?: string;
}

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
  /** One user-model reflection pass over messages not seen yet; resolves to what it changed. */
  reflect?(signal: AbortSignal): Promise<ReflectionCounts>;
}

/** What one reflection pass did to the user model (the journal keeps these counts). */
export interface ReflectionCounts {
  added: number;
  reinforced: number;
  superseded: number;
  /** Proposals not stored (no evidence, unsafe, malformed). */
  rejected: number;
}

/** Where the loop keeps what must outlive the process: the journal of runs and the conversation counters. */
export interface LearningDurables {
  journal?: LearningJournal;
  counters?: ConversationCounterStore;
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

/** One conversation's learning clock; `sessionId` is the session it continues in now (events name it). */
interface Conversation {
  sessionId: string;
  nudges: NudgeCounters;
  turnsSinceReflection: number;
}

const REVIEW_KIND: Record<ReviewPurpose, LearningRunKind> = { memory: 'memory_review', skill: 'skill_review', combined: 'combined_review', flush: 'flush' };

/**
 * The closed learning loop's clock (PARITY §3, issue 3): counts iterations and turns per conversation, and
 * after a delivered (not interrupted) turn starts a background review when a nudge is due, or a
 * user-model reflection every N turns. Background work never blocks the user: it runs after the turn's
 * events have ended, reports through `listener`, and is cancelled by `cancel`/`close`. A flush review
 * (before compression or a reset) is the one kind a caller awaits.
 *
 * A conversation is the root of its session's parent chain, so compression (which continues in a child
 * session) keeps the counts, and with `durables.counters` so does a restart. Every run is written to
 * `durables.journal` with its outcome, whether or not a surface listens (issue 11).
 */
export class LearningLoop {
  private readonly conversations = new Map<string, Conversation>();
  /** Session id → conversation id, so the parent chain is walked once per session. */
  private readonly roots = new Map<string, string>();
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
    private readonly durables: LearningDurables = {},
  ) {}

  onEvent(listener: Listener): void {
    this.listener = listener;
  }

  /** Called once per delivered turn with the messages it added. Starts background work when due. */
  afterTurn(view: SessionView, turnMessages: readonly ChatMessage[], interrupted: boolean): void {
    const key = this.conversationOf(view.sessionId);
    const conversation = this.conversationFor(key, view.sessionId);
    conversation.nudges.recordTurn(turnMessages);
    conversation.turnsSinceReflection += 1;
    try {
      if (interrupted) return;
      this.armIdleReflection(key);
      const due = this.settings.reviewEnabled ? conversation.nudges.due(this.settings.nudges) : null;
      if (due !== null && !this.running.has(key)) {
        conversation.nudges.reset(due);
        this.start(key, view.sessionId, (signal) => this.review(view, due, signal).then(() => undefined));
        return;
      }
      if (this.settings.reflectEveryTurns !== null && this.sources.reflect !== undefined) {
        if (conversation.turnsSinceReflection >= this.settings.reflectEveryTurns && !this.running.has(key)) {
          conversation.turnsSinceReflection = 0;
          this.start(key, view.sessionId, (signal) => this.reflect(view.sessionId, signal));
        }
      }
    } finally {
      this.persist(key, conversation);
    }
  }

  /** The turn that runs before compression or a reset: awaited, bounded, and never fatal to the caller. */
  async flush(view: SessionView, signal: AbortSignal): Promise<ReviewResult | null> {
    if (!this.settings.reviewEnabled) return null;
    await this.cancel(view.sessionId);
    return this.review(view, 'flush', signal);
  }

  /** True while background work runs for the session's conversation. */
  isBusy(sessionId: string): boolean {
    return this.running.has(this.conversationOf(sessionId));
  }

  /** Waits for the conversation's background work (tests and shutdown use it). */
  async idle(sessionId: string): Promise<void> {
    await this.running.get(this.conversationOf(sessionId))?.done;
  }

  async cancel(sessionId: string): Promise<void> {
    await this.cancelConversation(this.conversationOf(sessionId));
  }

  async close(): Promise<void> {
    for (const timer of this.idleTimers.values()) clearTimeout(timer);
    this.idleTimers.clear();
    await Promise.all([...this.running.keys()].map((key) => this.cancelConversation(key)));
  }

  /** The conversation's counts as they stand (for tests and diagnostics). */
  counts(sessionId: string): { itersSinceSkill: number; turnsSinceMemory: number; turnsSinceReflection: number } | null {
    const conversation = this.conversations.get(this.conversationOf(sessionId));
    return conversation === undefined ? null : { ...conversation.nudges.snapshot(), turnsSinceReflection: conversation.turnsSinceReflection };
  }

  private async cancelConversation(key: string): Promise<void> {
    const running = this.running.get(key);
    if (running === undefined) return;
    running.controller.abort(new Error('review cancelled'));
    await running.done;
  }

  /** (Re)starts the conversation's idle clock; when it runs out with new turns unreflected, reflect. */
  private armIdleReflection(key: string): void {
    const delay = this.settings.idleReflectMs === undefined ? DEFAULT_IDLE_REFLECT_MS : this.settings.idleReflectMs;
    if (delay === null || this.settings.reflectEveryTurns === null || this.sources.reflect === undefined) return;
    clearTimeout(this.idleTimers.get(key));
    const timer = setTimeout(() => {
      this.idleTimers.delete(key);
      const conversation = this.conversations.get(key);
      if (conversation === undefined || conversation.turnsSinceReflection === 0 || this.running.has(key)) return;
      conversation.turnsSinceReflection = 0;
      this.persist(key, conversation);
      this.start(key, conversation.sessionId, (signal) => this.reflect(conversation.sessionId, signal));
    }, delay);
    // An idle timer must never keep a finished `hearth run` alive.
    timer.unref();
    this.idleTimers.set(key, timer);
  }

  private conversationOf(sessionId: string): string {
    let key = this.roots.get(sessionId);
    if (key === undefined) {
      key = conversationRoot(this.store, sessionId);
      this.roots.set(sessionId, key);
    }
    return key;
  }

  private conversationFor(key: string, sessionId: string): Conversation {
    let conversation = this.conversations.get(key);
    if (conversation === undefined) {
      const saved = this.durables.counters?.load(key) ?? null;
      conversation = {
        sessionId,
        nudges: new NudgeCounters(saved ?? undefined),
        turnsSinceReflection: saved?.turnsSinceReflection ?? 0,
      };
      this.conversations.set(key, conversation);
    }
    conversation.sessionId = sessionId;
    return conversation;
  }

  private persist(key: string, conversation: Conversation): void {
    try {
      this.durables.counters?.save(key, { ...conversation.nudges.snapshot(), turnsSinceReflection: conversation.turnsSinceReflection });
    } catch (err) {
      // The in-memory clock still runs; only a restart would lose the counts. Say so rather than fail the turn.
      this.listener(conversation.sessionId, { type: 'notice', level: 'warning', message: `Could not save the learning counters: ${errorMessage(err)}` });
    }
  }

  private start(key: string, sessionId: string, work: (signal: AbortSignal) => Promise<void>): void {
    const controller = new AbortController();
    const done = work(controller.signal)
      .catch((err: unknown) => {
        // Cancelled on purpose (/new, shutdown, Ctrl+C): not a failure to report.
        if (controller.signal.aborted) return;
        // Background work reports its own failures as events; this is the last line so nothing is silent.
        this.listener(sessionId, { type: 'notice', level: 'warning', message: `Background learning failed: ${errorMessage(err)}` });
      })
      .finally(() => this.running.delete(key));
    this.running.set(key, { controller, done });
  }

  /** Journals a run: started now, finished by the returned function. A journal that cannot write warns once per run. */
  private journalStart(kind: LearningRunKind, sessionId: string): (finish: Parameters<LearningJournal['finish']>[1]) => void {
    const journal = this.durables.journal;
    if (journal === undefined) return () => undefined;
    const warn = (err: unknown) =>
      this.listener(sessionId, { type: 'notice', level: 'warning', message: `The learning journal could not record a ${kind.replace('_', ' ')}: ${errorMessage(err)}` });
    let id: number | null = null;
    try {
      id = journal.start(kind, sessionId);
    } catch (err) {
      warn(err);
    }
    return (finish) => {
      if (id === null) return;
      try {
        journal.finish(id, finish);
      } catch (err) {
        warn(err);
      }
    };
  }

  private async review(view: SessionView, purpose: ReviewPurpose, signal: AbortSignal): Promise<ReviewResult> {
    const emit = (event: AgentEvent) => this.listener(view.sessionId, event);
    const finish = this.journalStart(REVIEW_KIND[purpose], view.sessionId);
    emit({ type: 'review', state: 'started', reason: purpose });
    let audit: { id: string } | null = null;
    try {
      // The review's own messages are kept as a linked session: what the agent decided, and why, stays auditable.
      const auditSession = this.store.createSession({ source: 'subagent', model: view.model.id, parentSessionId: view.sessionId, title: `Background review (${purpose})` });
      audit = auditSession;
      const result = await runReview({
        purpose,
        model: view.model,
        systemPrompt: view.systemPrompt,
        history: view.history,
        tools: this.reviewTools ?? view.tools,
        approvals: view.approvals,
        workspace: view.workspace,
        runTurn: view.runTurn,
        sessionKey: auditSession.id,
        loadedSkills: loadedSkills(view.history),
        maxIterations: this.settings.reviewIterations,
        signal,
        emit,
        onMessage: (message) => this.store.appendMessage(auditSession.id, message),
      });
      const { outcome, reason } = reviewOutcome(result);
      finish({
        outcome,
        saved: result.updates.map((u) => u.message),
        refused: result.refused,
        error: outcome === 'failed' || outcome === 'cancelled' ? reason : null,
      });
      const state = outcome === 'cancelled' ? 'cancelled' : outcome === 'failed' || outcome === 'refused' ? 'failed' : 'finished';
      emit({ type: 'review', state, reason });
      return result;
    } catch (err) {
      finish({ outcome: signal.aborted ? 'cancelled' : 'failed', error: errorMessage(err) });
      throw err;
    } finally {
      if (audit !== null) {
        this.store.endSession(audit.id);
        // The review's conversation is over: its KV cache (local model) is of no use to anything.
        view.model.releaseSession?.(audit.id);
      }
    }
  }

  private async reflect(sessionId: string, signal: AbortSignal): Promise<void> {
    const reflect = this.sources.reflect;
    if (reflect === undefined) return;
    const finish = this.journalStart('reflection', sessionId);
    let counts: ReflectionCounts;
    try {
      counts = await reflect(signal);
    } catch (err) {
      finish({ outcome: signal.aborted ? 'cancelled' : 'failed', error: errorMessage(err) });
      throw err;
    }
    const changed = counts.added + counts.reinforced + counts.superseded;
    const message = `User model updated (${changed} fact${changed === 1 ? '' : 's'})`;
    finish({ outcome: changed > 0 ? 'saved' : 'nothing', saved: changed > 0 ? [message] : [], detail: { added: counts.added, reinforced: counts.reinforced, superseded: counts.superseded, rejected: counts.rejected } });
    if (changed > 0) this.listener(sessionId, { type: 'learning', action: 'user_model_updated', target: 'user', message });
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
