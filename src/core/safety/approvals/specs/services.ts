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

/**
 * KDE's session manager: `qdbus org.kde.ksmserver /KSMServer logout CONFIRM TYPE MODE` shuts down (TYPE 2) or reboots
 * (TYPE 1) as it logs out; Plasma 6's `org.kde.Shutdown` names the action. A plain logout (TYPE 0) ends the session only.
 */
function kdePower(command: Command, scan: Scan): void {
  const words = command.args.join(' ');
  const logout = /\blogout\s+(?:int32:)?-?\d+\s+(?:int32:)?([12])\b/.exec(words);
  if ((/\bksmserver\b/i.test(words) && logout !== null) || /\borg\.kde\.Shutdown\b.*\b(logoutAndShutdown|logoutAndReboot)\b/.test(words)) flag(scan, REASONS.shutdown);
}

/** A D-Bus client's call, read for the power methods of logind, systemd and KDE. */
function dbusCall(command: Command, scan: Scan): void {
  dbusPower(command, scan);
  kdePower(command, scan);
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

/** ipmitool's power actions that cut or cycle the power (`status`, `on` and `diag` do not). */
const POWER_CUTS = /^(off|cycle|reset|soft)$/;

/**
 * Service managers whose first operand is the verb and the rest the services: which verbs stop (or disable) a service.
 * Upstart, Solaris SMF, dinit, GNU Shepherd, monit, circus, Apache's and RabbitMQ's control tools, Caddy.
 */
const SERVICE_MANAGERS: ReadonlyArray<readonly [string[], RegExp]> = [
  [['initctl'], /^(stop|disable)$/],
  [['svcadm'], /^(disable|mark)$/],
  [['dinitctl'], /^(stop|disable|release|shutdown)$/],
  [['herd'], /^(stop|disable|unload)$/],
  [['monit'], /^(stop|unmonitor|quit)$/],
  [['circusctl'], /^(stop|quit|rm)$/],
  [['apachectl', 'apache2ctl'], /^(stop|graceful-stop)$/],
  [['rabbitmqctl'], /^(stop|stop_app|shutdown|reset|force_reset|close_all_connections)$/],
  [['caddy'], /^stop$/],
];

const ANSIBLE_VALUES = ['-m', '--module-name', '-a', '--args', '-i', '--inventory', '-u', '--user', '-e', '--extra-vars', '-f', '--forks', '-l', '--limit', '-B', '--background', '-P', '--poll', '--become-user', '--become-method', '-c', '--connection', '-t', '--tree', '-T', '--timeout', '-M', '--module-path', '--private-key', '--vault-password-file', '--vault-id'];
const ANSIBLE_SERVICE_MODULE = /^(ansible\.(builtin|windows)\.)?(service|systemd|systemd_service|sysvinit|win_service)$/;

function ansibleService(command: Command, scan: Scan): void {
  // The reboot module restarts the targets; on `localhost` that is this machine (other hosts: remote, as `ssh host reboot`).
  if (valuesOf(command, '-m', '--module-name').some((m) => /^(ansible\.(builtin|windows)\.)?(win_)?reboot$/.test(m))) {
    const hosts = command.operands[0] ?? '';
    if (/^(localhost|127\.0\.0\.1)$/.test(hosts) || valuesOf(command, '-c', '--connection').includes('local')) flag(scan, REASONS.shutdown);
    else flag(scan, REASONS.remoteShell);
  }
  if (!valuesOf(command, '-m', '--module-name').some((m) => ANSIBLE_SERVICE_MODULE.test(m))) return;
  const args = valuesOf(command, '-a', '--args').join(' ');
  if (!/\bstate\s*[=:]\s*["']?stopped\b|\benabled\s*[=:]\s*["']?(no|false)\b/i.test(args)) return;
  flag(scan, REASONS.stopService);
  const unit = /\bname\s*[=:]\s*["']?([\w@.-]+)/.exec(args)?.[1] ?? '';
  if (SECURITY_SERVICE.test(unit)) flag(scan, REASONS.disableSecurity);
}

function stopByVerb(command: Command, scan: Scan, verbs: RegExp): void {
  // `apachectl -k stop`: the verb after a flag is still the first operand.
  const verb = command.operands[0] ?? '';
  if (!verbs.test(verb)) return;
  flag(scan, REASONS.stopService);
  if (command.operands.slice(1).some((u) => SECURITY_SERVICE.test(u.replace(/^svc:\/(\w+\/)*/, '').replace(/:\w+$/, '')))) flag(scan, REASONS.disableSecurity);
}

const LAUNCHCTL: readonly Rule[] = [{ sub: 'reboot', unless: /^(logout|apps)$/, reason: REASONS.shutdown }, { sub: 'unload|bootout|remove|disable|kill|stop', reason: REASONS.stopService }, { sub: 'load|bootstrap|submit|enable', reason: REASONS.persistence }];

export const SERVICE_SPECS: readonly CommandSpec[] = [
  { names: ['shutdown', 'reboot', 'halt', 'poweroff', 'telinit', 'shutdown.exe'], check: (c, s) => (c.options.some((o) => o === '-c' || o === '--help') ? undefined : shutdown(c, s)) },
  { names: ['init'], check: (c, s) => (c.operands[0] === '0' || c.operands[0] === '6' ? shutdown(c, s) : undefined) },
  { names: ['systemctl'], values: ['-H', '--host', '-M', '--machine', '-t', '--type', '--state', '-p', '--property', '-n', '--lines', '-o', '--output', '-s', '--signal', '--root'], check: systemctl },
  { names: ['loginctl'], rules: [{ sub: 'poweroff|reboot|halt', reason: REASONS.shutdown }, { sub: 'terminate-session|terminate-user|kill-session|kill-user', reason: REASONS.killProcesses }] },
  { names: ['service', 'rc-service'], check: service },
  { names: ['dbus-send', 'gdbus', 'busctl', 'qdbus', 'qdbus6', 'qdbus-qt5', 'qdbus-qt6'], check: dbusCall },
  // A server's management controller powers the machine off or cycles it whatever its OS is doing (`-H bmc` another's).
  { names: ['ipmitool'], values: ['-H', '-U', '-P', '-I', '-p', '-L', '-f', '-k', '-y', '-C', '-N', '-R', '-T', '-t', '-b', '-B', '-m', '-o', '-O', '-e', '-K', '-Z'], rules: [{ sub: 'chassis power', operand: POWER_CUTS, reason: REASONS.shutdown }, { sub: 'power', operand: POWER_CUTS, reason: REASONS.shutdown }] },
  // `ansible db -m service -a 'name=postgresql state=stopped'`: the service modules stop or disable what they name.
  { names: ['ansible'], values: ANSIBLE_VALUES, check: ansibleService },
  { names: ['racadm'], values: ['-r', '-u', '-p'], rules: [{ sub: 'serveraction', operand: /^(powerdown|powercycle|hardreset|graceshutdown)$/i, reason: REASONS.shutdown }] },
  ...SERVICE_MANAGERS.map(([names, verbs]): CommandSpec => ({ names, check: (c, s) => stopByVerb(c, s, verbs) })),
  // `nginx -s stop|quit`, `apachectl -k stop`: the signal option of a server stops it (`-s reload` does not).
  { names: ['nginx', 'openresty', 'httpd', 'apache2'], values: ['-c', '-g', '-p', '-e', '-f', '-C', '-d', '-D'], rules: [{ option: /^-[sk]$/, operand: /^(stop|quit|graceful-stop)$/, reason: REASONS.stopService }] },
  { names: ['gnome-session-quit', 'xfce4-session-logout', 'lxqt-leave', 'mate-session-save'], check: sessionPower },
  // `rtcwake -m off -s 60` powers the machine off (and wakes it later); `pmset schedule shutdown …` is a scheduled one.
  { names: ['rtcwake'], values: ['-m', '--mode', '-s', '--seconds', '-t', '--time', '-d', '--device', '--date'], check: (c, s) => (valuesOf(c, '-m', '--mode').includes('off') || c.options.some((o) => o === '-moff') ? shutdown(c, s) : undefined) },
  { names: ['pmset'], rules: [{ sub: 'schedule|repeat', operand: /^(shutdown|restart)$/, reason: REASONS.shutdown }] },
  // FileVault's `fdesetup authrestart` restarts the Mac at once, unlocking the disk for the next boot.
  { names: ['fdesetup'], rules: [{ sub: 'authrestart', reason: REASONS.shutdown }] },
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
