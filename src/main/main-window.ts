/**
 * The main window's lifecycle: created on first need, reused while it lives (closing only hides it, see
 * close-behaviour.ts), brought forward by the tray, a second app launch, a notification click or the quick
 * prompt's "continue in main window".
 */
import { SHELL_EVENT_CHANNEL, type ShellEvent } from '../shared/shell-contract.js';
import { MAIN_PAGE_URL } from './app-origin.js';
import type { AppWindow } from './app-window.js';

/** The page URL, opening on a session when one is given (a fresh window reads it at start-up). */
export function mainPageUrl(sessionId?: string): string {
  return sessionId === undefined ? MAIN_PAGE_URL : `${MAIN_PAGE_URL}?session=${encodeURIComponent(sessionId)}`;
}

export class MainWindowController {
  private current: AppWindow | null = null;

  /** `create` builds the window (hardened options, guards, close-to-tray) and loads the given URL. */
  constructor(private readonly create: (url: string) => AppWindow) {}

  get window(): AppWindow | null {
    return this.current && !this.current.isDestroyed() ? this.current : null;
  }

  /** Visible and focused: the user will see an in-window approval modal. */
  isAttentive(): boolean {
    const window = this.window;
    return window !== null && window.isVisible() && !window.isMinimized() && window.isFocused();
  }

  show(): AppWindow {
    const existing = this.window;
    if (existing) {
      if (existing.isMinimized()) existing.restore();
      existing.show();
      existing.focus();
      return existing;
    }
    return this.open(mainPageUrl());
  }

  /** Shows the window on a session: a live page is told to switch, a new one starts on it. */
  showSession(sessionId: string): void {
    const existing = this.window;
    if (!existing) {
      this.open(mainPageUrl(sessionId));
      return;
    }
    const event: ShellEvent = { type: 'open_session', sessionId };
    existing.webContents.send(SHELL_EVENT_CHANNEL, event);
    this.show();
  }

  private open(url: string): AppWindow {
    const window = this.create(url);
    this.current = window;
    window.on('closed', () => {
      if (this.current === window) this.current = null;
    });
    return window;
  }
}
