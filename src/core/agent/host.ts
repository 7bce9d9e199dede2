import type { AgentEvent } from '../../shared/events.js';
import { HearthError, errorMessage } from '../errors.js';
import type { ChatMessage, ChatModel, Usage } from '../llm/types.js';
import type { ApprovalDecision, SessionOrigin } from '../safety/approvals/broker.js';
import type { ApprovalPolicyBroker } from '../safety/approvals/policy.js';
import type { Redactor } from '../safety/secrets/redact.js';
import type { SessionRecord, SessionSource, SessionStore, StoredMessage } from '../store/types.js';
import { createCheckpointHook, type CheckpointManager } from '../checkpoints/manager.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { LearningLoop, SessionView } from '../learning/learning-loop.js';
import { EventChannel } from './event-channel.js';
import { fillMissingToolResults } from './history-repair.js';
import { runTurn, userUpdateEvent } from './loop.js';
import type { CompressionConfig } from './compression/index.js';
import { assembleSystemPrompt } from './prompt.js';
import { SessionCompactor, type CompactionOutcome } from './session-compaction.js';
import { SteerQueue } from './steer-queue.js';
import { undoForecast } from './checkpoint-forecast.js';
import { UserQuestions, type PendingQuestions } from './user-questions.js';

export interface AgentHostOptions {
  store: SessionStore;
  model: ChatModel;
  tools: ToolRegistry;
  approvals: ApprovalPolicyBroker;
  /** HEARTH_HOME (SOUL.md lives here). */
  home: string;
  /** Where relative paths resolve and commands start. */
  workspace: string;
  maxIterations?: number;
  /** Longest tool result handed to the model, in characters. */
  resultLimit?: number;
  /** Memory, skills and user model: prompt context, per-request skill hints, background reviews. */
  learning?: LearningLoop;
  /** Context compression settings; without them (or without a known context length) nothing is compressed. */
  compression?: CompressionConfig;
  /** Snapshots the project before tools change files (checkpoints); absent when they are off. */
  checkpoints?: CheckpointManager;
  /** Secret redaction of tool results and live tool output. */
  redactor?: Redactor;
  /**
   * Commands run on this machine's workspace (the local backend), so the terminal's checkpoint before a
   * destructive command covers what it changes; the approval dialog promises /rollback only then. Default false.
   */
  commandsShareWorkspace?: boolean;
}

/** Subagents and scheduled jobs have nobody at a surface who started them: the approval policy is stricter. */
function originOf(source: SessionSource): SessionOrigin {
  return source === 'subagent' ? 'subagent' : source === 'cron' ? 'cron' : 'user';
}

/** Events that happen outside a turn (background reviews, user-model updates), with their session. */
export type BackgroundListener = (sessionId: string, event: AgentEvent) => void;

interface RunningTurn {
  controller: AbortController;
  steer: SteerQueue;
  channel: EventChannel<AgentEvent>;
  done: Promise<void>;
}

interface LiveSession {
  record: SessionRecord;
  /** Built once; byte-identical on every call of the session. */
  systemPrompt: string;
  /** The tools offered when the session started: a toggle in settings applies to new sessions, so a session's prompt and tool schemas stay byte-stable. */
  tools: ToolRegistry;
  /** What the user must hear about the prompt (a context file quarantined or stripped), said on the next turn. */
  notices: string[];
  history: ChatMessage[];
  toolState: Map<string, unknown>;
  turn: RunningTurn | null;
}

/** A flush review on reset is worth its model call only once there was a real exchange (two turns). */
const MIN_MESSAGES_TO_FLUSH = 4;

/** Longest auto-title taken from the first message. */
const TITLE_CHARS = 60;

/**
 * The one object every surface talks to. It owns live sessions (history, tool state, the cached
 * system prompt), runs turns, persists each message the moment it exists, and turns the approval
 * broker's and the clarify tool's questions into events plus answer methods, so a terminal, the
 * desktop app and a chat gateway all drive the agent the same way.
 *
 * `send` returns the turn's events as an async iterable that ends after `turn_end`. Leaving the
 * `for await` early interrupts the turn. The injected store and model are not closed by `close()`:
 * whoever created them owns them.
 */
export class AgentHost {
  private readonly sessions = new Map<string, LiveSession>();
  private readonly questions: UserQuestions;
  private readonly backgroundListeners = new Set<BackgroundListener>();
  private readonly compactor: SessionCompactor | null;
  private closed = false;
  private tools: ToolRegistry;

  constructor(private readonly options: AgentHostOptions) {
    this.tools = options.tools;
    const forecast = { workspace: options.workspace, checkpoints: options.checkpoints !== undefined, commandsShareWorkspace: options.commandsShareWorkspace === true };
    this.questions = new UserQuestions(
      (sessionId) => this.sessions.get(sessionId)?.turn?.channel ?? null,
      (request) => undoForecast(request, forecast),
    );
    options.approvals.setPromptHandler((request, signal) => this.questions.askApproval(request, signal));
    this.compactor =
      options.compression === undefined
        ? null
        : new SessionCompactor({
            store: options.store,
            model: options.model,
            tools: options.tools,
            config: options.compression,
            workspace: options.workspace,
            approvals: options.approvals,
            ...(options.learning === undefined ? {} : { learning: options.learning }),
          });
    options.learning?.onEvent((sessionId, event) => {
      for (const listener of this.backgroundListeners) listener(sessionId, event);
    });
  }

  /** Subscribe to background events (reviews, learning updates). Returns the unsubscribe function. */
  onBackgroundEvent(listener: BackgroundListener): () => void {
    this.backgroundListeners.add(listener);
    return () => this.backgroundListeners.delete(listener);
  }

  /** Resolves when the session's background learning (review, reflection) has finished. */
  async learningIdle(sessionId: string): Promise<void> {
    // After compression the work is keyed by the child session the conversation continued in.
    await this.options.learning?.idle(this.sessions.get(sessionId)?.record.id ?? sessionId);
  }

  startSession(input: { source: SessionSource; title?: string }): string {
    this.assertOpen();
    const record = this.options.store.createSession({ source: input.source, model: this.options.model.id, ...(input.title === undefined ? {} : { title: input.title }) });
    this.sessions.set(record.id, this.live(record, []));
    return record.id;
  }

  /** Loads a stored session so the next `send` continues it. */
  resumeSession(sessionId: string): SessionRecord {
    this.assertOpen();
    const existing = this.sessions.get(sessionId);
    if (existing !== undefined) return existing.record;
    const record = this.options.store.getSession(sessionId);
    if (record === null) throw new HearthError('session_not_found', `No session with id ${sessionId}. \`hearth sessions list\` shows the ones that exist.`);
    // In memory only: the store keeps what really happened, gaps included.
    const { history } = fillMissingToolResults(this.options.store.getMessages(sessionId).flatMap(toChatMessage));
    this.sessions.set(sessionId, this.live(record, history));
    return record;
  }

  /** The conversation of a live session as the model sees it (without the system prompt). */
  history(sessionId: string): readonly ChatMessage[] {
    return this.session(sessionId).history;
  }

  systemPrompt(sessionId: string): string {
    return this.session(sessionId).systemPrompt;
  }

  isRunning(sessionId: string): boolean {
    return this.sessions.get(sessionId)?.turn != null;
  }

  send(sessionId: string, text: string): AsyncIterable<AgentEvent> {
    this.assertOpen();
    const live = this.sessions.get(sessionId) ?? (this.resumeSession(sessionId), this.session(sessionId));
    if (live.turn !== null) throw new HearthError('usage', 'A turn is already running in this session: steer it, interrupt it, or wait for it to end.');
    if (text.trim() === '') throw new HearthError('usage', 'The message is empty.');

    const controller = new AbortController();
    const channel = new EventChannel<AgentEvent>(() => controller.abort(new Error('the surface stopped listening')));
    const steer = new SteerQueue();
    const { store, model } = this.options;
    channel.push({ type: 'session', sessionId, model: model.id });
    for (const message of live.notices.splice(0)) channel.push({ type: 'notice', level: 'warning', message });
    if (live.record.title === null) {
      const title = text.trim().replace(/\s+/g, ' ').slice(0, TITLE_CHARS);
      store.setTitle(sessionId, title);
      live.record = { ...live.record, title };
    }

    // Relevant skills ride on the request, not the system prompt, so the cached prefix stays byte-identical.
    // A failed ranking costs the hint, never the turn: the user is told and the request goes as typed.
    const hinted = Promise.resolve()
      .then(() => this.options.learning?.sources.skillHint(text, controller.signal) ?? null)
      .catch((err: unknown) => {
        if (!controller.signal.aborted) channel.push({ type: 'notice', level: 'warning', message: `Skill suggestions are unavailable for this message: ${errorMessage(err)}` });
        return null;
      });
    // At most one snapshot per project per turn: the state before the turn is what a rollback wants.
    const checkpoints = this.options.checkpoints;
    checkpoints?.beginTurn(sessionId);
    // turn_end is held until the session has let go of the turn (below), so a surface that sends the next
    // message the moment it sees turn_end is accepted instead of told a turn is running.
    let ending: AgentEvent | null = null;
    const emit = (event: AgentEvent): void => {
      if (event.type === 'turn_end') ending = event;
      else channel.push(event);
    };
    const done = hinted.then((hint) => runTurn({
      sessionId,
      workspace: this.options.workspace,
      systemPrompt: live.systemPrompt,
      history: live.history,
      userText: hint === null ? text : `${text}\n\n${hint}`,
      model,
      tools: live.tools,
      approvals: this.options.approvals,
      origin: originOf(live.record.source),
      ...(checkpoints === undefined ? {} : { checkpoint: createCheckpointHook(checkpoints, { sessionId, workspace: this.options.workspace, notify: (update) => channel.push(userUpdateEvent(update)) }) }),
      ...(this.options.redactor === undefined ? {} : { redactor: this.options.redactor }),
      toolState: live.toolState,
      signal: controller.signal,
      steer,
      ...(this.options.maxIterations === undefined ? {} : { maxIterations: this.options.maxIterations }),
      ...(this.options.resultLimit === undefined ? {} : { resultLimit: this.options.resultLimit }),
      askUser: (request, signal) => this.questions.askClarify(sessionId, request, signal),
      emit,
      onMessage: (message, usage, outcome) => {
        // Written before the loop moves on: a crash loses at most the response being streamed.
        // live.record changes when compression continues the conversation in a child session.
        store.appendMessage(live.record.id, { ...message, ...tokenCounts(message, usage), ...(outcome === undefined ? {} : { outcome }) });
        live.history.push(message);
      },
      onUsage: (usage) => store.addUsage(live.record.id, usage),
      ...(this.compactor === null
        ? {}
        : {
            compact: (conversation, signal) => this.compact(live, conversation, signal, (event) => channel.push(event)),
            recoverOverflow: (conversation, round, signal) => this.recoverOverflow(live, conversation, round, signal, (event) => channel.push(event)),
          }),
    }))
      .then(
        (result) => {
          // A failed run is marked on its session (the list shows it, and can clear runs that only failed).
          store.setLastError(live.record.id, result.reason === 'error' ? (result.error?.message ?? 'the turn failed') : null);
          this.options.learning?.afterTurn(this.view(live), result.messages, result.reason !== 'stop');
        },
        (err: unknown) => {
          // runTurn reports its own failures as turn_end; reaching here means emitting itself failed.
          store.setLastError(live.record.id, errorMessage(err));
          ending = { type: 'turn_end', reason: 'error', final: '', error: { code: 'internal', message: errorMessage(err) } };
        },
      )
      .finally(() => {
        live.turn = null;
        if (ending !== null) channel.push(ending);
        channel.end();
      });
    live.turn = { controller, steer, channel, done };
    return channel;
  }

  /**
   * Compresses the session's context now (`/compress [focus]`), between turns. Returns false when
   * compression is off, the model's window is unknown, or the summary failed (a warning says why).
   */
  async compress(sessionId: string, options: { focus?: string } = {}): Promise<{ compressed: boolean; events: AgentEvent[] }> {
    const live = this.session(sessionId);
    if (live.turn !== null) throw new HearthError('usage', 'A turn is running: compress after it ends.');
    const events: AgentEvent[] = [];
    await this.compact(live, live.history, new AbortController().signal, (event) => events.push(event), { force: true, ...options });
    return { compressed: events.some((e) => e.type === 'compressed'), events };
  }

  private async compact(
    live: LiveSession,
    conversation: readonly ChatMessage[],
    signal: AbortSignal,
    emit: (event: AgentEvent) => void,
    options: { force?: boolean; focus?: string } = {},
  ): Promise<ChatMessage[] | null> {
    if (this.compactor === null) return null;
    return this.adopt(live, await this.compactor.maybeCompact(live, conversation, signal, emit, options));
  }

  /** The provider rejected the prompt as too long: summarise or leave the oldest turns out (they stay stored). */
  private async recoverOverflow(live: LiveSession, conversation: readonly ChatMessage[], round: number, signal: AbortSignal, emit: (event: AgentEvent) => void): Promise<ChatMessage[] | null> {
    if (this.compactor === null) return null;
    return this.adopt(live, await this.compactor.recoverOverflow(live, conversation, round, signal, emit));
  }

  /** The live session continues with the compacted history, in the child session when there is one. */
  private adopt(live: LiveSession, outcome: CompactionOutcome | null): ChatMessage[] | null {
    if (outcome === null) return null;
    live.history = [...outcome.history];
    if (outcome.child !== null) {
      // The surface may keep using the id it knows: both ids lead to this live session.
      this.sessions.set(outcome.child.id, live);
      live.record = outcome.child;
    }
    return outcome.history;
  }

  /**
   * Ends a session (the user starts over: `/new`, a gateway reset). A conversation of any length first
   * gets a flush review, so what was worth keeping reaches memory and skills before it goes out of view.
   */
  async endSession(sessionId: string, signal: AbortSignal = new AbortController().signal): Promise<void> {
    const live = this.sessions.get(sessionId);
    if (live === undefined) return;
    if (live.turn !== null) throw new HearthError('usage', 'A turn is running in this session: interrupt it or wait for it to end first.');
    const learning = this.options.learning;
    if (learning !== undefined && live.history.length >= MIN_MESSAGES_TO_FLUSH) {
      try {
        await learning.flush(this.view(live), signal);
      } catch (err) {
        for (const listener of this.backgroundListeners) listener(live.record.id, { type: 'notice', level: 'warning', message: `Saving memories before the reset failed: ${errorMessage(err)}` });
      }
    }
    this.options.store.endSession(live.record.id);
    this.options.checkpoints?.endSession(sessionId);
    this.options.approvals.forgetSession(sessionId);
    this.forget(live);
  }

  /** Drop a live session under every id it is known by, and let the model free what it keeps per id (the local KV cache). */
  private forget(live: LiveSession): void {
    for (const [id, entry] of this.sessions) {
      if (entry !== live) continue;
      this.sessions.delete(id);
      this.options.model.releaseSession?.(id);
    }
  }

  /** The tools new sessions are offered (tool toggles in settings); sessions already open keep theirs. */
  setTools(tools: ToolRegistry): void {
    this.tools = tools;
  }

  /** Stops the running turn: the model stream, tools and their processes. False when nothing runs. */
  interrupt(sessionId: string): boolean {
    const turn = this.sessions.get(sessionId)?.turn;
    if (turn == null) return false;
    turn.controller.abort(new Error('stopped by the user'));
    return true;
  }

  /** Adds guidance to the running turn (delivered with the next tool result). False when nothing runs. */
  steer(sessionId: string, text: string): boolean {
    const turn = this.sessions.get(sessionId)?.turn;
    if (turn == null || text.trim() === '') return false;
    turn.steer.push(text);
    return true;
  }

  answerApproval(id: string, decision: ApprovalDecision): boolean {
    return this.questions.answerApproval(id, decision);
  }

  answerClarify(id: string, text: string): boolean {
    return this.questions.answerClarify(id, text);
  }

  /** Every approval and clarify question still open, of every session: what a surface shows when it attaches. */
  pendingQuestions(): PendingQuestions {
    return this.questions.pending();
  }

  /** Interrupts every running turn and waits for them to finish persisting. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const running = [...this.sessions.values()].flatMap((s) => (s.turn === null ? [] : [s.turn]));
    for (const turn of running) turn.controller.abort(new Error('Hearth is shutting down'));
    await Promise.all(running.map((t) => t.done));
    await this.options.learning?.close();
    this.options.approvals.setPromptHandler(null);
    for (const live of new Set(this.sessions.values())) this.forget(live);
  }

  private view(live: LiveSession): SessionView {
    const { model, approvals, workspace } = this.options;
    return { sessionId: live.record.id, model, systemPrompt: live.systemPrompt, history: [...live.history], tools: live.tools, approvals, workspace, runTurn };
  }

  private live(record: SessionRecord, history: ChatMessage[]): LiveSession {
    const learned = this.options.learning?.sources.learnedContext();
    const { prompt: systemPrompt, notices } = assembleSystemPrompt({
      home: this.options.home,
      workspace: this.options.workspace,
      modelId: this.options.model.id,
      sessionId: record.id,
      toolNames: this.tools.names(),
      startedAt: new Date(record.startedAt),
      ...(learned === undefined ? {} : { learned }),
    });
    return { record, systemPrompt, tools: this.tools, notices: notices.map((n) => n.message), history, toolState: new Map(), turn: null };
  }

  private session(sessionId: string): LiveSession {
    const live = this.sessions.get(sessionId);
    if (live === undefined) throw new HearthError('session_not_found', `Session ${sessionId} is not open: start or resume it first.`);
    return live;
  }

  private assertOpen(): void {
    if (this.closed) throw new HearthError('usage', 'This AgentHost has been closed.');
  }
}

function tokenCounts(message: ChatMessage, usage: Usage | undefined): { inputTokens?: number; outputTokens?: number } {
  if (message.role !== 'assistant' || usage === undefined) return {};
  return { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens };
}

/** A stored row back into the shape the model sees; system rows are not history (the prompt is rebuilt). */
function toChatMessage(row: StoredMessage): ChatMessage[] {
  switch (row.role) {
    case 'system':
      return [];
    case 'user':
      // A resumed summary stays marked as Hearth's, so the learning loop still tells it from the user's words.
      return [row.origin === 'hearth' ? { role: 'user', content: row.content, origin: 'hearth' } : { role: 'user', content: row.content }];
    case 'assistant':
      return [
        {
          role: 'assistant',
          content: row.content,
          ...(row.toolCalls !== null && row.toolCalls.length > 0 ? { toolCalls: row.toolCalls } : {}),
          ...(row.reasoning !== null ? { reasoning: row.reasoning } : {}),
        },
      ];
    case 'tool':
      return [{ role: 'tool', content: row.content, toolCallId: row.toolCallId ?? '', toolName: row.toolName ?? '' }];
  }
}
