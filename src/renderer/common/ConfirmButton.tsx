import { useState, type ReactNode } from 'react';
import { useT } from '../i18n/i18n.js';

/**
 * A destructive action that asks first, in place (no `window.confirm`: it blocks the renderer and cannot be
 * styled or translated). The confirm button's test id is the button's plus `-confirm`.
 */
export function ConfirmButton({ testId, onConfirm, children, question, confirmLabel }: { testId: string; onConfirm: () => void; children: ReactNode; question: string; confirmLabel?: string }) {
  const t = useT();
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="danger" data-testid={testId} onClick={() => setAsking(true)}>
        {children}
      </button>
    );
  }
  return (
    <span className="confirm" role="group">
      <span>{question}</span>
      <button
        type="button"
        className="danger"
        data-testid={`${testId}-confirm`}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel ?? t('common.yesDelete')}
      </button>
      <button type="button" data-testid={`${testId}-cancel`} onClick={() => setAsking(false)}>
        {t('common.cancel')}
      </button>
    </span>
  );
}
