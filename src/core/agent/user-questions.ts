import { randomUUID } from 'node:crypto';
import type { AgentEvent, ApprovalRequestEvent, ClarifyRequestEvent } from '../../shared/events.js';
import { HearthError, abortError } from '../errors.js';
import type { ApprovalDecision } from '../safety/approvals/broker.js';
import type { AskedApproval } from '../safety/approvals/policy.js';
import type { ClarifyRequest } from '../tools/define.js';

interface PendingQuestion<T, E> {
  sessionId: string;
  /** The event that asked, as every surface that attaches later is shown it. */
  event: E;
  resolve(answer: T): void;
}

/** Where a session's question events go: its running turn's stream, or nowhere (no turn is running). */
export type TurnStream = (sessionId: string) => { push(event: AgentEvent): void } | null;

/** What undo there is for the asked action: whether none can undo it, and the folder a checkpoint is taken of. */
export type UndoForecaster = (request: AskedApproval) => { irreversible: boolean; checkpoint: string | null };

export interface PendingQuestions {
  approvals: { sessionId: string; request: ApprovalRequestEvent }[];
  clarifications: { sessionId: string; request: ClarifyRequestEvent }[];
}

/**
 * Questions the agent puts to the user during a turn — approvals from the policy broker, `clarify`
 * from the model — as events on the turn's stream plus answer methods. This is the engine's one registry of
 * open questions: a surface that attaches late (a reloaded page, a second window) lists them with `pending()`
 * and answers like any other. The first answer wins and resolves the question for every surface
 * (`approval_resolved`); a later answer, or one to a question whose asker stopped waiting (timeout,
 * interrupt), is refused (`false`) rather than misapplied.
 */
export class UserQuestions {
  private readonly approvals = new Map<string, PendingQuestion<ApprovalDecision, ApprovalRequestEvent>>();
  private readonly clarifications = new Map<string, PendingQuestion<string, ClarifyRequestEvent>>();

  constructor(
    private readonly streamOf: TurnStream,
    private readonly undoFor: UndoForecaster = (request) => ({ irreversible: request.irreversible === true, checkpoint: null }),
  ) {}

  askApproval(request: AskedApproval, signal: AbortSignal): Promise<ApprovalDecision> {
    const stream = this.streamOf(request.sessionId);
    if (stream === null) return Promise.reject(new Error(`no turn is running in session ${request.sessionId} to ask in`));
    const { irreversible, checkpoint } = this.undoFor(request);
    const event: ApprovalRequestEvent = {
      type: 'approval_request',
      id: request.id,
      command: request.command,
      reasons: request.reasons,
      kind: request.kind,
      expiresAt: request.expiresAt,
      ...(request.callId === undefined ? {} : { callId: request.callId }),
      irreversible,
      ...(checkpoint === null ? {} : { checkpoint }),
    };
    return new Promise((resolve) => {
      this.approvals.set(request.id, { sessionId: request.sessionId, event, resolve });
      stream.push({ type: 'status', state: 'waiting_for_user', detail: 'approval' });
      stream.push(event);
      // The broker stopped waiting (timeout or interrupt): withdraw the question so a late answer is ignored.
      signal.addEventListener('abort', () => {
        if (!this.approvals.delete(request.id)) return;
        const reason = signal.reason instanceof Error ? signal.reason.message : 'withdrawn';
        stream.push({ type: 'approval_resolved', id: request.id, approved: false, reason });
      });
    });
  }

  askClarify(sessionId: string, request: ClarifyRequest, signal: AbortSignal): Promise<string> {
    const stream = this.streamOf(sessionId);
    if (stream === null) return Promise.reject(new HearthError('usage', `no turn is running in session ${sessionId}`));
    if (signal.aborted) return Promise.reject(abortError(signal));
    const event: ClarifyRequestEvent = { type: 'clarify_request', id: randomUUID(), question: request.question, choices: request.choices ?? [] };
    return new Promise((resolve, reject) => {
      this.clarifications.set(event.id, { sessionId, event, resolve });
      stream.push({ type: 'status', state: 'waiting_for_user', detail: 'clarify' });
      stream.push(event);
      signal.addEventListener('abort', () => {
        if (this.clarifications.delete(event.id)) reject(abortError(signal));
      });
    });
  }

  /** Every open question, oldest first: what a surface attaching now must show. */
  pending(): PendingQuestions {
    return {
      approvals: [...this.approvals.values()].map(({ sessionId, event }) => ({ sessionId, request: event })),
      clarifications: [...this.clarifications.values()].map(({ sessionId, event }) => ({ sessionId, request: event })),
    };
  }

  answerApproval(id: string, decision: ApprovalDecision): boolean {
    if (!['once', 'session', 'always', 'deny'].includes(decision)) throw new HearthError('usage', `"${String(decision)}" is not an approval decision: use once, session, always or deny.`);
    const pending = this.approvals.get(id);
    if (pending === undefined) return false;
    // Deleted before anything else runs, so a second answer arriving meanwhile finds nothing to apply.
    this.approvals.delete(id);
    pending.resolve(decision);
    this.streamOf(pending.sessionId)?.push({ type: 'approval_resolved', id, approved: decision !== 'deny', reason: decision });
    this.streamOf(pending.sessionId)?.push({ type: 'status', state: 'running_tools' });
    return true;
  }

  answerClarify(id: string, text: string): boolean {
    const pending = this.clarifications.get(id);
    if (pending === undefined) return false;
    this.clarifications.delete(id);
    pending.resolve(text);
    this.streamOf(pending.sessionId)?.push({ type: 'status', state: 'running_tools' });
    return true;
  }
}
