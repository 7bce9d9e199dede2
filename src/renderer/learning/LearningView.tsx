import { useCallback, useEffect, useState } from 'react';
import type { LearningRun } from '../../shared/learning-journal.js';
import { useServices } from '../app/services.js';
import { ErrorText } from '../common/ErrorText.js';
import { useAttempt } from '../common/use-attempt.js';
import { useFormatDate, useT, type MessageKey } from '../i18n/i18n.js';

const KIND_KEYS: Record<LearningRun['kind'], MessageKey> = {
  memory_review: 'learning.kind.memory_review',
  skill_review: 'learning.kind.skill_review',
  combined_review: 'learning.kind.combined_review',
  flush: 'learning.kind.flush',
  reflection: 'learning.kind.reflection',
  curator: 'learning.kind.curator',
};

const OUTCOME_KEYS: Record<NonNullable<LearningRun['outcome']> | 'running', MessageKey> = {
  saved: 'learning.outcome.saved',
  nothing: 'learning.outcome.nothing',
  refused: 'learning.outcome.refused',
  failed: 'learning.outcome.failed',
  cancelled: 'learning.outcome.cancelled',
  running: 'learning.outcome.running',
};

/**
 * The learning journal (issue 11): every background review, flush, reflection and curator run with its outcome
 * and why, so a failure that happened while nobody watched is still found here.
 */
export function LearningView() {
  const t = useT();
  const formatDate = useFormatDate();
  const { api } = useServices();
  const [runs, setRuns] = useState<LearningRun[]>([]);
  const { error, attempt } = useAttempt();
  const reload = useCallback(() => attempt(async () => setRuns(await api.invoke('learning.log', {}))), [api, attempt]);
  useEffect(() => void reload(), [reload]);

  return (
    <section className="page" data-testid="learning-view">
      <header className="view-header">
        <h1>{t('nav.learning')}</h1>
        <button type="button" data-testid="learning-refresh" onClick={() => void reload()}>
          {t('learning.refresh')}
        </button>
      </header>
      <p className="muted">{t('learning.intro')}</p>
      <ErrorText error={error} testId="learning-error" />
      <ul className="learning-runs">
        {runs.length === 0 && <li className="muted">{t('learning.empty')}</li>}
        {runs.map((run) => {
          const outcome = run.outcome ?? 'running';
          return (
            <li key={run.id} className={`card learning-run ${outcome}`} data-testid="learning-run" data-outcome={outcome} data-kind={run.kind}>
              <div>
                <strong>{t(KIND_KEYS[run.kind])}</strong>{' '}
                <span className={`badge${outcome === 'saved' ? ' ok' : ''}`} data-testid="learning-run-outcome">
                  {t(OUTCOME_KEYS[outcome])}
                </span>
                <span className="muted"> · {formatDate(run.startedAt)}</span>
              </div>
              <RunReason run={run} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function RunReason({ run }: { run: LearningRun }) {
  const t = useT();
  if (run.error !== null) return <div className="learning-reason error" data-testid="learning-run-reason">{run.error}</div>;
  if (run.refused.length > 0) {
    return (
      <ul className="learning-reason" data-testid="learning-run-reason">
        {run.refused.map((r, i) => (
          <li key={i}>{t('learning.refusedWrite', { tool: r.tool, reason: r.reason })}</li>
        ))}
      </ul>
    );
  }
  if (run.saved.length > 0) return <div className="learning-reason" data-testid="learning-run-reason">{run.saved.join(' · ')}</div>;
  return null;
}
