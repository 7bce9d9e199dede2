/**
 * OS notifications for work that finished while nobody was looking: a turn that ended with the window
 * hidden (a long task left running in the tray), a background review. Clicking one opens its session.
 * Nothing is shown for what the user is watching, or for a turn they interrupted themselves.
 */
import type { UiEvent } from '../shared/contract.js';

export interface BackgroundNotice {
  title: string;
  body: string;
  sessionId: string;
}

export interface NotifierDeps {
  /** Whether a window showing this session's stream is in front of the user. */
  isUserWatching(sessionId: string): boolean;
  notify(notice: BackgroundNotice): void;
}

const BODY_LIMIT = 180;

function shorten(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > BODY_LIMIT ? `${oneLine.slice(0, BODY_LIMIT - 1)}…` : oneLine;
}

/** The notice an event deserves when nobody is watching, or null. */
export function backgroundNotice(event: UiEvent): BackgroundNotice | null {
  if (event.channel !== 'agent') return null;
  const { sessionId, event: e } = event;
  if (e.type === 'turn_end') {
    switch (e.reason) {
      case 'stop':
        return { sessionId, title: 'Hearth finished', body: shorten(e.final) || 'The task is done.' };
      case 'budget':
        return { sessionId, title: 'Hearth stopped', body: 'It used its whole step budget before finishing. Open the session to continue.' };
      case 'error':
        return { sessionId, title: 'Hearth stopped with an error', body: shorten(e.error?.message ?? 'Open the session for details.') };
      case 'aborted':
        return null;
    }
  }
  if (e.type === 'review' && (e.state === 'finished' || e.state === 'failed')) {
    return { sessionId, title: e.state === 'finished' ? 'Background review finished' : 'Background review failed', body: shorten(e.reason) };
  }
  return null;
}

export function createBackgroundNotifier(deps: NotifierDeps): (event: UiEvent) => void {
  return (event) => {
    const notice = backgroundNotice(event);
    if (notice && !deps.isUserWatching(notice.sessionId)) deps.notify(notice);
  };
}
