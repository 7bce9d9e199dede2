import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/core/config/schema.js';
import { applyLaunchAtLogin, autostartDesktopEntry, autostartFilePath, HIDDEN_START_ARG, type LoginItemApp } from '../../src/main/login-item.js';
import { claimSingleInstance, type SingleInstanceApp } from '../../src/main/single-instance.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempConfigHome = () => {
  const d = mkdtempSync(join(tmpdir(), 'hearth-xdg-'));
  dirs.push(d);
  return d;
};

function recordingApp() {
  const settings: unknown[] = [];
  const app: LoginItemApp = { setLoginItemSettings: (s) => void settings.push(s) };
  return { app, settings };
}

describe('launch at login', () => {
  // Bug caught: "launch at login" doing nothing on Linux, where Electron's login-item API is unsupported.
  it('on Linux writes and removes an XDG autostart entry that starts hidden in the tray', () => {
    const configHome = tempConfigHome();
    const { app, settings } = recordingApp();
    const target = { platform: 'linux' as const, executable: '/opt/Hearth/hearth', configHome };
    applyLaunchAtLogin(app, true, target);
    const file = autostartFilePath(configHome);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('[Desktop Entry]');
    expect(text).toContain(`Exec="/opt/Hearth/hearth" ${HIDDEN_START_ARG}`);
    expect(statSync(file).mode & 0o777).toBe(0o644);
    applyLaunchAtLogin(app, false, target);
    expect(existsSync(file)).toBe(false);
    // Turning off when already off is fine.
    applyLaunchAtLogin(app, false, target);
    expect(settings).toEqual([]);
  });

  it.each(['darwin', 'win32'] as const)('on %s uses the OS login-item API', (platform) => {
    const { app, settings } = recordingApp();
    applyLaunchAtLogin(app, true, { platform, executable: 'x', configHome: '/nonexistent' });
    expect(settings).toEqual([{ openAtLogin: true, openAsHidden: true, args: [HIDDEN_START_ARG] }]);
  });

  // Bug caught: an AppImage path with spaces or shell characters breaking (or injecting into) the Exec line.
  it('quotes the executable per the Desktop Entry spec', () => {
    expect(autostartDesktopEntry('/home/a b/Hearth "x" $HOME 100%.AppImage')).toContain('Exec="/home/a b/Hearth \\\\"x\\\\" \\\\$HOME 100%%.AppImage" --hidden');
  });

  // Catches a config that forces the OS login item off when the user never chose, or accepts a non-boolean.
  it('is unset unless config says so, and config refuses a non-boolean', () => {
    expect(ConfigSchema.parse({}).ui.launch_at_login).toBeUndefined();
    expect(ConfigSchema.parse({ ui: { launch_at_login: true } }).ui.launch_at_login).toBe(true);
    expect(ConfigSchema.safeParse({ ui: { launch_at_login: 'yes' } }).success).toBe(false);
  });
});

describe('single instance', () => {
  function fakeApp(lock: boolean) {
    const listeners: (() => void)[] = [];
    let quit = 0;
    const app: SingleInstanceApp = {
      requestSingleInstanceLock: () => lock,
      on: (_e, l) => listeners.push(l),
      quit: () => void quit++,
    };
    return { app, listeners, quits: () => quit };
  }

  // Bug caught: a second launch opening a second engine on the same HEARTH_HOME.
  it('a second instance quits at once', () => {
    const { app, quits, listeners } = fakeApp(false);
    expect(claimSingleInstance(app, () => undefined)).toBe(false);
    expect(quits()).toBe(1);
    expect(listeners).toHaveLength(0);
  });

  it('the first instance focuses its window when another launch happens', () => {
    const { app, quits, listeners } = fakeApp(true);
    let focused = 0;
    expect(claimSingleInstance(app, () => focused++)).toBe(true);
    listeners.forEach((l) => l());
    expect(focused).toBe(1);
    expect(quits()).toBe(0);
  });
});
