import { join } from 'node:path';

/**
 * `hearth gateway install`: the unit that keeps `hearth gateway` running without a desktop, a systemd user unit on
 * Linux and a launchd agent on macOS. Secrets are never written into it: the bot tokens' variables come from
 * `gateway.env` under HEARTH_HOME (which the user creates, mode 0600) and the database key from the keychain.
 */
export interface ServiceUnitInput {
  /** Absolute path of the node binary. */
  node: string;
  /** Arguments before `gateway`: the loader and the CLI entry script. */
  entryArgs: readonly string[];
  home: string;
  /** The user's home directory (where the unit goes). */
  userHome: string;
  /** `$XDG_CONFIG_HOME`, when set. */
  xdgConfigHome?: string;
  /** PATH for the service: systemd and launchd start it with a bare one, and tools the agent runs need the user's. */
  path?: string;
}

export interface ServiceUnit {
  path: string;
  content: string;
  /** What to run to start it (printed, never run by Hearth). */
  enable: string;
}

export const SYSTEMD_UNIT_NAME = 'hearth-gateway.service';
export const LAUNCHD_LABEL = 'dev.hearth.gateway';

export function serviceUnit(platform: NodeJS.Platform, input: ServiceUnitInput): ServiceUnit {
  if (platform === 'darwin') return launchdAgent(input);
  if (platform === 'linux') return systemdUnit(input);
  throw new Error(`hearth gateway install supports Linux (systemd) and macOS (launchd); on ${platform}, run \`hearth gateway\` from the system's own service manager`);
}

function systemdUnit(input: ServiceUnitInput): ServiceUnit {
  const dir = join(input.xdgConfigHome?.trim() || join(input.userHome, '.config'), 'systemd', 'user');
  const command = [input.node, ...input.entryArgs, 'gateway'].map(systemdQuote).join(' ');
  const content = [
    '[Unit]',
    'Description=Hearth gateway (chat platforms, cron, local API)',
    'After=network-online.target',
    'Wants=network-online.target',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${command}`,
    `Environment=${systemdQuote(`HEARTH_HOME=${input.home}`)}`,
    ...(input.path === undefined ? [] : [`Environment=${systemdQuote(`PATH=${input.path}`)}`]),
    // The leading '-': a missing file is not an error (a gateway with no platforms still runs cron and the API).
    `EnvironmentFile=-${systemdQuote(join(input.home, 'gateway.env'))}`,
    'Restart=on-failure',
    'RestartSec=5',
    // SIGTERM is the graceful stop `hearth gateway` handles; give running turns time to finish.
    'KillSignal=SIGTERM',
    'TimeoutStopSec=30',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
  return { path: join(dir, SYSTEMD_UNIT_NAME), content, enable: `systemctl --user daemon-reload && systemctl --user enable --now ${SYSTEMD_UNIT_NAME}` };
}

function launchdAgent(input: ServiceUnitInput): ServiceUnit {
  const args = [input.node, ...input.entryArgs, 'gateway'].map((a) => `    <string>${xmlEscape(a)}</string>`).join('\n');
  const env = [['HEARTH_HOME', input.home], ...(input.path === undefined ? [] : [['PATH', input.path]])]
    .map(([k, v]) => `    <key>${xmlEscape(k ?? '')}</key>\n    <string>${xmlEscape(v ?? '')}</string>`)
    .join('\n');
  const log = join(input.home, 'logs', 'gateway.log');
  const content = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>${LAUNCHD_LABEL}</string>
  <key>ProgramArguments</key>
  <array>
${args}
  </array>
  <key>EnvironmentVariables</key>
  <dict>
${env}
  </dict>
  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <dict>
    <key>SuccessfulExit</key>
    <false/>
  </dict>
  <key>StandardOutPath</key>
  <string>${xmlEscape(log)}</string>
  <key>StandardErrorPath</key>
  <string>${xmlEscape(log)}</string>
</dict>
</plist>
`;
  const path = join(input.userHome, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
  return { path, content, enable: `launchctl bootstrap gui/$(id -u) ${path}` };
}

/** systemd's quoting: double quotes, with backslash, quote and `%` (a specifier) escaped. */
function systemdQuote(value: string): string {
  if (/^[\w/.:=@+-]+$/.test(value)) return value.replace(/%/g, '%%');
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%')}"`;
}

function xmlEscape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
