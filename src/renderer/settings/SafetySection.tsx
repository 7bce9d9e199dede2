import { useCallback, useEffect, useState } from 'react';
import type { RouteOutput } from '../../shared/contract.js';
import { useServices } from '../app/services.js';
import { ConfirmButton } from '../common/ConfirmButton.js';
import { ErrorText } from '../common/ErrorText.js';
import { useAttempt } from '../common/use-attempt.js';
import { translateRecorded, useFormatDate, useT } from '../i18n/i18n.js';

type Checkpoints = RouteOutput<'checkpoints.list'>;
type LogEntry = RouteOutput<'approvals.log'>[number];

const LOG_SHOWN = 50;

/**
 * The desktop's undo and audit trail: the workspace's checkpoints (what changed since each, and a restore that can
 * itself be undone) and the latest approval decisions — what ran unasked and why, what was approved or refused.
 */
export function SafetySection() {
  const t = useT();
  const formatDate = useFormatDate();
  const { api } = useServices();
  const [checkpoints, setCheckpoints] = useState<Checkpoints | null>(null);
  const [log, setLog] = useState<LogEntry[]>([]);
  const [diff, setDiff] = useState<{ number: number; text: string } | null>(null);
  const [restored, setRestored] = useState<string | null>(null);

  const { error, attempt } = useAttempt();
  const reload = useCallback(
    () =>
      attempt(async () => {
        setCheckpoints(await api.invoke('checkpoints.list', {}));
        setLog(await api.invoke('approvals.log', { limit: LOG_SHOWN }));
      }),
    [api, attempt],
  );
  useEffect(() => void reload(), [reload]);

  const restore = (number: number) =>
    attempt(async () => {
      const result = await api.invoke('checkpoints.rollback', { number });
      setDiff(null);
      setRestored(t('safety.restored', { restored: result.restored.length, removed: result.removed.length }));
      await reload();
    });

  return (
    <div className="settings-section" data-testid="safety-section">
      <h2>{t('safety.checkpoints')}</h2>
      <ErrorText error={error} testId="safety-error" />
      {checkpoints && <p className="muted">{checkpoints.enabled ? t('safety.project', { project: checkpoints.project }) : t('safety.off')}</p>}
      {restored && <p data-testid="safety-restored">{restored}</p>}
      {checkpoints?.enabled && checkpoints.checkpoints.length === 0 && <p className="muted">{t('safety.none')}</p>}
      <ul className="checkpoint-list">
        {checkpoints?.checkpoints.map((c) => (
          <li key={c.number} className="card" data-testid="checkpoint" data-number={c.number}>
            <div>
              <strong>#{c.number}</strong> <span data-testid="checkpoint-reason">{c.reason}</span>
              {c.covers.length > 0 && (
                <span data-testid="checkpoint-covers"> {t('safety.covers', { changes: c.covers.join(', ') })}</span>
              )}{' '}
              <span className="muted">· {formatDate(c.time)} · {t('safety.files', { count: c.filesChanged })}</span>
            </div>
            <button type="button" data-testid="checkpoint-diff" onClick={() => void attempt(async () => setDiff({ number: c.number, text: (await api.invoke('checkpoints.diff', { number: c.number })).diff }))}>
              {t('safety.showChanges')}
            </button>
            <ConfirmButton testId="checkpoint-restore" question={t('safety.restoreQuestion', { number: c.number })} confirmLabel={t('safety.restore')} onConfirm={() => void restore(c.number)}>
              {t('safety.restore')}
            </ConfirmButton>
          </li>
        ))}
      </ul>
      {diff && (
        <pre className="checkpoint-diff" data-testid="checkpoint-diff-text">
          {diff.text === '' ? t('safety.noChanges', { number: diff.number }) : diff.text}
        </pre>
      )}

      <h2>{t('safety.log')}</h2>
      {log.length === 0 && <p className="muted">{t('safety.logEmpty')}</p>}
      <ul className="approval-log">
        {log.map((entry, index) => (
          <li key={`${entry.at}-${index}`} data-testid="approval-log-entry" data-approved={entry.approved}>
            <span className={entry.approved ? 'muted' : 'danger-text'}>{entry.approved ? t('safety.ran') : t('safety.refused')}</span>{' '}
            <code>{entry.command}</code> <span className="muted">· {translateRecorded(t, 'decision', entry.decision)}{entry.origin === 'user' ? '' : ` · ${translateRecorded(t, 'origin', entry.origin)}`} · {formatDate(entry.at)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
