import { memo } from 'react';
import { useT, type Translate } from '../i18n/i18n.js';
import type { NoticeEvent } from './chat-machine.js';

function describe(event: NoticeEvent, t: Translate): { level: 'info' | 'warning' | 'error'; text: string } {
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
      return { level: event.approved ? 'info' : 'warning', text: event.approved ? t('notice.approved', { reason: event.reason }) : t('notice.denied', { reason: event.reason }) };
    case 'turn_error':
      return { level: 'error', text: t('notice.turnError', { code: event.code, message: event.message }) };
    case 'turn_stopped':
      return { level: 'warning', text: event.reason === 'aborted' ? t('notice.interrupted') : t('notice.budget') };
  }
}

/** A line in the thread for something that happened around the conversation (learning, fallback, errors). */
export const NoticeLine = memo(function NoticeLine({ event }: { event: NoticeEvent }) {
  const t = useT();
  const { level, text } = describe(event, t);
  return (
    <div className={`notice notice-${level}`} data-testid="notice" data-kind={event.type} data-level={level} role={level === 'error' ? 'alert' : undefined}>
      {text}
    </div>
  );
});
