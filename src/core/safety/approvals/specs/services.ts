import { REASONS } from '../reasons.js';
import { flag, type Scan } from '../scan.js';
import { valuesOf, type Command, type CommandSpec, type Rule } from './spec.js';

/** Services and the machine itself: shutdown and reboot are hardline; stopping or unloading a service asks. */
const SECURITY_SERVICE = /^(firewalld|ufw|apparmor|auditd|fail2ban|nftables|iptables|ip6tables|ebtables|shorewall|csf|lfd|selinux|clamav[\w-]*|clamd(@[\w-]+)?|sshguard|crowdsec[\w-]*|crowdstrike[\w-]*|falcon-sensor|falco|osqueryd|com\.apple\.alf|wazuh[\w-]*|ossec[\w-]*|sentinel[\w-]*|mdatp|snort|suricata|aide|pf|rkhunter|auditbeat|elastic-agent|WinDefend)(\.service)?$/;

const STOPS = 'stop|disable|mask|kill|isolate|unload|bootout|remove';

function systemctl(command: Command, scan: Scan): void {
  const [verb = '', ...units] = command.operands;
  if (['poweroff', 'reboot', 'halt', 'kexec', 'soft-reboot'].includes(verb)) flag(scan, REASONS.shutdown);
  // `systemctl isolate poweroff.target`, `systemctl start reboot.target`
  if (['isolate', 'start'].includes(verb) && units.some((u) => /^(poweroff|reboot|halt|kexec|shutdown)(\.target)?$/.test(u))) flag(scan, REASONS.shutdown);
  if (['enable', 'link', 'add-wants', 'add-requires', 'set-default', 'preset', 'reenable'].includes(verb)) flag(scan, REASONS.persistence);
  // `systemctl kill '*'`, `systemctl kill init.scope`: every unit, or init itself.
  if (verb === 'kill' && units.some((u) => u === '*' || u === 'init.scope' || u === '-.slice')) flag(scan, REASONS.killAll);
  if (STOPS.split('|').includes(verb)) {
    flag(scan, REASONS.stopService);
    if (units.some((u) => SECURITY_SERVICE.test(u))) flag(scan, REASONS.disableSecurity);
  }
}

function service(command: Command, scan: Scan): void {
  const [unit = '', verb = ''] = command.operands;
  if (/^(stop|disable|remove|kill|uninstall|teardown|zap)$/.test(verb)) {
    flag(scan, REASONS.stopService);
    if (SECURITY_SERVICE.test(unit)) flag(scan, REASONS.disableSecurity);
  }
}

const shutdown = (_c: Command, s: Scan): void => flag(s, REASONS.shutdown);

/** A D-Bus call to logind's or systemd's power methods (`busctl call org.freedesktop.login1 … PowerOff b false`). */
function dbusPower(command: Command, scan: Scan): void {
  const text = command.args.join(' ');
  if (/\borg\.freedesktop\.(login1|systemd1)\b/.test(text) && /(^|[\s.])(Reboot|PowerOff|Halt|KExec|SoftReboot)(WithFlags)?(\s|$)|\bScheduleShutdown\b/.test(text)) flag(scan, REASONS.shutdown);
}

/** Desktop sessions' power actions: `gnome-session-quit --power-off`, `xfce4-session-logout --halt`. */
function sessionPower(command: Command, scan: Scan): void {
  if (command.options.some((o) => /^--(power-?off|reboot|halt|shutdown)$/.test(o) || (command.name === 'xfce4-session-logout' && /^-[hr]$/.test(o)))) flag(scan, REASONS.shutdown);
}

/** `start-stop-daemon --start --exec /bin/rm -- -rf /`: the program it starts, with the words after `--`. */
function startStopDaemon(command: Command, scan: Scan): void {
  const args = command.args;
  const value = (...names: string[]): string | undefined => {
    for (const [i, a] of args.entries()) {
      if (names.includes(a)) return args[i + 1];
      const attached = names.find((n) => n.startsWith('--') && a.startsWith(`${n}=`));
      if (attached !== undefined) return a.slice(attached.length + 1);
    }
    return undefined;
  };
  if (args.some((a) => a === '-K' || a === '--stop')) flag(scan, REASONS.stopService);
  if (!args.some((a) => a === '-S' || a === '--start')) return;
  const program = value('-a', '--startas') ?? value('-x', '--exec');
  const dashes = args.indexOf('--');
  if (program !== undefined) scan.runArgv([program, ...(dashes === -1 ? [] : args.slice(dashes + 1))]);
}

const LAUNCHCTL: readonly Rule[] = [{ sub: 'reboot', unless: /^(logout|apps)$/, reason: REASONS.shutdown }, { sub: 'unload|bootout|remove|disable|kill|stop', reason: REASONS.stopService }, { sub: 'load|bootstrap|submit|enable', reason: REASONS.persistence }];

export const SERVICE_SPECS: readonly CommandSpec[] = [
  { names: ['shutdown', 'reboot', 'halt', 'poweroff', 'telinit', 'shutdown.exe'], check: (c, s) => (c.options.some((o) => o === '-c' || o === '--help') ? undefined : shutdown(c, s)) },
  { names: ['init'], check: (c, s) => (c.operands[0] === '0' || c.operands[0] === '6' ? shutdown(c, s) : undefined) },
  { names: ['systemctl'], values: ['-H', '--host', '-M', '--machine', '-t', '--type', '--state', '-p', '--property', '-n', '--lines', '-o', '--output', '-s', '--signal', '--root'], check: systemctl },
  { names: ['loginctl'], rules: [{ sub: 'poweroff|reboot|halt', reason: REASONS.shutdown }, { sub: 'terminate-session|terminate-user|kill-session|kill-user', reason: REASONS.killProcesses }] },
  { names: ['service', 'rc-service'], check: service },
  { names: ['dbus-send', 'gdbus', 'busctl'], check: dbusPower },
  { names: ['gnome-session-quit', 'xfce4-session-logout', 'lxqt-leave', 'mate-session-save'], check: sessionPower },
  // `rtcwake -m off -s 60` powers the machine off (and wakes it later); `pmset schedule shutdown …` is a scheduled one.
  { names: ['rtcwake'], values: ['-m', '--mode', '-s', '--seconds', '-t', '--time', '-d', '--device', '--date'], check: (c, s) => (valuesOf(c, '-m', '--mode').includes('off') || c.options.some((o) => o === '-moff') ? shutdown(c, s) : undefined) },
  { names: ['pmset'], rules: [{ sub: 'schedule|repeat', operand: /^(shutdown|restart)$/, reason: REASONS.shutdown }] },
  { names: ['start-stop-daemon'], values: ['-x', '--exec', '-a', '--startas', '-p', '--pidfile', '-n', '--name', '-u', '--user', '-c', '--chuid', '-s', '--signal', '-d', '--chdir', '-r', '--chroot', '-N', '--nicelevel', '-R', '--retry', '-g', '--group'], check: startStopDaemon },
  { names: ['launchctl'], rules: LAUNCHCTL },
  // OpenBSD: `rcctl stop|disable unit`, `rcctl set unit status off`.
  { names: ['rcctl'], check: (c, s) => {
    const [verb = '', unit = '', key = '', value = ''] = c.operands;
    if (/^(stop|disable)$/.test(verb) || (verb === 'set' && key === 'status' && value === 'off')) {
      flag(s, REASONS.stopService);
      if (SECURITY_SERVICE.test(unit)) flag(s, REASONS.disableSecurity);
    }
  } },
  // Alpine/OpenRC's shutdown: `openrc-shutdown --poweroff now`, `-r`, `-H`, `-k`.
  { names: ['openrc-shutdown'], rules: [{ option: /^(-[a-zA-Z]*[prHk][a-zA-Z]*|--(poweroff|reboot|halt|kexec))$/, reason: REASONS.shutdown }] },
  // s6: `s6-rc -d change svc` brings a service down; `s6-svc -d|-k|-x /run/service/svc` stops or kills it.
  { names: ['s6-rc'], rules: [{ option: /^-[a-zA-Z]*d/, reason: REASONS.stopService }] },
  { names: ['s6-svc'], rules: [{ option: /^-[a-zA-Z]*[dkxsq]/, reason: REASONS.stopService }] },
  { names: ['supervisorctl'], values: ['-c', '--configuration', '-s', '--serverurl', '-u', '--username', '-p', '--password'], rules: [{ sub: 'stop|remove|shutdown|signal', reason: REASONS.stopService }] },
  { names: ['sv'], rules: [{ sub: 'stop|down|kill|exit|force-stop', reason: REASONS.stopService }] },
  { names: ['update-rc.d'], rules: [{ sub: '* disable|remove', reason: REASONS.stopService }] },
  { names: ['rc-update'], rules: [{ sub: 'del|delete', reason: REASONS.stopService }] },
  { names: ['chkconfig'], rules: [{ sub: '* off', reason: REASONS.stopService }, { option: /^--del$/, reason: REASONS.stopService }] },
  { names: ['brew'], rules: [{ sub: 'services stop|kill|cleanup', reason: REASONS.stopService }, { sub: 'uninstall|remove|rm|autoremove|untap|zap', reason: REASONS.packageRemove }] },
  { names: ['pm2'], rules: [{ sub: 'kill', reason: REASONS.killProcesses }, { sub: 'stop|delete|del|restart|reload', operand: /^all$/, reason: REASONS.stopService }] },
];
