/**
 * BrowserWindow options for the two windows. Both renderers are untrusted as far as main is concerned
 * (they render model output), so both get the same locked-down webPreferences: sandboxed, isolated, no
 * Node, web security on, no webviews, and only the preload's narrow API.
 */
import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';

export interface WindowOptionsInput {
  /** Absolute path of the built preload (`dist/preload/preload.cjs`). */
  preloadPath: string;
  /** DevTools only in development builds. */
  devTools: boolean;
}

export function hardenedWebPreferences(input: WindowOptionsInput): WebPreferences {
  return {
    preload: input.preloadPath,
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    // Spellcheck dictionaries are downloaded from Google at run time: a network call Hearth does not make.
    spellcheck: false,
    // A file dropped on the window becomes an attachment (the renderer handles it), never a navigation.
    navigateOnDragDrop: false,
    experimentalFeatures: false,
    enableWebSQL: false,
    safeDialogs: true,
    devTools: input.devTools,
  };
}

export function mainWindowOptions(input: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    title: 'Hearth',
    width: 1200,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    // Shown on 'ready-to-show', so the user never sees an empty white frame.
    show: false,
    webPreferences: hardenedWebPreferences(input),
  };
}

/** The small frameless window the global shortcut opens: always on top, out of the taskbar. */
export function quickPromptWindowOptions(input: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    title: 'Hearth quick prompt',
    width: 680,
    height: 420,
    frame: false,
    resizable: false,
    movable: true,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    alwaysOnTop: true,
    skipTaskbar: true,
    show: false,
    webPreferences: hardenedWebPreferences(input),
  };
}
