import type { ToolOutcome } from '../../shared/events.js';
import type { ApprovalBroker, ApprovalOutcome } from '../safety/approvals/broker.js';
import type { ToolCheckOptions } from '../safety/approvals/policy.js';
import type { ToolResult } from '../tools/define.js';

/**
 * The approval broker as one tool call sees it: every check carries the call's id (so the question shown is
 * tied to the call's card) and every decision is remembered, so the call's outcome can say what decided it.
 */
export function recordingBroker(inner: ApprovalBroker, callId: string): { broker: ApprovalBroker; decisions: ApprovalOutcome[] } {
  const decisions: ApprovalOutcome[] = [];
  return {
    decisions,
    broker: {
      async check(sessionId, command, signal, options = {}) {
        const checked: ToolCheckOptions = { ...options, callId };
        const outcome = await inner.check(sessionId, command, signal, checked);
        decisions.push(outcome);
        return outcome;
      },
    },
  };
}

/**
 * How a call ended, from its result and the approvals it asked for: a refused approval means the action did not
 * happen (`denied`, or `timed_out` when nobody answered in time), whatever the result text says; an interrupt is
 * `cancelled`; an error result is `failed`. The note lists what decided each approval that was not plain safe.
 */
export function toolOutcome(result: ToolResult, decisions: readonly ApprovalOutcome[], cancelled: boolean): ToolOutcome {
  const notes = [...new Set(decisions.filter((d) => d.reason !== 'safe').map((d) => d.reason))];
  const note = notes.length === 0 ? {} : { note: notes.join(', ') };
  if (cancelled) return { status: 'cancelled', ...note };
  const refused = decisions.find((d) => !d.approved);
  if (refused !== undefined) return { status: refused.reason === 'timeout' ? 'timed_out' : 'denied', ...note };
  return { status: result.isError === true ? 'failed' : 'done', ...note };
}
