/**
 * Launch at login (off unless the user turns it on). macOS and Windows have an OS API
 * (`app.setLoginItemSettings`); Linux desktops follow the XDG autostart spec: a `.desktop` file in
 * `~/.config/autostart`, written or removed here.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LoginItemApp {
  setLoginItemSettings(settings: { openAtLogin: boolean; openAsHidden?: boolean; args?: string[] }): void;
}

/** Hearth started at login goes straight to the tray; this argument tells main not to show the window. */
export const HIDDEN_START_ARG = '--hidden';

export interface LoginItemTarget {
  platform: NodeJS.Platform;
  /** What to start: the AppImage path on Linux when there is one (`APPIMAGE`), else the executable. */
  executable: string;
  /** `$XDG_CONFIG_HOME` or `~/.config`. */
  configHome: string;
}

export function autostartFilePath(configHome: string): string {
  return join(configHome, 'autostart', 'hearth.desktop');
}

/**
 * The XDG autostart entry. Exec quoting per the Desktop Entry spec: inside double quotes, `"`, backtick,
 * `$` and `\` get a backslash; then the string-value rule doubles every backslash; `%` (field codes) is `%%`.
 */
export function autostartDesktopEntry(executable: string): string {
  const quoted = `"${executable.replace(/(["`$\\])/g, '\\$1')}"`.replace(/\\/g, '\\\\').replace(/%/g, '%%');
  return ['[Desktop Entry]', 'Type=Application', 'Name=Hearth', `Exec=${quoted} ${HIDDEN_START_ARG}`, 'X-GNOME-Autostart-enabled=true', 'Terminal=false', ''].join('\n');
}

export function applyLaunchAtLogin(app: LoginItemApp, enabled: boolean, target: LoginItemTarget): void {
  if (target.platform === 'darwin' || target.platform === 'win32') {
    app.setLoginItemSettings({ openAtLogin: enabled, openAsHidden: true, args: [HIDDEN_START_ARG] });
    return;
  }
  const file = autostartFilePath(target.configHome);
  if (!enabled) {
    rmSync(file, { force: true });
    return;
  }
  mkdirSync(join(target.configHome, 'autostart'), { recursive: true });
  writeFileSync(file, autostartDesktopEntry(target.executable), { mode: 0o644 });
}
