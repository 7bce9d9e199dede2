import { useState } from 'react';
import type { z } from 'zod';
import type { MemoryStoreView } from '../../shared/contract.js';
import { ConfirmButton } from '../common/ConfirmButton.js';
import { useT } from '../i18n/i18n.js';

type StoreView = z.infer<typeof MemoryStoreView>;

export interface MemoryActions {
  add(content: string): Promise<boolean>;
  replace(oldText: string, content: string): Promise<boolean>;
  remove(oldText: string): Promise<boolean>;
  /** Mark an entry as the user's (a standing rule: the agent can only propose changing it), or hand it back. */
  protect(id: number, value: boolean): Promise<boolean>;
}

/** One memory store (`memory` or `user`): its budget, its entries, and their editors. */
export function MemoryStoreCard({ store, actions }: { store: StoreView; actions: MemoryActions }) {
  const t = useT();
  const [draft, setDraft] = useState('');
  const [editing, setEditing] = useState<{ index: number; oldText: string; content: string } | null>(null);
  const percent = store.limitChars > 0 ? Math.round((store.usedChars / store.limitChars) * 100) : 0;
  return (
    <div className="memory-store card" data-testid="memory-store" data-target={store.target}>
      <h2>{store.target === 'memory' ? t('memory.storeMemory') : t('memory.storeUser')}</h2>
      <div className="budget" data-testid="memory-budget">
        <meter min={0} max={store.limitChars} value={store.usedChars} high={store.limitChars * 0.9} />
        <span className="muted">{t('memory.budget', { used: store.usedChars, limit: store.limitChars, percent })}</span>
      </div>
      <ul className="memory-entries">
        {store.entries.length === 0 && <li className="muted">{t('memory.empty')}</li>}
        {store.entries.map((entry) => (
          <li key={entry.index} className="memory-entry" data-testid="memory-entry" data-protected={entry.protected}>
            {editing?.index === entry.index ? (
              <form
                className="entry-edit"
                onSubmit={(event) => {
                  event.preventDefault();
                  const content = editing.content.trim();
                  if (!content) return;
                  void actions.replace(editing.oldText, content).then((ok) => ok && setEditing(null));
                }}
              >
                <textarea data-testid="memory-edit-input" value={editing.content} rows={3} onChange={(event) => setEditing({ ...editing, content: event.target.value })} />
                <button type="submit" className="primary" data-testid="memory-edit-save">
                  {t('common.save')}
                </button>
                <button type="button" onClick={() => setEditing(null)}>
                  {t('common.cancel')}
                </button>
              </form>
            ) : (
              <>
                <span className="entry-text" data-testid="memory-entry-text">
                  {entry.content}
                </span>
                {entry.protected && (
                  <span className="badge" data-testid="memory-protected-badge" title={t('memory.protectedHint')}>
                    {t('memory.protected')}
                  </span>
                )}
                <span className="row-actions">
                  <button
                    type="button"
                    data-testid="memory-protect"
                    aria-pressed={entry.protected}
                    title={entry.protected ? t('memory.unprotectHint') : t('memory.protectHint')}
                    onClick={() => void actions.protect(entry.id, !entry.protected)}
                  >
                    {entry.protected ? t('memory.unprotect') : t('memory.protect')}
                  </button>
                  <button type="button" data-testid="memory-edit" onClick={() => setEditing({ index: entry.index, oldText: entry.content, content: entry.content })}>
                    {t('common.edit')}
                  </button>
                  <ConfirmButton testId="memory-delete" question={t('memory.confirmDelete')} onConfirm={() => void actions.remove(entry.content)}>
                    {t('common.delete')}
                  </ConfirmButton>
                </span>
              </>
            )}
          </li>
        ))}
      </ul>
      <form
        className="entry-add"
        onSubmit={(event) => {
          event.preventDefault();
          const content = draft.trim();
          if (!content) return;
          void actions.add(content).then((ok) => ok && setDraft(''));
        }}
      >
        <textarea data-testid="memory-add-input" value={draft} rows={2} placeholder={t('memory.addPlaceholder')} onChange={(event) => setDraft(event.target.value)} />
        <button type="submit" className="primary" data-testid="memory-add" disabled={!draft.trim()}>
          {t('memory.add')}
        </button>
      </form>
    </div>
  );
}
