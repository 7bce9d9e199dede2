import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import type { MemoryChangeView, MemoryStoreView, UserFactView } from '../../shared/contract.js';
import { useServices } from '../app/services.js';
import { ErrorText } from '../common/ErrorText.js';
import { useAttempt } from '../common/use-attempt.js';
import { useT } from '../i18n/i18n.js';
import { PendingChanges } from '../skills/PendingChanges.js';
import { AgentChanges } from './AgentChanges.js';
import { MemoryStoreCard } from './MemoryStoreCard.js';
import { UserFacts } from './UserFacts.js';

export function MemoryView() {
  const t = useT();
  const { api, chat, nav } = useServices();
  const [stores, setStores] = useState<z.infer<typeof MemoryStoreView>[]>([]);
  const [facts, setFacts] = useState<z.infer<typeof UserFactView>[]>([]);
  const [changes, setChanges] = useState<z.infer<typeof MemoryChangeView>[]>([]);

  const { error, attempt } = useAttempt();
  const reload = useCallback(
    () =>
      attempt(async () => {
        const [s, f, c] = await Promise.all([api.invoke('memory.list', {}), api.invoke('userModel.facts', {}), api.invoke('memory.changes', {})]);
        setStores(s);
        setFacts(f);
        setChanges(c);
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
              protect: (id, value) => change(() => api.invoke('memory.protect', { id, protected: value })),
            }}
          />
        ))}
      </div>
      <PendingChanges kind="memory" onDecided={() => void reload()} />
      <AgentChanges changes={changes} onUndo={(changeId) => change(() => api.invoke('memory.undo', { changeId }))} />
      <UserFacts
        facts={facts}
        actions={{
          correct: (id, statement) => change(() => api.invoke('userModel.correct', { id, statement })),
          reject: (id) => change(() => api.invoke('userModel.reject', { id })),
          remove: (id) => change(() => api.invoke('userModel.delete', { id })),
          openEvidence,
        }}
      />
      {/* Corrections the model proposed with the user_model tool: they apply only when approved here. */}
      <PendingChanges kind="user_model" onDecided={() => void reload()} />
    </section>
  );
}
