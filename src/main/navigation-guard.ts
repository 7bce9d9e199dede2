/**
 * Keeps each window on `app://hearth`: navigations and redirects elsewhere are cancelled, new windows are
 * never created, and a link the user clicks opens in their browser only when it is a plain https URL
 * (parsed, no credentials). A renderer showing model output must not be steerable to `javascript:`,
 * `file:`, or a phishing page inside the app's trusted frame.
 */
import { isAppUrl } from './app-origin.js';

const MAX_EXTERNAL_URL_LENGTH = 4000;

/** The https URL to open, or null when the link must not leave the app. */
export function safeExternalUrl(raw: string): URL | null {
  if (raw.length > MAX_EXTERNAL_URL_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Not a URL: nothing to open.
    return null;
  }
  if (url.protocol !== 'https:') return null;
  // Credentials in a link are a classic disguise (https://bank.example@evil.example/).
  if (url.username !== '' || url.password !== '') return null;
  if (url.hostname === '') return null;
  return url;
}

/** The slice of Electron's `webContents` the guard attaches to. */
export interface GuardedContents {
  on(event: 'will-navigate' | 'will-redirect', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

export interface NavigationGuardOptions {
  /** `shell.openExternal`; only ever given a vetted https URL. */
  openExternal: (url: string) => Promise<void>;
  log: (message: string) => void;
}

/** Opens a link outside the app if it is safe; says whether it did. */
export function openExternalIfSafe(raw: string, options: NavigationGuardOptions): boolean {
  const url = safeExternalUrl(raw);
  if (!url) {
    options.log(`Blocked a link that is not plain https (${raw.slice(0, 20)}…).`);
    return false;
  }
  options.openExternal(url.href).catch((err: unknown) => options.log(`Could not open ${url.origin} in the browser: ${String(err)}`));
  return true;
}

export function guardNavigation(contents: GuardedContents, options: NavigationGuardOptions): void {
  const stayInApp = (event: { preventDefault(): void }, url: string): void => {
    if (isAppUrl(url)) return;
    event.preventDefault();
    openExternalIfSafe(url, options);
  };
  contents.on('will-navigate', stayInApp);
  contents.on('will-redirect', (event, url) => {
    // A redirect is never user intent: block it, open nothing.
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openExternalIfSafe(url, options);
    return { action: 'deny' };
  });
}
