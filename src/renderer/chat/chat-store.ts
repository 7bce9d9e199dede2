import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Attachment, HearthApi, UiEvent } from '../../shared/contract.js';
import type { z } from 'zod';
import type { ApprovalChoice } from '../../shared/contract.js';
import { ApiCallError, errorMessage } from '../api/api-error.js';
import {
  approvalAnswered,
  clarifyAnswered,
  initialChatState,
  pendingSynced,
  reduceAgentEvent,
  sendFailed,
  sessionLoaded,
  userSent,
  type ChatState,
} from './chat-machine.js';
import { FrameBatcher, type FrameScheduler, type SessionEvent } from './frame-batcher.js';

export interface ChatActions {
  /** Idle: starts a turn (and a session when there is none). Mid-turn: the text steers the running turn. */
  send(text: string, attachments?: z.input<typeof Attachment>[]): Promise<void>;
  interrupt(): Promise<void>;
  answerApproval(id: string, choice: z.infer<typeof ApprovalChoice>): Promise<void>;
  answerClarify(id: string, text: string): Promise<void>;
  /** Drops an approval that already timed out (the engine denied it); nothing is sent. */
  dismissApproval(id: string): void;
  /**
   * Reads the questions the engine holds open (`approvals.pending`): on start, after a reconnect, when a session
   * opens. A fresh window with nothing on screen opens the session that waits for the user, so a reloaded page
   * is back in the conversation whose dialog it shows.
   */
  syncPending(): Promise<void>;
  openSession(sessionId: string): Promise<void>;
  newChat(): void;
  /** Every UiEvent goes here; agent events reach the state at most once per frame. */
  handleEvent(event: UiEvent): void;
  /** Errors of the last action that have no place in the thread (e.g. an approval answer that failed). */
  actionError: string | null;
}

export type ChatStore = StoreApi<ChatState & ChatActions>;

/** `scheduler` is the frame clock (`animationFrameScheduler` in a window; tests and benchmarks drive their own). */
export function createChatStore(api: HearthApi, scheduler: FrameScheduler): ChatStore {
  const store = createStore<ChatState & ChatActions>()((set, get) => {
    const batcher = new FrameBatcher((events: SessionEvent[]) => {
      const now = Date.now();
      let state: ChatState = get();
      for (const { sessionId, event } of events) state = reduceAgentEvent(state, sessionId, event, now);
      set(state);
    }, scheduler);

    const startTurn = async (text: string, attachments: z.input<typeof Attachment>[]) => {
      let sessionId = get().sessionId;
      set(userSent(get(), text, attachments.map((a) => a.name), Date.now()));
      try {
        if (sessionId === null) {
          sessionId = (await api.invoke('chat.start', {})).sessionId;
          set({ sessionId });
        }
        await api.invoke('chat.send', { sessionId, text, attachments });
      } catch (error) {
        batcher.flush();
        set(sendFailed(get(), error instanceof ApiCallError ? error.code : 'internal', errorMessage(error)));
      }
    };

    const syncOpenQuestions = async (openWaitingSession: boolean): Promise<void> => {
      let pending;
      try {
        pending = await api.invoke('approvals.pending', {});
      } catch (error) {
        set({ actionError: errorMessage(error) });
        return;
      }
      batcher.flush();
      set(pendingSynced(get(), pending));
      const state = get();
      const waiting = pending.approvals[0]?.sessionId ?? pending.clarifications[0]?.sessionId;
      if (openWaitingSession && state.sessionId === null && state.items.length === 0 && waiting !== undefined) await get().openSession(waiting);
    };

    return {
      ...initialChatState(),
      actionError: null,
      async send(text, attachments = []) {
        batcher.flush();
        const { phase, sessionId } = get();
        if (phase !== 'idle' && sessionId !== null) {
          try {
            const { accepted } = await api.invoke('chat.steer', { sessionId, text });
            if (accepted) return;
          } catch (error) {
            set({ actionError: errorMessage(error) });
            return;
          }
          // The turn ended between the click and the steer: the text becomes the next message instead.
          batcher.flush();
        }
        await startTurn(text, attachments);
      },
      async interrupt() {
        const { sessionId } = get();
        if (sessionId === null) return;
        try {
          await api.invoke('chat.interrupt', { sessionId });
        } catch (error) {
          set({ actionError: errorMessage(error) });
        }
      },
      async answerApproval(id, choice) {
        try {
          // accepted: false means another window answered first (or it timed out): the engine's
          // approval_resolved says which, in the thread; this dialog closes either way.
          await api.invoke('approvals.answer', { id, choice });
          batcher.flush();
          set(approvalAnswered(get(), id));
        } catch (error) {
          set({ actionError: errorMessage(error) });
        }
      },
      async answerClarify(id, text) {
        try {
          await api.invoke('clarify.answer', { id, text });
          batcher.flush();
          set(clarifyAnswered(get(), id));
        } catch (error) {
          set({ actionError: errorMessage(error) });
        }
      },
      dismissApproval(id) {
        batcher.flush();
        set(approvalAnswered(get(), id));
      },
      async openSession(sessionId) {
        try {
          const { session, messages } = await api.invoke('sessions.open', { sessionId });
          batcher.flush();
          // Approvals of other sessions stay: they still need an answer.
          set({ ...sessionLoaded(session.id, session.model, messages), approvals: get().approvals, actionError: null });
        } catch (error) {
          set({ actionError: errorMessage(error) });
          return;
        }
        // A turn may be waiting on the user in this session (opened mid-turn, in another tab): its card and phase say so.
        await syncOpenQuestions(false);
      },
      syncPending: () => syncOpenQuestions(true),
      newChat() {
        batcher.flush();
        set({ ...initialChatState(), approvals: get().approvals, actionError: null });
      },
      handleEvent(event) {
        if (event.channel === 'agent') batcher.push(event.sessionId, event.event);
      },
    };
  });
  return store;
}
