import { memo } from 'react';
import { useT } from '../i18n/i18n.js';
import type { ChatItem } from './chat-machine.js';

type ToolItem = Extract<ChatItem, { kind: 'tool' }>;

/** One tool call: what was asked, what it printed while running, and how it ended. */
export const ToolCard = memo(function ToolCard({ item }: { item: ToolItem }) {
  const t = useT();
  const state = item.result === null ? 'running' : item.isError ? 'error' : 'done';
  return (
    <details className={`tool-card tool-${state}`} data-testid="tool-card" data-tool={item.name} data-state={state} open={state !== 'done'}>
      <summary>
        <span className="tool-name" data-testid="tool-name">{item.name}</span>
        <span className="tool-state">
          {state === 'running' ? t('tool.running') : state === 'error' ? t('tool.failed') : t('tool.done')}
          {item.durationMs !== null && <span data-testid="tool-duration"> · {t('tool.duration', { seconds: (item.durationMs / 1000).toFixed(1) })}</span>}
        </span>
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
          <div className="tool-label">{item.isError ? t('tool.error') : t('tool.result')}</div>
          <pre data-testid="tool-result">{item.result}</pre>
        </div>
      )}
    </details>
  );
});
