import type { ApprovalOutcome } from './broker.js';

const VERDICTS: Readonly<Record<string, string>> = {
  hardline: 'is blocked: it is never allowed',
  timeout: 'was not approved in time',
  no_surface: 'needs approval and no one is there to approve it',
  origin_denied: 'needs approval, and this session (a subagent or a scheduled job) may not ask for it',
  smart_denied: 'was judged unsafe by the approval reviewer',
  deny: 'was denied by the user',
};

/** Why a refused action did not happen, for the model: "was denied by the user (recursive delete)". */
export function refusalReason(outcome: ApprovalOutcome): string {
  const why = outcome.classification.reasons.join('; ') || 'flagged by policy';
  return `${VERDICTS[outcome.reason] ?? `was not approved (${outcome.reason})`} (${why})`;
}
