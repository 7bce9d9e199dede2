import { describe, expect, it } from 'vitest';
import { hardenedWebPreferences, mainWindowOptions, quickPromptWindowOptions } from '../../src/main/window-options.js';

/** Bug caught: any window created with a weakened flag (the classic sandbox:false / webSecurity:false / nodeIntegration:true). */
const input = { preloadPath: '/opt/hearth/dist/preload/preload.cjs', devTools: false };

const REQUIRED = {
  sandbox: true,
  contextIsolation: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  spellcheck: false,
  navigateOnDragDrop: false,
  experimentalFeatures: false,
  enableWebSQL: false,
  preload: input.preloadPath,
  devTools: false,
};

describe('window options', () => {
  it.each([
    ['main window', mainWindowOptions(input)],
    ['quick-prompt window', quickPromptWindowOptions(input)],
  ])('the %s is hardened in every flag', (_name, options) => {
    expect(options.webPreferences).toMatchObject(REQUIRED);
    // Nothing that would relax it: no partition with other storage, no extra Node arguments, no Blink features.
    expect(options.webPreferences).not.toHaveProperty('additionalArguments');
    expect(options.webPreferences).not.toHaveProperty('enableBlinkFeatures');
    expect(options.webPreferences).not.toHaveProperty('session');
  });

  it('windows start hidden (shown when ready), the quick prompt frameless and on top', () => {
    expect(mainWindowOptions(input).show).toBe(false);
    const quick = quickPromptWindowOptions(input);
    expect(quick).toMatchObject({ frame: false, alwaysOnTop: true, skipTaskbar: true, show: false, resizable: false });
  });

  it('devTools follows the build type', () => {
    expect(hardenedWebPreferences({ ...input, devTools: true }).devTools).toBe(true);
  });
});
