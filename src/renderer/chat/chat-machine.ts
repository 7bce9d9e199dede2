import type { z } from 'zod';
import type { DisplayMessage } from '../../shared/contract.js';
import type { AgentEvent } from '../../shared/events.js';

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
    }
  | { kind: 'notice'; key: string; event: NoticeEvent };

export interface PendingApproval {
  id: string;
  sessionId: string;
  command: string;
  reasons: string[];
  /** What is asked about; the modal's title says it. */
  kind: 'command' | 'file_write' | 'self_modification';
  expiresAt: number;
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

/** Back to streaming once nothing waits on the user any more. */
function afterAnswer(state: ChatState): ChatState {
  const current = state.approvals.some((a) => a.sessionId === state.sessionId) || state.clarify !== null;
  if (state.phase === 'waiting-for-user' && !current) return { ...state, phase: 'streaming' };
  return state;
}

function streaming(state: ChatState): ChatState {
  return state.phase === 'idle' || state.phase === 'loading' ? { ...state, phase: 'streaming' } : state;
}

/** One agent event of `sessionId` applied to the chat showing `state.sessionId`. */
export function reduceAgentEvent(state: ChatState, sessionId: string, event: AgentEvent, now: number): ChatState {
  if (sessionId !== state.sessionId) {
    // Another session (quick prompt, a background job): only its questions for the user matter here.
    if (event.type === 'approval_request') {
      return { ...state, approvals: [...state.approvals, { id: event.id, sessionId, command: event.command, reasons: event.reasons, kind: event.kind ?? 'command', expiresAt: event.expiresAt }] };
    }
    if (event.type === 'approval_resolved') return { ...state, approvals: state.approvals.filter((a) => a.id !== event.id) };
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
        }),
      );
    case 'tool_progress':
      return updateTool(state, event.callId, (tool) => ({ ...tool, output: (tool.output + event.text).slice(-MAX_TOOL_OUTPUT) }));
    case 'tool_end':
      return updateTool(state, event.callId, (tool) => ({ ...tool, result: event.content, isError: event.isError, durationMs: event.durationMs }));
    case 'approval_request':
      return {
        ...state,
        phase: 'waiting-for-user',
        approvals: [...state.approvals, { id: event.id, sessionId, command: event.command, reasons: event.reasons, kind: event.kind ?? 'command', expiresAt: event.expiresAt }],
      };
    case 'approval_resolved':
      return afterAnswer(withItem({ ...state, approvals: state.approvals.filter((a) => a.id !== event.id) }, { kind: 'notice', event }));
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
        approvals: next.approvals.filter((a) => a.sessionId !== state.sessionId),
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
        items.push({ kind: 'tool', key: `i${key++}`, callId: call.id, name: call.name, args: prettyArgs(call.arguments), output: '', result: null, isError: false, durationMs: null });
      }
    } else if (message.role === 'tool') {
      const index = message.toolCallId === null ? undefined : toolIndex.get(message.toolCallId);
      const card = index === undefined ? undefined : items[index];
      if (card?.kind === 'tool' && index !== undefined) items[index] = { ...card, result: message.content };
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
