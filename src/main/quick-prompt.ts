/**
 * The quick-prompt window: a small frameless window the global shortcut toggles. It is created once and
 * then shown and hidden (so the second press is instant), hides itself when it loses focus like a
 * launcher, and can hand its conversation over to the main window.
 */
import { SHELL_EVENT_CHANNEL, type ShellEvent } from '../shared/shell-contract.js';
import type { AppWindow } from './app-window.js';

export interface QuickPromptDeps {
  /** Builds the window (hardened options, guards) and loads the quick-prompt page. */
  createWindow(): AppWindow;
  /** Opens the main window on a session. */
  showMainOnSession(sessionId: string): void;
}

export class QuickPromptController {
  private current: AppWindow | null = null;

  constructor(private readonly deps: QuickPromptDeps) {}

  get visible(): boolean {
    return this.live()?.isVisible() ?? false;
  }

  toggle(): void {
    if (this.visible) this.hide();
    else this.show();
  }

  show(): void {
    const window = this.live() ?? this.open();
    window.show();
    window.focus();
    const event: ShellEvent = { type: 'quick_prompt_shown' };
    window.webContents.send(SHELL_EVENT_CHANNEL, event);
  }

  hide(): void {
    const window = this.live();
    if (window?.isVisible()) window.hide();
  }

  continueInMain(sessionId: string): void {
    this.hide();
    this.deps.showMainOnSession(sessionId);
  }

  private live(): AppWindow | null {
    return this.current && !this.current.isDestroyed() ? this.current : null;
  }

  private open(): AppWindow {
    const window = this.deps.createWindow();
    this.current = window;
    // Like a launcher: clicking elsewhere puts it away (the conversation stays in its session).
    window.on('blur', () => this.hide());
    window.on('closed', () => {
      if (this.current === window) this.current = null;
    });
    return window;
  }
}
