import type { z } from 'zod';
import type { MemoryChangeView } from '../../shared/contract.js';
import { useFormatDate, useT } from '../i18n/i18n.js';

/**
 * The agent's recent removals and replacements of memory entries, each named and with undo (issue 11):
 * the chat shows the same as it happens, this list keeps it after a reload.
 */
export function AgentChanges({ changes, onUndo }: { changes: readonly z.infer<typeof MemoryChangeView>[]; onUndo: (changeId: number) => Promise<boolean> }) {
  const t = useT();
  const formatDate = useFormatDate();
  if (changes.length === 0) return null;
  return (
    <div className="agent-changes card" data-testid="memory-changes">
      <h2>{t('memory.agentChanges')}</h2>
      <ul className="memory-entries">
        {changes.map((change) => (
          <li key={change.id} className="memory-entry" data-testid="memory-change" data-change-id={change.id} data-undone={change.undone}>
            <span className="entry-text">{change.message}</span>
            <span className="muted">{formatDate(change.createdAt)}</span>
            {change.undone ? (
              <span className="muted" data-testid="memory-change-undone">
                {t('memory.undone')}
              </span>
            ) : (
              <button type="button" data-testid="memory-undo" onClick={() => void onUndo(change.id)}>
                {t('memory.undo')}
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
