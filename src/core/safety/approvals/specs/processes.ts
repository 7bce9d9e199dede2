import { REASONS } from '../reasons.js';
import { flag, UNKNOWN, type Scan } from '../scan.js';
import type { Command, CommandSpec } from './spec.js';

/**
 * Process control: `kill -1` (every process) is hardline; pid 1, a pid computed at run time (`$(pgrep …)`,
 * `$(ps …)`), and killing by name, pattern or user (pkill, killall) ask. Killing one known pid is routine.
 */
function kill(command: Command, scan: Scan): void {
  const args = command.args;
  if (args.some((a) => a === '-l' || a === '-L' || a === '--list')) return;
  const targets: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i] as string;
    if (a === '-s' || a === '-n' || a === '--signal') i += 1;
    else if (!a.startsWith('-') || i === args.length - 1) targets.push(a);
  }
  if (args.at(-1) === '-1') flag(scan, REASONS.killAll);
  // `kill $!` ends the job this line started: not broad.
  const computed = targets.some((t) => t.includes(UNKNOWN)) && !/\$!/.test(command.invocation.source);
  if (computed || targets.some((t) => t === '1' || t === '0')) flag(scan, REASONS.killProcesses);
}

/** Names that match far more than the process meant: interpreters, shells, desktops, databases, the system itself. */
const BROAD_NAMES = /^(node|nodejs|python[\d.]*|java|ruby|perl|php|bash|sh|zsh|fish|ssh|sshd|systemd|init|launchd|Xorg|X|gnome-shell|plasmashell|kwin\w*|Finder|Dock|WindowServer|loginwindow|SystemUIServer|explorer(\.exe)?|chrome|google-chrome|chromium|firefox|Safari|docker|dockerd|containerd|postgres|mysqld|redis-server|nginx|apache2|httpd|code|Code|electron|cron|dbus-daemon|pulseaudio|pipewire|tmux|screen|su|sudo|login|getty|agetty|kworker|-)$/;

/** pkill/killall by user, terminal, session or parent, by a catch-all pattern, or by a name shared by many processes. */
function killByName(command: Command, scan: Scan): void {
  const byOwner = command.options.some((o) => /^(-[a-zA-Z]*[uUgGtPs]|--(user|uid|group|terminal|parent|session|euid|older-than|younger-than))/.test(o)) && !/^-\d+$/.test(command.options[0] ?? '');
  const patterns = command.operands;
  const broad = patterns.length === 0 || patterns.some((p) => p.includes(UNKNOWN) || p.length < 3 || /^[.^]|\.\*|^\W+$/.test(p) || BROAD_NAMES.test(p));
  if (byOwner || broad) flag(scan, REASONS.killProcesses);
}

export const PROCESS_SPECS: readonly CommandSpec[] = [
  { names: ['kill'], check: kill },
  { names: ['pkill', 'killall', 'skill', 'slay'], values: ['-u', '-U', '-g', '-G', '-t', '-P', '-s', '-n', '-o', '--signal', '-F', '--pidfile', '--ns', '--nslist'], check: killByName },
  { names: ['killall5'], check: (_c, s) => flag(s, REASONS.killAll) },
  { names: ['fuser'], check: (c, s) => (c.options.some((o) => /^-[a-zA-Z]*k/.test(o) || o === '--kill') ? flag(s, REASONS.killProcesses) : undefined) },
  { names: ['tmux'], rules: [{ sub: 'kill-server', reason: REASONS.killProcesses }] },
  { names: ['screen'], rules: [{ option: /^-X$/, operand: /^quit$/, reason: REASONS.killProcesses }] },
];
