/**
 * Closing the main window hides it: Hearth keeps running in the tray (gateway, scheduled jobs, the quick
 * prompt). The window really closes only once the app is quitting, because the user chose Quit (tray, app
 * menu, Cmd+Q: all pass through `before-quit`) or the OS is shutting down or logging out.
 */
export type QuitReason = 'user' | 'os-shutdown';

export class CloseBehaviour {
  private quitReason: QuitReason | null = null;

  markQuitting(reason: QuitReason): void {
    this.quitReason ??= reason;
  }

  get quitting(): QuitReason | null {
    return this.quitReason;
  }

  /** What a window's close request should do now. */
  decide(): 'hide' | 'close' {
    return this.quitReason === null ? 'hide' : 'close';
  }
}

/** The slice of a BrowserWindow the behaviour attaches to. */
export interface HideableWindow {
  on(event: 'close', listener: (event: { preventDefault(): void }) => void): unknown;
  hide(): void;
}

export function hideOnClose(window: HideableWindow, behaviour: CloseBehaviour): void {
  window.on('close', (event) => {
    if (behaviour.decide() === 'close') return;
    event.preventDefault();
    window.hide();
  });
}
