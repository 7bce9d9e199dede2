/**
 * The approval broker: every command a tool wants to run passes through `check`, whichever surface
 * started the session. Surfaces plug in a `prompt` handler that asks the user; with none attached (or
 * no answer before the timeout) requests fail closed.
 *
 * This is the interface the full policy (issue 5) builds on; the detector here is a starter set.
 */
export type ApprovalDecision = 'once' | 'session' | 'always' | 'deny';

export type Verdict = 'safe' | 'dangerous' | 'hardline';

export interface Classification {
  verdict: Verdict;
  reasons: string[];
}

export interface ApprovalRequest {
  id: string;
  sessionId: string;
  command: string;
  reasons: string[];
  /** Epoch ms after which an unanswered request is denied. */
  expiresAt: number;
}

export interface ApprovalOutcome {
  approved: boolean;
  /** Why: the decision, 'safe', 'yolo', 'sandboxed', 'allowlisted', 'hardline', 'timeout', 'no_surface'. */
  reason: string;
  classification: Classification;
}

export interface ApprovalBroker {
  check(sessionId: string, command: string, signal: AbortSignal): Promise<ApprovalOutcome>;
}
