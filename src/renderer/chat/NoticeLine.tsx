import { memo, useState } from 'react';
import { errorMessage } from '../api/api-error.js';
import { useServices } from '../app/services.js';
import { useT, type Translate } from '../i18n/i18n.js';
import type { NoticeEvent } from './chat-machine.js';

export function describeNotice(event: NoticeEvent, t: Translate): { level: 'info' | 'warning' | 'error'; text: string } {
  switch (event.type) {
    case 'notice':
      return { level: event.level, text: event.message };
    case 'learning':
      return { level: 'info', text: event.message };
    case 'review':
      return { level: event.state === 'failed' ? 'warning' : 'info', text: t(`review.${event.state}`, { reason: event.reason }) };
    case 'compressed':
      return { level: 'info', text: t('notice.compressed', { before: event.tokensBefore, after: event.tokensAfter, messages: event.summarizedMessages }) };
    case 'model_fallback':
      return { level: 'warning', text: t('notice.fallback', { from: event.from, to: event.to, reason: event.reason }) };
    case 'steer_applied':
      return { level: 'info', text: t('notice.steered', { text: event.text }) };
    case 'approval_resolved':
      return { level: event.approved ? 'info' : 'warning', text: approvalText(event.approved, event.reason, t) };
    case 'turn_error':
      return { level: 'error', text: t('notice.turnError', { code: event.code, message: event.message }) };
    case 'turn_stopped':
      return { level: 'warning', text: event.reason === 'aborted' ? t('notice.interrupted') : t('notice.budget') };
  }
}

/** A line in the thread for something that happened around the conversation (learning, fallback, errors). */
export const NoticeLine = memo(function NoticeLine({ event }: { event: NoticeEvent }) {
  const t = useT();
  const { level, text } = describeNotice(event, t);
  return (
    <div className={`notice notice-${level}`} data-testid="notice" data-kind={event.type} data-level={level} role={level === 'error' ? 'alert' : undefined}>
      {text}
      {event.type === 'learning' && event.undo !== undefined && <UndoMemoryChange changeId={event.undo.memoryChange} />}
    </div>
  );
});

/** Puts back what the agent removed or replaced; says what came back, or why it could not. */
function UndoMemoryChange({ changeId }: { changeId: number }) {
  const t = useT();
  const { api } = useServices();
  const [state, setState] = useState<{ done: boolean; message: string } | null>(null);
  if (state?.done) {
    return (
      <span className="notice-undone" data-testid="notice-undone">
        {' '}
        · {state.message}
      </span>
    );
  }
  const undo = async () => {
    try {
      setState({ done: true, message: (await api.invoke('memory.undo', { changeId })).message });
    } catch (e) {
      setState({ done: false, message: errorMessage(e) });
    }
  };
  return (
    <>
      {' '}
      <button type="button" className="link" data-testid="notice-undo" onClick={() => void undo()}>
        {t('memory.undo')}
      </button>
      {state && (
        <span className="notice-error" role="alert">
          {' '}
          {state.message}
        </span>
      )}
    </>
  );
}

/** The engine's reason is the user's choice (once/session/always/deny) or why the question was withdrawn. */
function approvalText(approved: boolean, reason: string, t: Translate): string {
  switch (reason) {
    case 'once':
      return t('notice.approvedOnce');
    case 'session':
      return t('notice.approvedSession');
    case 'always':
      return t('notice.approvedAlways');
    case 'deny':
      return t('notice.deniedByYou');
    default:
      return approved ? t('notice.approved', { reason }) : t('notice.denied', { reason });
  }
}
