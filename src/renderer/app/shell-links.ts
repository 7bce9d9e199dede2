import type { HearthShellApi } from '../../shared/shell-contract.js';
import type { Services } from './services.js';

/**
 * Where the desktop shell points the main window at a session: `?session=<id>` when it opens a new window on
 * one (a quick-prompt conversation continued, a notification clicked), and `open_session` events to a window
 * already open. Returns the unsubscribe.
 */
export function followShellLinks(services: Pick<Services, 'chat' | 'nav'>, shell: HearthShellApi, search: string): () => void {
  const open = (sessionId: string) => {
    services.nav.getState().go('chat');
    void services.chat.getState().openSession(sessionId);
  };
  const initial = new URLSearchParams(search).get('session');
  if (initial) open(initial);
  return shell.onShellEvent((event) => {
    if (event.type === 'open_session') open(event.sessionId);
  });
}
