import type { ApprovalRequestEvent } from '../../shared/events.js';
import type { ApprovalDecision } from '../safety/approvals/broker.js';
import type { ChatAction, Platform } from './types.js';

/**
 * Approvals in a chat: the broker's question posted where the turn's owner sees it, with buttons where the
 * platform has them (`approve:<id>:once|session|always`, `deny:<id>`) and `/approve ID` otherwise. The gateway
 * keeps who may answer each one: the user whose message started the turn, or an admin.
 */
export interface ChatApproval {
  id: string;
  platform: Platform;
  chatId: string;
  threadId?: string;
  /** The user whose message started the turn. */
  ownerId: string;
  ownerName?: string;
  sessionId: string;
  request: ApprovalRequestEvent;
  /** The message the question was posted as (edited when it is answered). */
  messageId?: string;
}

const DECISIONS: readonly ApprovalDecision[] = ['once', 'session', 'always'];

/** The first characters of an approval id: what a user types after /approve where there are no buttons. */
export function shortId(id: string): string {
  return id.replace(/-/g, '').slice(0, 8);
}

export function approvalActions(id: string): ChatAction[] {
  return [
    { id: `approve:${id}:once`, label: 'Allow once', style: 'primary' },
    { id: `approve:${id}:session`, label: 'Allow for this chat' },
    { id: `approve:${id}:always`, label: 'Always allow' },
    { id: `deny:${id}`, label: 'Deny', style: 'danger' },
  ];
}

/** A button's id back into the approval and the decision; null for ids that are not approval buttons. */
export function parseApprovalAction(actionId: string): { id: string; decision: ApprovalDecision } | null {
  const approve = /^approve:([^:]+):(once|session|always)$/.exec(actionId);
  if (approve !== null) return { id: approve[1] ?? '', decision: approve[2] as ApprovalDecision };
  const deny = /^deny:([^:]+)$/.exec(actionId);
  return deny === null ? null : { id: deny[1] ?? '', decision: 'deny' };
}

/** `/approve ID [once|session|always]` and `/deny ID` (ID may be left out when one question is open in the chat). */
export function parseApprovalCommand(name: '/approve' | '/deny', args: readonly string[]): { idPrefix: string | null; decision: ApprovalDecision } | { error: string } {
  const [first, second] = args;
  if (name === '/deny') return { idPrefix: first ?? null, decision: 'deny' };
  const scoped = DECISIONS.find((d) => d === first);
  if (scoped !== undefined) return { idPrefix: second ?? null, decision: scoped };
  if (second !== undefined && !DECISIONS.includes(second as ApprovalDecision)) return { error: `"${second}" is not a scope: use once, session or always, e.g. /approve ${first ?? 'ID'} once.` };
  return { idPrefix: first ?? null, decision: (second as ApprovalDecision | undefined) ?? 'once' };
}

/** Keyed loosely: a kind added later still gets the general wording instead of failing. */
const ASKS: Partial<Record<string, string>> = {
  command: 'Hearth wants to run this command',
  message: 'Hearth wants to message a chat it has not written to before',
  file_write: 'Hearth wants to write this file',
  self_modification: 'Hearth wants to change its own setup',
};

/** The question as chat text. Without buttons it says how to answer. */
export function approvalText(approval: ChatApproval, hasButtons: boolean, now: number): string {
  const { request } = approval;
  const ask = ASKS[request.kind ?? 'command'] ?? 'Hearth asks for approval';
  const lines = [`⚠️ ${ask}:`, '```', request.command, '```'];
  if (request.reasons.length > 0) lines.push(`Why it asks: ${request.reasons.join('; ')}`);
  if (request.irreversible === true) lines.push('A checkpoint cannot undo this.');
  const seconds = Math.max(0, Math.round((request.expiresAt - now) / 1000));
  lines.push(`Only ${approval.ownerName ?? 'the person who asked'} or an admin can answer. Unanswered in ${seconds} s means denied.`);
  if (!hasButtons) {
    const id = shortId(request.id);
    lines.push(`Reply /approve ${id} (add session or always to allow it for longer) or /deny ${id}.`);
  }
  return lines.join('\n');
}

export function resolvedText(approval: ChatApproval, approved: boolean, reason: string): string {
  const verdict = approved ? `✅ Allowed (${reason})` : `⛔ Denied (${reason})`;
  return `${verdict}:\n\`\`\`\n${approval.request.command}\n\`\`\``;
}
