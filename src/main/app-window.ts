import type { WebContentsLike } from './event-forwarder.js';

/** The slice of Electron's `BrowserWindow` the window controllers use (a fake of it runs in tests). */
export interface AppWindow {
  readonly webContents: WebContentsLike;
  show(): void;
  hide(): void;
  focus(): void;
  restore(): void;
  isVisible(): boolean;
  isFocused(): boolean;
  isMinimized(): boolean;
  isDestroyed(): boolean;
  on(event: 'blur' | 'closed', listener: () => void): unknown;
}
