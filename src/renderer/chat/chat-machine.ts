import type { z } from 'zod';
import type { DisplayMessage, RouteOutput } from '../../shared/contract.js';
import type { AgentEvent, ApprovalRequestEvent, ToolOutcome } from '../../shared/events.js';

/**
 * The chat as an explicit state machine (goose desktop's idea): an approval is a *state* of the chat, not a
 * flag scattered over components. Pure functions only, so every transition is testable without React.
 *
 *   idle ──send──► loading ──first turn event──► streaming ──approval/clarify──► waiting-for-user
 *     ▲                                              │   ◄──resolved/answered──────────┘
 *     └──────────────────────── turn_end ────────────┘
 */
export type ChatPhase = 'idle' | 'loading' | 'streaming' | 'waiting-for-user';

export type NoticeEvent =
  | Extract<AgentEvent, { type: 'notice' | 'learning' | 'review' | 'compressed' | 'model_fallback' | 'steer_applied' | 'approval_resolved' }>
  | { type: 'turn_error'; code: string; message: string }
  | { type: 'turn_stopped'; reason: 'budget' | 'aborted' };

export type ChatItem =
  | { kind: 'user'; key: string; text: string; attachments: string[] }
  | { kind: 'assistant'; key: string; text: string; reasoning: string; done: boolean }
  | {
      kind: 'tool';
      key: string;
      callId: string;
      name: string;
      args: string;
      output: string;
      result: string | null;
      isError: boolean;
      durationMs: number | null;
      /** How it ended (from `tool_end` or the stored result); null while running, or for results stored without one. */
      outcome: ToolOutcome | null;
      /** Loaded from a stored session rather than seen live. */
      fromHistory: boolean;
    }
  | { kind: 'notice'; key: string; event: NoticeEvent };

export interface PendingApproval {
  id: string;
  sessionId: string;
  command: string;
  reasons: string[];
  /** What is asked about; the modal's title says it. */
  kind: 'command' | 'file_write' | 'self_modification' | 'message';
  expiresAt: number;
  /** The tool call that asked: its card shows "waiting for you". */
  callId: string | null;
  /** No checkpoint can undo it: the modal says so. */
  irreversible: boolean;
  /** The folder snapshotted before it runs, or null when none is. */
  checkpoint: string | null;
  /**
   * The engine denied it because nobody answered in time. Kept (until dismissed) so every window shows that it
   * failed closed, instead of the dialog vanishing without a word.
   */
  timedOut: boolean;
}

export interface PendingClarify {
  id: string;
  sessionId: string;
  question: string;
  choices: string[];
}

export interface ChatState {
  phase: ChatPhase;
  sessionId: string | null;
  model: string | null;
  items: ChatItem[];
  /** Approvals of every session: one asked by a background session must not time out unseen. */
  approvals: PendingApproval[];
  clarify: PendingClarify | null;
  usage: { inputTokens: number; outputTokens: number };
  /** Output tokens per second of the last turn, measured from its usage events. */
  tokensPerSecond: number | null;
  turnStartedAt: number | null;
  /** Output tokens of the running turn (a turn may call the model several times). */
  turnOutputTokens: number;
  nextKey: number;
}

/** Live tool output is kept to its tail: a runaway command must not grow the page without bound. */
const MAX_TOOL_OUTPUT = 100_000;

export function initialChatState(): ChatState {
  return {
    phase: 'idle',
    sessionId: null,
    model: null,
    items: [],
    approvals: [],
    clarify: null,
    usage: { inputTokens: 0, outputTokens: 0 },
    tokensPerSecond: null,
    turnStartedAt: null,
    turnOutputTokens: 0,
    nextKey: 1,
  };
}

/** A chat item before it has its key. */
type NewItem = ChatItem extends infer T ? (T extends ChatItem ? Omit<T, 'key'> : never) : never;

function withItem(state: ChatState, item: NewItem): ChatState {
  const key = `i${state.nextKey}`;
  return { ...state, items: [...state.items, { ...item, key } as ChatItem], nextKey: state.nextKey + 1 };
}

function replaceLast(state: ChatState, index: number, item: ChatItem): ChatState {
  const items = state.items.slice();
  items[index] = item;
  return { ...state, items };
}

/** The open assistant bubble deltas append to, created when the last item is anything else. */
function appendToAssistant(state: ChatState, field: 'text' | 'reasoning', delta: string): ChatState {
  const last = state.items[state.items.length - 1];
  if (last?.kind === 'assistant' && !last.done) {
    return replaceLast(state, state.items.length - 1, { ...last, [field]: last[field] + delta });
  }
  return withItem(state, { kind: 'assistant', text: field === 'text' ? delta : '', reasoning: field === 'reasoning' ? delta : '', done: false });
}

function closeAssistant(state: ChatState, final?: string): ChatState {
  const index = state.items.length - 1;
  const last = state.items[index];
  if (last?.kind === 'assistant' && !last.done) {
    return replaceLast(state, index, { ...last, done: true, text: last.text === '' && final ? final : last.text });
  }
  if (final) return withItem(state, { kind: 'assistant', text: final, reasoning: '', done: true });
  return state;
}

function updateTool(state: ChatState, callId: string, update: (item: Extract<ChatItem, { kind: 'tool' }>) => ChatItem): ChatState {
  for (let i = state.items.length - 1; i >= 0; i--) {
    const item = state.items[i];
    if (item?.kind === 'tool' && item.callId === callId) return replaceLast(state, i, update(item));
  }
  return state;
}

/** An approval still waiting for an answer (not one kept only to show that it timed out). */
function isOpen(approval: PendingApproval): boolean {
  return !approval.timedOut;
}

function waitsOnUser(state: ChatState): boolean {
  return state.approvals.some((a) => isOpen(a) && a.sessionId === state.sessionId) || state.clarify !== null;
}

/** Back to streaming once nothing waits on the user any more. */
function afterAnswer(state: ChatState): ChatState {
  if (state.phase === 'waiting-for-user' && !waitsOnUser(state)) return { ...state, phase: 'streaming' };
  return state;
}

function toPending(sessionId: string, event: ApprovalRequestEvent): PendingApproval {
  return {
    id: event.id,
    sessionId,
    command: event.command,
    reasons: event.reasons,
    kind: event.kind ?? 'command',
    expiresAt: event.expiresAt,
    callId: event.callId ?? null,
    irreversible: event.irreversible === true,
    checkpoint: event.checkpoint ?? null,
    timedOut: false,
  };
}

/** Adds an approval once: the same request may arrive as an event and in `approvals.pending`. */
function withApproval(state: ChatState, approval: PendingApproval): ChatState {
  if (state.approvals.some((a) => a.id === approval.id)) return state;
  return { ...state, approvals: [...state.approvals, approval] };
}

/** An answer from anywhere closes the dialog; a timeout keeps it, marked, so the user sees it was denied. */
function resolveApproval(state: ChatState, id: string, reason: string): ChatState {
  if (reason === 'timeout') return { ...state, approvals: state.approvals.map((a) => (a.id === id ? { ...a, timedOut: true } : a)) };
  return { ...state, approvals: state.approvals.filter((a) => a.id !== id) };
}

/** What a tool card shows. */
export type ToolCardState = 'running' | 'waiting' | 'done' | 'failed' | 'denied' | 'timed_out' | 'cancelled' | 'ended';

/**
 * A running call whose approval is open is waiting for the user, not running. A finished one shows its outcome;
 * one loaded from a session stored before outcomes were kept says only that it ended, never a false "done".
 */
export function toolCardState(item: Extract<ChatItem, { kind: 'tool' }>, approvals: readonly PendingApproval[], clarifyOpen = false): ToolCardState {
  if (item.result === null) {
    // The clarify tool is the question itself: while it is open, that card waits for the user too.
    const asking = approvals.some((a) => isOpen(a) && a.callId === item.callId) || (clarifyOpen && item.name === 'clarify');
    return asking ? 'waiting' : 'running';
  }
  if (item.outcome !== null) return item.outcome.status;
  if (item.fromHistory) return 'ended';
  return item.isError ? 'failed' : 'done';
}

function streaming(state: ChatState): ChatState {
  return state.phase === 'idle' || state.phase === 'loading' ? { ...state, phase: 'streaming' } : state;
}

/** One agent event of `sessionId` applied to the chat showing `state.sessionId`. */
export function reduceAgentEvent(state: ChatState, sessionId: string, event: AgentEvent, now: number): ChatState {
  if (sessionId !== state.sessionId) {
    // Another session (quick prompt, a background job): only its questions for the user matter here.
    if (event.type === 'approval_request') return withApproval(state, toPending(sessionId, event));
    if (event.type === 'approval_resolved') return resolveApproval(state, event.id, event.reason);
    return state;
  }
  switch (event.type) {
    case 'session':
      return { ...state, model: event.model };
    case 'status':
      if (event.state === 'loading_model') return { ...state, phase: 'loading' };
      if (event.state === 'thinking' || event.state === 'running_tools') return streaming(state);
      if (event.state === 'waiting_for_user') return { ...state, phase: 'waiting-for-user' };
      return state;
    case 'text_delta':
      return streaming(appendToAssistant(state, 'text', event.delta));
    case 'reasoning_delta':
      return streaming(appendToAssistant(state, 'reasoning', event.delta));
    case 'tool_start':
      return streaming(
        withItem(closeAssistant(state), {
          kind: 'tool',
          callId: event.callId,
          name: event.name,
          args: typeof event.args === 'string' ? event.args : JSON.stringify(event.args, null, 2),
          output: '',
          result: null,
          isError: false,
          durationMs: null,
          outcome: null,
          fromHistory: false,
        }),
      );
    case 'tool_progress':
      return updateTool(state, event.callId, (tool) => ({ ...tool, output: (tool.output + event.text).slice(-MAX_TOOL_OUTPUT) }));
    case 'tool_end':
      return updateTool(state, event.callId, (tool) => ({ ...tool, result: event.content, isError: event.isError, durationMs: event.durationMs, outcome: event.outcome ?? null }));
    case 'approval_request':
      return { ...withApproval(state, toPending(sessionId, event)), phase: 'waiting-for-user' };
    case 'approval_resolved':
      return afterAnswer(withItem(resolveApproval(state, event.id, event.reason), { kind: 'notice', event }));
    case 'clarify_request':
      return { ...state, phase: 'waiting-for-user', clarify: { id: event.id, sessionId, question: event.question, choices: event.choices } };
    case 'usage': {
      const usage = { inputTokens: state.usage.inputTokens + event.inputTokens, outputTokens: state.usage.outputTokens + event.outputTokens };
      const turnOutputTokens = state.turnOutputTokens + event.outputTokens;
      const seconds = state.turnStartedAt === null ? 0 : (now - state.turnStartedAt) / 1000;
      return { ...state, usage, turnOutputTokens, tokensPerSecond: seconds > 0 ? turnOutputTokens / seconds : state.tokensPerSecond };
    }
    case 'compressed':
      // The session continues as a child: follow it, or the rest of this turn would be dropped as foreign.
      return withItem({ ...state, sessionId: event.sessionId }, { kind: 'notice', event });
    case 'notice':
    case 'learning':
    case 'review':
    case 'model_fallback':
    case 'steer_applied':
      return withItem(state, { kind: 'notice', event });
    case 'turn_end': {
      let next = closeAssistant(state, event.final);
      if (event.reason === 'error') {
        next = withItem(next, { kind: 'notice', event: { type: 'turn_error', code: event.error?.code ?? 'internal', message: event.error?.message ?? '' } });
      } else if (event.reason !== 'stop') {
        next = withItem(next, { kind: 'notice', event: { type: 'turn_stopped', reason: event.reason } });
      }
      return {
        ...next,
        phase: 'idle',
        clarify: null,
        // A timed-out request stays until dismissed: it says why the command did not run.
        approvals: next.approvals.filter((a) => a.sessionId !== state.sessionId || a.timedOut),
        turnStartedAt: null,
      };
    }
  }
}

/** The user sent a message: it shows at once, and the chat waits for the turn to start. */
export function userSent(state: ChatState, text: string, attachments: string[], now: number): ChatState {
  return { ...withItem(state, { kind: 'user', text, attachments }), phase: 'loading', turnStartedAt: now, turnOutputTokens: 0 };
}

/** The send itself failed (validation, connection): the turn never started. */
export function sendFailed(state: ChatState, code: string, message: string): ChatState {
  return { ...withItem(state, { kind: 'notice', event: { type: 'turn_error', code, message } }), phase: 'idle', turnStartedAt: null };
}

export function clarifyAnswered(state: ChatState, id: string): ChatState {
  if (state.clarify?.id !== id) return state;
  return afterAnswer({ ...state, clarify: null });
}

export function approvalAnswered(state: ChatState, id: string): ChatState {
  return afterAnswer({ ...state, approvals: state.approvals.filter((a) => a.id !== id) });
}

export type PendingQuestions = RouteOutput<'approvals.pending'>;

/**
 * What the engine says is open right now (`approvals.pending`), when this window attaches, reconnects or opens a
 * session: open requests it did not see are added (a reloaded page, a second tab), open ones it holds that the
 * engine no longer has were resolved while it was away and close. The current session's open question makes the
 * chat wait for the user.
 */
export function pendingSynced(state: ChatState, pending: PendingQuestions): ChatState {
  const open = new Set(pending.approvals.map((p) => p.request.id));
  let next: ChatState = { ...state, approvals: state.approvals.filter((a) => a.timedOut || open.has(a.id)) };
  for (const { sessionId, request } of pending.approvals) next = withApproval(next, toPending(sessionId, request));
  const clarify = pending.clarifications.find((c) => c.sessionId === next.sessionId);
  if (next.clarify === null && clarify !== undefined) {
    next = { ...next, clarify: { id: clarify.request.id, sessionId: clarify.sessionId, question: clarify.request.question, choices: clarify.request.choices } };
  }
  if (next.clarify !== null && next.clarify.sessionId === next.sessionId && !pending.clarifications.some((c) => c.request.id === next.clarify?.id)) next = { ...next, clarify: null };
  if (waitsOnUser(next)) return { ...next, phase: 'waiting-for-user' };
  return next.phase === 'waiting-for-user' ? { ...next, phase: 'streaming' } : next;
}

/** A stored session, as chat items: tool results are folded into the card of the call that asked for them. */
export function sessionLoaded(sessionId: string, model: string, messages: z.infer<typeof DisplayMessage>[]): ChatState {
  const items: ChatItem[] = [];
  const toolIndex = new Map<string, number>();
  let key = 1;
  for (const message of messages) {
    if (message.role === 'user') {
      items.push({ kind: 'user', key: `i${key++}`, text: message.content, attachments: [] });
    } else if (message.role === 'assistant') {
      if (message.content || message.reasoning) {
        items.push({ kind: 'assistant', key: `i${key++}`, text: message.content, reasoning: message.reasoning ?? '', done: true });
      }
      for (const call of message.toolCalls) {
        toolIndex.set(call.id, items.length);
        items.push({ kind: 'tool', key: `i${key++}`, callId: call.id, name: call.name, args: prettyArgs(call.arguments), output: '', result: null, isError: false, durationMs: null, outcome: null, fromHistory: true });
      }
    } else if (message.role === 'tool') {
      const index = message.toolCallId === null ? undefined : toolIndex.get(message.toolCallId);
      const card = index === undefined ? undefined : items[index];
      if (card?.kind === 'tool' && index !== undefined) {
        const failed = message.outcome !== null && message.outcome.status !== 'done';
        items[index] = { ...card, result: message.content, outcome: message.outcome, isError: failed };
      }
    }
  }
  return { ...initialChatState(), sessionId, model, items, nextKey: key };
}

function prettyArgs(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text; // not JSON (a model's malformed call): show it as it was stored
  }
}
