import { useState } from 'react';
import type { z } from 'zod';
import type { UserFactView } from '../../shared/contract.js';
import { ConfirmButton } from '../common/ConfirmButton.js';
import { useT } from '../i18n/i18n.js';

type Fact = z.infer<typeof UserFactView>;

export interface UserFactActions {
  /** The user's wording replaces the fact (the engine keeps the old one as superseded). */
  correct(id: number, statement: string): Promise<boolean>;
  /** "This is wrong": stop using it, and do not learn it again. */
  reject(id: number): Promise<boolean>;
  remove(id: number): Promise<boolean>;
  openEvidence(sessionId: string): Promise<void>;
}

/** "What Hearth knows about you": the user model's active facts, each with its evidence, owned by the user. */
export function UserFacts({ facts, actions }: { facts: readonly Fact[]; actions: UserFactActions }) {
  const t = useT();
  const [editing, setEditing] = useState<{ id: number; statement: string } | null>(null);
  return (
    <>
      <h2>{t('memory.userModel')}</h2>
      <p className="muted">{t('memory.userModelHint')}</p>
      <ul className="facts" data-testid="user-facts">
        {facts.length === 0 && <li className="muted">{t('memory.noFacts')}</li>}
        {facts.map((fact) => (
          <li key={fact.id} className="fact card" data-testid="user-fact" data-fact-id={fact.id}>
            {editing?.id === fact.id ? (
              <form
                className="entry-edit"
                onSubmit={(event) => {
                  event.preventDefault();
                  const statement = editing.statement.trim();
                  if (statement.length < 3) return;
                  void actions.correct(fact.id, statement).then((ok) => ok && setEditing(null));
                }}
              >
                <textarea data-testid="fact-edit-input" value={editing.statement} rows={2} onChange={(event) => setEditing({ ...editing, statement: event.target.value })} />
                <button type="submit" className="primary" data-testid="fact-edit-save">
                  {t('common.save')}
                </button>
                <button type="button" onClick={() => setEditing(null)}>
                  {t('common.cancel')}
                </button>
              </form>
            ) : (
              <div>
                <strong data-testid="fact-statement">{fact.statement}</strong>
                <span className="muted">
                  {' '}
                  · {fact.category} · {t('memory.confidence', { percent: Math.round(fact.confidence * 100) })}
                  {fact.source === 'user' && <> · {t('memory.factYours')}</>}
                </span>
                <span className="row-actions">
                  <button type="button" data-testid="fact-edit" onClick={() => setEditing({ id: fact.id, statement: fact.statement })}>
                    {t('common.edit')}
                  </button>
                  <button type="button" data-testid="fact-wrong" title={t('memory.factWrongHint')} onClick={() => void actions.reject(fact.id)}>
                    {t('memory.factWrong')}
                  </button>
                  <ConfirmButton testId="fact-delete" question={t('memory.confirmDeleteFact')} onConfirm={() => void actions.remove(fact.id)}>
                    {t('common.delete')}
                  </ConfirmButton>
                </span>
              </div>
            )}
            <ul className="evidence">
              {fact.evidence.map((e) => (
                <li key={e.messageId} data-testid="fact-evidence">
                  {e.sessionId === null ? (
                    <span className="muted">{t('memory.evidenceDeleted')}</span>
                  ) : (
                    <>
                      <q>{e.excerpt}</q>
                      <button type="button" className="link" data-testid="fact-evidence-open" onClick={() => void actions.openEvidence(e.sessionId as string)}>
                        {t('memory.openSession')}
                      </button>
                    </>
                  )}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </>
  );
}
