import { errorMessage } from '../../errors.js';
import type { ApprovalDecision, ApprovalRequest } from './broker.js';

/**
 * A request as the policy puts it to the user: with the tool call that asked and the directory the action runs
 * in, when the check was given them, so a surface can mark the call's card and say whether a checkpoint covers it.
 */
export type AskedApproval = ApprovalRequest & { callId?: string; cwd?: string };

/**
 * Asks the user. `signal` fires when the broker stops waiting (timeout or interrupt) so the surface can
 * withdraw its question.
 */
export type ApprovalPromptHandler = (request: AskedApproval, signal: AbortSignal) => Promise<ApprovalDecision>;

export type AskResult = { kind: 'answer'; decision: ApprovalDecision } | { kind: 'timeout' } | { kind: 'aborted' } | { kind: 'failed'; message: string };

/** Puts one request to the user; unanswered after `timeoutMs` it is a timeout (the broker then denies: fail closed). */
export function askUser(handler: ApprovalPromptHandler, request: AskedApproval, timeoutMs: number, signal: AbortSignal): Promise<AskResult> {
  const giveUp = new AbortController();
  return new Promise((resolve) => {
    const finish = (result: AskResult): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (result.kind !== 'answer') giveUp.abort(new Error(result.kind));
      resolve(result);
    };
    const timer = setTimeout(() => finish({ kind: 'timeout' }), timeoutMs);
    const onAbort = (): void => finish({ kind: 'aborted' });
    signal.addEventListener('abort', onAbort, { once: true });
    handler(request, giveUp.signal).then(
      (decision) => finish(isDecision(decision) ? { kind: 'answer', decision } : { kind: 'failed', message: `not a decision: ${String(decision)}` }),
      (err: unknown) => finish({ kind: 'failed', message: errorMessage(err) }),
    );
  });
}

function isDecision(value: unknown): value is ApprovalDecision {
  return value === 'once' || value === 'session' || value === 'always' || value === 'deny';
}
