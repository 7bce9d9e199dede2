import type { z } from 'zod';
import type { ApprovalChoice } from '../../shared/contract.js';
import { useChat, useSettings } from '../app/services.js';
import { useNow } from '../common/use-now.js';
import { useT, type MessageKey } from '../i18n/i18n.js';
import { approvalReason } from '../i18n/approval-reasons.js';

const CHOICES: { choice: z.infer<typeof ApprovalChoice>; label: MessageKey; className: string }[] = [
  { choice: 'once', label: 'approval.once', className: 'primary' },
  { choice: 'session', label: 'approval.session', className: '' },
  { choice: 'always', label: 'approval.always', className: '' },
  { choice: 'deny', label: 'approval.deny', className: 'danger' },
];

const TITLES = { command: 'approval.title', file_write: 'approval.titleFile', self_modification: 'approval.titleSelf', message: 'approval.titleMessage' } as const;

/**
 * The oldest unanswered approval, from any session. It fails closed: once `expiresAt` passes (or the engine says it
 * timed out) the command has been denied, so the buttons go and the modal says so instead of pretending it can still
 * run. It says honestly what undo there is: "cannot be undone" for what no checkpoint covers, the folder a
 * checkpoint is taken of when one is, and nothing promised otherwise.
 */
export function ApprovalModal() {
  const t = useT();
  const language = useSettings((s) => s.language);
  // An open question first: one kept only to show that it timed out must not hide one that can still be answered.
  const approval = useChat((s) => s.approvals.find((a) => !a.timedOut) ?? s.approvals[0]);
  const answer = useChat((s) => s.answerApproval);
  const dismiss = useChat((s) => s.dismissApproval);
  const error = useChat((s) => s.actionError);
  const now = useNow(250);
  if (!approval) return null;
  const secondsLeft = Math.max(0, Math.ceil((approval.expiresAt - now) / 1000));
  const expired = secondsLeft === 0 || approval.timedOut;
  return (
    <div className="modal-backdrop">
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby="approval-title" data-testid="approval-modal" data-approval-id={approval.id}>
        <h2 id="approval-title">{t(TITLES[approval.kind])}</h2>
        <pre className="approval-command" data-testid="approval-command">
          {approval.command}
        </pre>
        <div className="tool-label">{t('approval.why')}</div>
        <ul className="approval-reasons" data-testid="approval-reasons">
          {approval.reasons.map((reason) => (
            <li key={reason}>{approvalReason(language, reason)}</li>
          ))}
        </ul>
        {approval.irreversible ? (
          <p className="approval-undo irreversible" data-testid="approval-undo" data-undo="none">
            {t('approval.irreversible')}
          </p>
        ) : approval.checkpoint !== null ? (
          <p className="approval-undo" data-testid="approval-undo" data-undo="checkpoint">
            {t('approval.checkpoint', { folder: approval.checkpoint })}
          </p>
        ) : (
          <p className="approval-undo muted" data-testid="approval-undo" data-undo="unknown">
            {t('approval.noCheckpoint')}
          </p>
        )}
        {expired ? (
          <div className="approval-expired" data-testid="approval-timed-out" role="alert">
            {t('approval.timedOut')}
          </div>
        ) : (
          <div className="approval-countdown" data-testid="approval-countdown">
            {t('approval.timeLeft', { seconds: secondsLeft })}
          </div>
        )}
        {error && (
          <div className="error" role="alert">
            {error}
          </div>
        )}
        <div className="modal-buttons">
          {expired ? (
            <button type="button" data-testid="approval-dismiss" onClick={() => dismiss(approval.id)}>
              {t('common.close')}
            </button>
          ) : (
            CHOICES.map(({ choice, label, className }) => (
              <button key={choice} type="button" className={className} data-testid={`approval-${choice}`} onClick={() => void answer(approval.id, choice)}>
                {t(label)}
              </button>
            ))
          )}
        </div>
      </div>
    </div>
  );
}
