import type { AgentEvent, ToolOutcome } from '../../shared/events.js';
import { HearthError, errorMessage, isHearthError } from '../errors.js';
import type { ChatMessage, ChatModel, ChatRequest, ToolCall, Usage } from '../llm/types.js';
import type { ApprovalBroker, SessionOrigin } from '../safety/approvals/broker.js';
import type { Redactor } from '../safety/secrets/redact.js';
import { createStreamRedactor } from '../safety/secrets/redact-stream.js';
import type { ClarifyRequest, ToolContext, UserUpdate } from '../tools/define.js';
import type { ToolRegistry } from '../tools/registry.js';
import { MAX_PARALLEL_CALLS, canRunInParallel, runInOrder } from './batch.js';
import { BUDGET_EXHAUSTED_REQUEST, DEFAULT_MAX_ITERATIONS, IterationBudget } from './budget.js';
import { executeCall, prepareCall } from './execute-call.js';
import { streamResponse, type ModelResponse } from './model-response.js';
import { SteerQueue, steerNote } from './steer-queue.js';
import { recordingBroker, toolOutcome } from './tool-outcome.js';

export const DEFAULT_RESULT_LIMIT = 100_000;

export interface TurnOptions {
  sessionId: string;
  workspace: string;
  /** Built once per session (prompt.ts) and passed unchanged to every turn. */
  systemPrompt: string;
  /** The conversation so far, without the system prompt. */
  history: readonly ChatMessage[];
  userText: string;
  model: ChatModel;
  tools: ToolRegistry;
  approvals: ApprovalBroker;
  /** Who is behind the session (default user): subagents and scheduled jobs get stricter approvals. */
  origin?: SessionOrigin;
  /** Snapshots before file changes (checkpoints); absent when they are off. */
  checkpoint?: ToolContext['checkpoint'];
  /** Secret redaction of every tool result and of live tool output, before the model, the surfaces or the store see it. */
  redactor?: Redactor;
  /** Per-session tool state (terminal cwd, todo list) that outlives the turn. */
  toolState: Map<string, unknown>;
  /** Interrupt: reaches the model stream, running tools and their child processes. */
  signal: AbortSignal;
  steer?: SteerQueue;
  maxIterations?: number;
  /** Longest tool result passed to the model, in characters. */
  resultLimit?: number;
  maxConcurrency?: number;
  askUser(request: ClarifyRequest, signal: AbortSignal): Promise<string>;
  emit(event: AgentEvent): void;
  /**
   * Called for every message the moment it exists, so it can be persisted before anything else happens. A tool
   * result comes with its outcome (done, denied, timed out…), which the history keeps for reopened sessions.
   */
  onMessage(message: ChatMessage, usage?: Usage, outcome?: ToolOutcome): void | Promise<void>;
  onUsage?(usage: Usage): void;
  /**
   * Called before each model call with the conversation as it stands. Returning a new conversation
   * (context compression) replaces it for this call and the rest of the turn; null keeps it.
   */
  compact?(conversation: readonly ChatMessage[], signal: AbortSignal): Promise<ChatMessage[] | null>;
  /**
   * Called when the provider rejects the prompt as too long (`model_context_overflow`) before anything
   * was streamed; `round` counts rejections of this call. A returned conversation (pruned, kept in the
   * store) replaces this one and the call is made again; null lets the error end the turn.
   */
  recoverOverflow?(conversation: readonly ChatMessage[], round: number, signal: AbortSignal): Promise<ChatMessage[] | null>;
}

/** Rejections of one model call that are answered by shrinking the context before the turn fails. */
const MAX_OVERFLOW_RECOVERIES = 3;

export type TurnEndReason = 'stop' | 'budget' | 'aborted' | 'error';

export interface TurnResult {
  reason: TurnEndReason;
  /** The last assistant text of the turn ('' when interrupted or failed). */
  final: string;
  /** Messages this turn added, in order (user message first). */
  messages: ChatMessage[];
  usage: { inputTokens: number; outputTokens: number };
  error?: { code: string; message: string };
}

/**
 * One user turn: call the model, run the tool calls it makes, feed the results back, until it answers
 * without tools, the iteration budget runs out (then one grace call without tools), or the turn is
 * interrupted. History stays valid at every exit: an interrupted response is dropped whole, and every
 * tool call that was issued gets a result.
 *
 * Steer text goes into the next tool result. If the model finishes without calling a tool first, the
 * steer becomes a user message and the loop continues in the same turn, so it is never lost; the same
 * happens when the budget runs out (it joins the summary request). Only an interrupt or an error can
 * leave steer text undelivered, and then a notice says so.
 */
export async function runTurn(options: TurnOptions): Promise<TurnResult> {
  const { signal, emit } = options;
  const steer = options.steer ?? new SteerQueue();
  const conversation: ChatMessage[] = [...options.history];
  const added: ChatMessage[] = [];
  const usage = { inputTokens: 0, outputTokens: 0 };
  const budget = new IterationBudget(options.maxIterations ?? DEFAULT_MAX_ITERATIONS);
  const system: ChatMessage = { role: 'system', content: options.systemPrompt };

  const append = async (message: ChatMessage, messageUsage?: Usage, outcome?: ToolOutcome): Promise<void> => {
    conversation.push(message);
    added.push(message);
    await options.onMessage(message, messageUsage, outcome);
  };
  const end = (reason: TurnEndReason, final: string, error?: { code: string; message: string }): TurnResult => {
    const undelivered = steer.take();
    if (undelivered !== null) emit({ type: 'notice', level: 'warning', message: `This steer was not delivered because the turn ended first: ${undelivered}` });
    emit({ type: 'status', state: 'idle' });
    emit({ type: 'turn_end', reason, final, ...(error === undefined ? {} : { error }) });
    return { reason, final, messages: added, usage, ...(error === undefined ? {} : { error }) };
  };

  try {
    await append({ role: 'user', content: options.userText });
    for (;;) {
      if (signal.aborted) return end('aborted', '');
      const grace = !budget.consume();
      if (grace) {
        const pending = steer.take();
        if (pending !== null) emit({ type: 'steer_applied', text: pending });
        // Hearth's request (with any steer text inside it), not the user's words: stored as `hearth`.
        await append({ role: 'user', content: pending === null ? BUDGET_EXHAUSTED_REQUEST : `${BUDGET_EXHAUSTED_REQUEST}${steerNote(pending)}`, origin: 'hearth' });
      }
      if (!grace && options.compact !== undefined) {
        const compacted = await options.compact(conversation, signal);
        if (compacted !== null) conversation.splice(0, conversation.length, ...compacted);
      }
      const request = (): ChatRequest => ({
        messages: [system, ...conversation],
        tools: grace ? [] : options.tools.schemas(),
        toolChoice: grace ? 'none' : 'auto',
        sessionKey: options.sessionId,
      });
      emit({ type: 'status', state: 'thinking' });
      const response = await streamRecovering(options, request, conversation);
      if (response.usage !== null) {
        usage.inputTokens += response.usage.inputTokens;
        usage.outputTokens += response.usage.outputTokens;
        emit({
          type: 'usage',
          inputTokens: response.usage.inputTokens,
          outputTokens: response.usage.outputTokens,
          ...(response.usage.evaluatedInputTokens === undefined ? {} : { evaluatedInputTokens: response.usage.evaluatedInputTokens }),
        });
        options.onUsage?.(response.usage);
      }
      const calls = grace ? [] : response.toolCalls;
      if (grace && response.toolCalls.length > 0) {
        emit({ type: 'notice', level: 'warning', message: 'The model asked for tools after its step budget ran out; those calls were not run.' });
      }
      await append(
        {
          role: 'assistant',
          content: response.text,
          ...(calls.length > 0 ? { toolCalls: calls } : {}),
          ...(response.reasoning !== '' ? { reasoning: response.reasoning } : {}),
        },
        response.usage ?? undefined,
      );
      if (grace) return end('budget', response.text);
      if (calls.length === 0) {
        const pending = steer.take();
        if (pending === null) return end('stop', response.text);
        emit({ type: 'steer_applied', text: pending });
        await append({ role: 'user', content: pending });
        continue;
      }
      await runToolCalls(calls, options, steer, append);
      if (signal.aborted) return end('aborted', '');
    }
  } catch (err) {
    if (signal.aborted) return end('aborted', '');
    const code = err instanceof HearthError ? err.code : 'internal';
    return end('error', '', { code, message: errorMessage(err) });
  }
}

/**
 * One model call; a context-overflow rejection that streamed nothing is answered by `recoverOverflow`
 * and the call is made again with the smaller conversation, so an overflowing session keeps working.
 */
async function streamRecovering(options: TurnOptions, request: () => ChatRequest, conversation: ChatMessage[]): Promise<ModelResponse> {
  const { signal, emit } = options;
  for (let round = 0; ; round++) {
    let streamed = false;
    const forward = (event: AgentEvent) => {
      if (event.type === 'text_delta' || event.type === 'reasoning_delta') streamed = true;
      emit(event);
    };
    try {
      return await streamResponse(options.model, request(), signal, forward);
    } catch (err) {
      // After streamed output a retry would show the user the same text twice: let the error end the turn.
      if (streamed || signal.aborted || !isHearthError(err, 'model_context_overflow') || options.recoverOverflow === undefined || round >= MAX_OVERFLOW_RECOVERIES) throw err;
      const recovered = await options.recoverOverflow(conversation, round, signal);
      if (recovered === null) throw err;
      conversation.splice(0, conversation.length, ...recovered);
    }
  }
}

async function runToolCalls(
  calls: ToolCall[],
  options: TurnOptions,
  steer: SteerQueue,
  append: (message: ChatMessage, usage?: Usage, outcome?: ToolOutcome) => Promise<void>,
): Promise<void> {
  const { signal, emit } = options;
  const prepared = calls.map((call) => prepareCall(call, options.tools));
  const parallel = canRunInParallel(prepared, { workspace: options.workspace, state: options.toolState });
  emit({ type: 'status', state: 'running_tools', ...(parallel ? { detail: `${calls.length} calls in parallel` } : {}) });
  const resultLimit = options.resultLimit ?? DEFAULT_RESULT_LIMIT;
  const redactor = options.redactor;

  await runInOrder(
    prepared.length,
    parallel,
    Math.min(options.maxConcurrency ?? MAX_PARALLEL_CALLS, MAX_PARALLEL_CALLS),
    async (index) => {
      const call = prepared[index]!;
      const startedAt = Date.now();
      emit({ type: 'tool_start', callId: call.call.id, name: call.call.name, args: call.args });
      // Live output arrives in arbitrary chunks: the stream redactor holds back what could be half a key.
      const live = redactor === undefined ? null : createStreamRedactor(redactor);
      const approvals = recordingBroker(options.approvals, call.call.id);
      const ctx: ToolContext = {
        sessionId: options.sessionId,
        workspace: options.workspace,
        signal,
        approvals: approvals.broker,
        ...(options.origin === undefined ? {} : { origin: options.origin }),
        ...(options.checkpoint === undefined ? {} : { checkpoint: options.checkpoint }),
        askUser: (request) => options.askUser(request, signal),
        progress: (text) => {
          const safe = live === null ? text : live.push(text);
          if (safe !== '') emit({ type: 'tool_progress', callId: call.call.id, text: safe });
        },
        state: options.toolState,
        notify: (update) => emit(userUpdateEvent(update)),
      };
      const executed = await executeCall(call, ctx, resultLimit, redactor === undefined ? undefined : (text) => redactor.redact(text));
      const heldBack = live?.flush() ?? '';
      if (heldBack !== '') emit({ type: 'tool_progress', callId: call.call.id, text: heldBack });
      if (executed.thrown !== undefined) emit({ type: 'notice', level: 'error', message: `Tool ${call.call.name} failed: ${executed.thrown}` });
      const outcome = toolOutcome(executed.result, approvals.decisions, executed.cancelled === true);
      emit({
        type: 'tool_end',
        callId: call.call.id,
        name: call.call.name,
        content: executed.result.content,
        isError: executed.result.isError === true,
        durationMs: Date.now() - startedAt,
        outcome,
      });
      return { result: executed.result, outcome };
    },
    async (index, { result, outcome }) => {
      const call = prepared[index]!.call;
      const pending = signal.aborted ? null : steer.take();
      if (pending !== null) emit({ type: 'steer_applied', text: pending });
      await append({ role: 'tool', content: pending === null ? result.content : result.content + steerNote(pending), toolCallId: call.id, toolName: call.name }, undefined, outcome);
    },
  );
}

/** What a tool tells the user (`ToolContext.notify`), as the event surfaces render. */
export function userUpdateEvent(update: UserUpdate): AgentEvent {
  return update.kind === 'notice'
    ? { type: 'notice', level: update.level, message: update.message }
    : { type: 'learning', action: update.action, target: update.target, message: update.message, ...(update.undo === undefined ? {} : { undo: update.undo }) };
}
