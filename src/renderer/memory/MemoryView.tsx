import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import type { MemoryStoreView, UserFactView } from '../../shared/contract.js';
import { useServices } from '../app/services.js';
import { ErrorText } from '../common/ErrorText.js';
import { useAttempt } from '../common/use-attempt.js';
import { useT } from '../i18n/i18n.js';
import { MemoryStoreCard } from './MemoryStoreCard.js';

export function MemoryView() {
  const t = useT();
  const { api, chat, nav } = useServices();
  const [stores, setStores] = useState<z.infer<typeof MemoryStoreView>[]>([]);
  const [facts, setFacts] = useState<z.infer<typeof UserFactView>[]>([]);

  const { error, attempt } = useAttempt();
  const reload = useCallback(
    () =>
      attempt(async () => {
        const [s, f] = await Promise.all([api.invoke('memory.list', {}), api.invoke('userModel.facts', {})]);
        setStores(s);
        setFacts(f);
      }),
    [api, attempt],
  );
  useEffect(() => void reload(), [reload]);

  const change = (action: () => Promise<unknown>) => attempt(async () => {
    await action();
    await reload();
  });

  const openEvidence = async (sessionId: string) => {
    await chat.getState().openSession(sessionId);
    nav.getState().go('chat');
  };

  return (
    <section className="page" data-testid="memory-view">
      <header className="view-header">
        <h1>{t('nav.memory')}</h1>
      </header>
      <ErrorText error={error} testId="memory-error" />
      <div className="memory-stores">
        {stores.map((store) => (
          <MemoryStoreCard
            key={store.target}
            store={store}
            actions={{
              add: (content) => change(() => api.invoke('memory.add', { target: store.target, content })),
              replace: (oldText, content) => change(() => api.invoke('memory.replace', { target: store.target, oldText, content })),
              remove: (oldText) => change(() => api.invoke('memory.remove', { target: store.target, oldText })),
            }}
          />
        ))}
      </div>
      <h2>{t('memory.userModel')}</h2>
      <ul className="facts" data-testid="user-facts">
        {facts.length === 0 && <li className="muted">{t('memory.noFacts')}</li>}
        {facts.map((fact) => (
          <li key={fact.id} className="fact card" data-testid="user-fact">
            <div>
              <strong>{fact.statement}</strong>
              <span className="muted">
                {' '}
                · {fact.category} · {t('memory.confidence', { percent: Math.round(fact.confidence * 100) })}
              </span>
            </div>
            <ul className="evidence">
              {fact.evidence.map((e) => (
                <li key={e.messageId} data-testid="fact-evidence">
                  <q>{e.excerpt}</q>
                  {e.sessionId && (
                    <button type="button" className="link" data-testid="fact-evidence-open" onClick={() => void openEvidence(e.sessionId as string)}>
                      {t('memory.openSession')}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
