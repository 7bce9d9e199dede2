import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import type { SearchResult, SessionSummary } from '../../shared/contract.js';
import { useServices } from '../app/services.js';
import { ConfirmButton } from '../common/ConfirmButton.js';
import { ErrorText } from '../common/ErrorText.js';
import { useAttempt } from '../common/use-attempt.js';
import { useFormatDate, useT } from '../i18n/i18n.js';
import { splitSnippet } from './snippet.js';

type Session = z.infer<typeof SessionSummary>;
type Result = z.infer<typeof SearchResult>;

function Snippet({ text }: { text: string }) {
  return (
    <span className="snippet" data-testid="search-snippet">
      {splitSnippet(text).map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
    </span>
  );
}

export function SessionsView() {
  const t = useT();
  const formatDate = useFormatDate();
  const { api, chat, nav } = useServices();
  const [sessions, setSessions] = useState<Session[]>([]);
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<Result[] | null>(null);
  const [renaming, setRenaming] = useState<{ id: string; title: string } | null>(null);

  const { error, attempt: run } = useAttempt();
  const reload = useCallback(() => run(async () => setSessions(await api.invoke('sessions.list', { limit: 200 }))), [api, run]);
  useEffect(() => void reload(), [reload]);

  // Runs that failed before the model said anything (the server's "clear failed" deletes exactly these); a session
  // whose last turn failed after earlier replies is marked but kept.
  const failedRuns = sessions.filter((s) => s.lastError !== null && !s.hasReply).length;

  const open = async (sessionId: string) => {
    await chat.getState().openSession(sessionId);
    nav.getState().go('chat');
  };
  const search = () => {
    const q = query.trim();
    if (!q) return setResults(null);
    void run(async () => setResults(await api.invoke('sessions.search', { query: q, limit: 50 })));
  };

  return (
    <section className="page" data-testid="sessions-view">
      <header className="view-header">
        <h1>{t('nav.sessions')}</h1>
      </header>
      <form
        className="search-row"
        onSubmit={(event) => {
          event.preventDefault();
          search();
        }}
      >
        <input type="search" data-testid="session-search" value={query} placeholder={t('sessions.searchPlaceholder')} onChange={(event) => setQuery(event.target.value)} />
        <button type="submit" data-testid="session-search-submit">
          {t('common.search')}
        </button>
      </form>
      <ErrorText error={error} />
      {results !== null && (
        <div className="search-results" data-testid="search-results">
          <h2>{t('sessions.results', { count: results.length })}</h2>
          {results.length === 0 && <p className="muted">{t('sessions.noResults')}</p>}
          {results.map((r) => (
            <button type="button" key={`${r.sessionId}-${r.messageId}`} className="search-result" data-testid="search-result" data-session-id={r.sessionId} onClick={() => void open(r.sessionId)}>
              <span className="result-title">{r.sessionTitle ?? t('sessions.untitled')}</span>
              <span className="muted"> · {r.role} · {formatDate(r.createdAt)}</span>
              <Snippet text={r.snippet} />
            </button>
          ))}
        </div>
      )}
      {failedRuns > 0 && (
        <div className="row-actions">
          <ConfirmButton
            testId="sessions-clear-failed"
            question={t('sessions.confirmClearFailed', { count: failedRuns })}
            onConfirm={() =>
              void run(async () => {
                await api.invoke('sessions.clearFailed', {});
                const current = chat.getState().sessionId;
                await reload();
                if (current !== null && !(await api.invoke('sessions.list', { limit: 200 })).some((s) => s.id === current)) chat.getState().newChat();
              })
            }
          >
            {t('sessions.clearFailed', { count: failedRuns })}
          </ConfirmButton>
        </div>
      )}
      <ul className="session-list" data-testid="session-list">
        {sessions.length === 0 && <li className="muted">{t('sessions.none')}</li>}
        {sessions.map((s) => (
          <li key={s.id} className="session-item" data-testid="session-item" data-session-id={s.id}>
            {renaming?.id === s.id ? (
              <form
                className="rename-row"
                onSubmit={(event) => {
                  event.preventDefault();
                  const title = renaming.title.trim();
                  if (!title) return;
                  setRenaming(null);
                  void run(async () => {
                    await api.invoke('sessions.rename', { sessionId: s.id, title });
                    await reload();
                  });
                }}
              >
                <input data-testid="session-rename-input" value={renaming.title} autoFocus onChange={(event) => setRenaming({ id: s.id, title: event.target.value })} />
                <button type="submit" data-testid="session-rename-save">
                  {t('common.save')}
                </button>
                <button type="button" onClick={() => setRenaming(null)}>
                  {t('common.cancel')}
                </button>
              </form>
            ) : (
              <button type="button" className="session-open" data-testid="session-open" onClick={() => void open(s.id)}>
                <span className="session-title" data-testid="session-title">
                  {s.title ?? t('sessions.untitled')}
                </span>
                {s.lastError !== null && (
                  <span className="session-failed" data-testid="session-failed" title={t('sessions.failedTitle', { error: s.lastError })}>
                    {t('sessions.failed')}
                  </span>
                )}
                <span className="muted">
                  {t('sessions.meta', { count: s.messageCount, model: s.model, date: formatDate(s.updatedAt) })}
                </span>
              </button>
            )}
            <span className="row-actions">
              <button type="button" data-testid="session-rename" onClick={() => setRenaming({ id: s.id, title: s.title ?? '' })}>
                {t('common.rename')}
              </button>
              <button
                type="button"
                data-testid="session-branch"
                onClick={() =>
                  void run(async () => {
                    const { sessionId } = await api.invoke('sessions.branch', { sessionId: s.id });
                    await reload();
                    await open(sessionId);
                  })
                }
              >
                {t('sessions.branch')}
              </button>
              <ConfirmButton
                testId="session-delete"
                question={t('sessions.confirmDelete')}
                onConfirm={() =>
                  void run(async () => {
                    await api.invoke('sessions.delete', { sessionId: s.id });
                    if (chat.getState().sessionId === s.id) chat.getState().newChat();
                    await reload();
                  })
                }
              >
                {t('common.delete')}
              </ConfirmButton>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
