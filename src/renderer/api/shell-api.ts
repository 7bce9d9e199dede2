import type { HearthShellApi } from '../../shared/shell-contract.js';

declare global {
  interface Window {
    /** Exposed by the Electron preload for shell-only calls; absent in web mode (a browser tab has no shell). */
    hearthShell?: HearthShellApi;
  }
}

/** The desktop shell's calls (quick prompt, clipboard, external links), or null in web mode. */
export function shellApi(): HearthShellApi | null {
  return window.hearthShell ?? null;
}

/**
 * Copies text. In the desktop app every permission is denied to the page, clipboard included, so the copy goes
 * through the shell; in a browser tab the Clipboard API is the way.
 */
export async function copyText(text: string): Promise<void> {
  const shell = shellApi();
  if (shell) await shell.invoke('clipboard.writeText', { text });
  else await navigator.clipboard.writeText(text);
}
