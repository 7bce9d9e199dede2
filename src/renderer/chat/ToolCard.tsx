import { memo } from 'react';
import { useChat } from '../app/services.js';
import { useT, type MessageKey } from '../i18n/i18n.js';
import { toolCardState, type ChatItem, type ToolCardState } from './chat-machine.js';

type ToolItem = Extract<ChatItem, { kind: 'tool' }>;

const LABELS: Record<ToolCardState, MessageKey> = {
  running: 'tool.running',
  waiting: 'tool.waiting',
  done: 'tool.done',
  failed: 'tool.failed',
  denied: 'tool.denied',
  timed_out: 'tool.timed_out',
  cancelled: 'tool.cancelled',
  ended: 'tool.ended',
};

/**
 * One tool call: what was asked, what it printed while running, and how it ended — "waiting for you" while its
 * approval is open, and denied / timed out / failed as such, also in a reopened session, with what decided.
 */
export const ToolCard = memo(function ToolCard({ item }: { item: ToolItem }) {
  const t = useT();
  const approvals = useChat((s) => s.approvals);
  const clarifyOpen = useChat((s) => s.clarify !== null);
  const state = toolCardState(item, approvals, clarifyOpen);
  const note = item.outcome?.note;
  return (
    <details className={`tool-card tool-${state}`} data-testid="tool-card" data-tool={item.name} data-state={state} open={state !== 'done'}>
      <summary>
        <span className="tool-name" data-testid="tool-name">{item.name}</span>
        <span className="tool-state" data-testid="tool-state">
          {t(LABELS[state])}
          {item.durationMs !== null && <span data-testid="tool-duration"> · {t('tool.duration', { seconds: (item.durationMs / 1000).toFixed(1) })}</span>}
        </span>
        {note !== undefined && (
          <span className="tool-note" data-testid="tool-note">
            {t('tool.note', { note })}
          </span>
        )}
      </summary>
      <div className="tool-section">
        <div className="tool-label">{t('tool.arguments')}</div>
        <pre data-testid="tool-args">{item.args}</pre>
      </div>
      {item.output && (
        <div className="tool-section">
          <div className="tool-label">{t('tool.output')}</div>
          <pre data-testid="tool-output">{item.output}</pre>
        </div>
      )}
      {item.result !== null && (
        <div className="tool-section">
          <div className="tool-label">{state === 'done' || state === 'ended' ? t('tool.result') : t('tool.error')}</div>
          <pre data-testid="tool-result">{item.result}</pre>
        </div>
      )}
    </details>
  );
});
