import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import type { PendingChange } from '../../shared/contract.js';
import { errorMessage } from '../api/api-error.js';
import { useServices } from '../app/services.js';
import { ErrorText } from '../common/ErrorText.js';
import { useT } from '../i18n/i18n.js';
import { DiffView } from './DiffView.js';

/** Changes the agent proposed (with write approval on) that wait for the user's yes or no. */
export function PendingChanges({ kind, onDecided }: { kind: z.infer<typeof PendingChange>['kind']; onDecided?: () => void }) {
  const t = useT();
  const { api } = useServices();
  const [changes, setChanges] = useState<z.infer<typeof PendingChange>[]>([]);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      setChanges((await api.invoke('pending.list', {})).filter((c) => c.kind === kind));
    } catch (e) {
      setError(errorMessage(e));
    }
  }, [api, kind]);
  useEffect(() => void reload(), [reload]);

  const decide = async (id: number, approve: boolean) => {
    try {
      await api.invoke('pending.decide', { id, approve });
      setError(null);
      onDecided?.();
    } catch (e) {
      setError(errorMessage(e));
    }
    await reload();
  };

  if (changes.length === 0 && !error) return null;
  return (
    <div className="pending" data-testid="pending-changes" data-kind={kind}>
      <h2>{t('pending.title')}</h2>
      <ErrorText error={error} />
      {changes.map((change) => (
        <div key={change.id} className="pending-change" data-testid="pending-change" data-pending-id={change.id}>
          <div className="pending-summary">{change.summary}</div>
          {change.diff ? <DiffView diff={change.diff} /> : <p className="muted">{t('pending.noDiff')}</p>}
          <div className="row-actions">
            <button type="button" className="primary" data-testid="pending-approve" onClick={() => void decide(change.id, true)}>
              {t('pending.approve')}
            </button>
            <button type="button" className="danger" data-testid="pending-reject" onClick={() => void decide(change.id, false)}>
              {t('pending.reject')}
            </button>
          </div>
        </div>
      ))}
    </div>
  );
}
