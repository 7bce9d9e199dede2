import { randomUUID } from 'node:crypto';
import type { AgentEvent } from '../../shared/events.js';
import { HearthError, abortError } from '../errors.js';
import type { ApprovalDecision, ApprovalRequest } from '../safety/approvals/broker.js';
import type { ClarifyRequest } from '../tools/define.js';

interface PendingQuestion<T> {
  sessionId: string;
  resolve(answer: T): void;
}

/** Where a session's question events go: its running turn's stream, or nowhere (no turn is running). */
export type TurnStream = (sessionId: string) => { push(event: AgentEvent): void } | null;

/**
 * Questions the agent puts to the user during a turn — approvals from the policy broker, `clarify`
 * from the model — as events on the turn's stream plus answer methods. A question whose asker stopped
 * waiting (timeout, interrupt) is withdrawn, so a late answer is ignored rather than misapplied.
 */
export class UserQuestions {
  private readonly approvals = new Map<string, PendingQuestion<ApprovalDecision>>();
  private readonly clarifications = new Map<string, PendingQuestion<string>>();

  constructor(private readonly streamOf: TurnStream) {}

  askApproval(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    const stream = this.streamOf(request.sessionId);
    if (stream === null) return Promise.reject(new Error(`no turn is running in session ${request.sessionId} to ask in`));
    return new Promise((resolve) => {
      this.approvals.set(request.id, { sessionId: request.sessionId, resolve });
      stream.push({ type: 'status', state: 'waiting_for_user', detail: 'approval' });
      stream.push({ type: 'approval_request', id: request.id, command: request.command, reasons: request.reasons, kind: request.kind, expiresAt: request.expiresAt });
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
    const id = randomUUID();
    return new Promise((resolve, reject) => {
      this.clarifications.set(id, { sessionId, resolve });
      stream.push({ type: 'status', state: 'waiting_for_user', detail: 'clarify' });
      stream.push({ type: 'clarify_request', id, question: request.question, choices: request.choices ?? [] });
      signal.addEventListener('abort', () => {
        if (this.clarifications.delete(id)) reject(abortError(signal));
      });
    });
  }

  answerApproval(id: string, decision: ApprovalDecision): boolean {
    if (!['once', 'session', 'always', 'deny'].includes(decision)) throw new HearthError('usage', `"${String(decision)}" is not an approval decision: use once, session, always or deny.`);
    const pending = this.approvals.get(id);
    if (pending === undefined) return false;
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
