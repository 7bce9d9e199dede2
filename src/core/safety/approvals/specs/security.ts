import { REASONS } from '../reasons.js';
import { flag, type Scan } from '../scan.js';
import type { Command, CommandSpec } from './spec.js';

/** Firewalls, audit, SELinux, AppArmor, macOS Gatekeeper/SIP, kernel hardening: turning any off asks. */
const off = REASONS.disableSecurity;

/** Kernel parameters that switch a protection off at boot (`selinux=0`, `apparmor=0`, `enforcing=0`, `audit=0`, `mitigations=off`). */
const BOOT_PROTECTION_OFF = /(^|[\s"'=])(selinux|enforcing|apparmor|audit|module\.sig_enforce)=0\b|(^|[\s"'])security=none\b|(^|[\s"'])mitigations=off\b/;

/** Kernel hardening sysctls whose protective value is not 0 (or whose 0/1 is the unsafe one). */
const HARDENING_SYSCTL = /^(kernel\.(randomize_va_space|yama\.ptrace_scope|kptr_restrict|dmesg_restrict|unprivileged_bpf_disabled)|fs\.protected_(symlinks|hardlinks|fifos|regular)|vm\.mmap_min_addr)=0$/;

/**
 * iptables: flushing or deleting chains, a default policy of ACCEPT, or a rule that accepts everything on INPUT or
 * FORWARD (`-I INPUT -j ACCEPT` with no match: no source, port, protocol, interface or module).
 */
function iptables(command: Command, scan: Scan): void {
  const { args, options } = command;
  if (options.some((o) => /^(-F|--flush|-X|--delete-chain)$/.test(o) || /^-[a-zA-Z]*F$/.test(o))) flag(scan, off);
  if (options.some((o) => o === '-P' || o === '--policy') && command.operands.some((o) => /^ACCEPT$/i.test(o))) flag(scan, off);
  const chainAt = args.findIndex((a) => /^(-I|-A|--insert|--append)$/.test(a));
  const target = args.findIndex((a) => a === '-j' || a === '--jump');
  if (chainAt === -1 || target === -1 || !/^ACCEPT$/i.test(args[target + 1] ?? '') || !/^(INPUT|FORWARD)$/i.test(args[chainAt + 1] ?? '')) return;
  const matches = args.some((a) => /^(-s|--source|-d|--destination|-p|--protocol|-i|--in-interface|-m|--match|--dport|--sport|--destination-port|--source-port|--ctstate|--state|--uid-owner)$/.test(a) || a.startsWith('!'));
  if (!matches) flag(scan, off);
}

/**
 * nft takes its command as words or as one argument (`nft 'flush ruleset'`), or as a script (`nft -f -`):
 * flushing or deleting rules, tables or chains turns filtering off, as does a rule that only says `accept`.
 */
function nft(command: Command, scan: Scan): void {
  const texts = [command.operands.join(' ')];
  const stdin = command.invocation.stdin?.text;
  if (command.options.some((o) => /^(-f|--file)$/.test(o)) && stdin !== null && stdin !== undefined) texts.push(stdin);
  for (const text of texts) {
    for (const statement of text.split(/[;\n]/)) {
      const words = statement.trim().split(/\s+/);
      if (/^(flush|delete|destroy)$/.test(words[0] ?? '')) flag(scan, off);
      // `add rule inet filter input accept`: a rule with no match accepts everything.
      if (/^(add|insert)$/.test(words[0] ?? '') && words[1] === 'rule' && words.length === 6 && words[5] === 'accept' && /^(input|forward)$/i.test(words[4] ?? '')) flag(scan, off);
    }
  }
}

/** firewalld: panic off, the trusted zone as default or for an interface/source, removing services or ports, accepting by default. */
function firewallCmd(command: Command, scan: Scan): void {
  const args = command.args;
  const value = (name: string): string[] => args.flatMap((a, i) => (a === name ? [args[i + 1] ?? ''] : a.startsWith(`${name}=`) ? [a.slice(name.length + 1)] : []));
  if (args.includes('--panic-off') || args.some((a) => /^--remove-(service|port)\b/.test(a))) flag(scan, off);
  if (value('--set-default-zone').some((z) => /^trusted$/i.test(z)) || value('--set-target').some((t) => /^ACCEPT$/i.test(t))) flag(scan, off);
  if (value('--zone').some((z) => /^trusted$/i.test(z)) && args.some((a) => /^--(add|change)-(interface|source)\b/.test(a))) flag(scan, off);
}

/** `bcdedit /set testsigning on`, `/set nointegritychecks on`, `/set {default} recoveryenabled No`. */
function bcdedit(command: Command, scan: Scan): void {
  const words = command.operands.map((o) => o.toLowerCase());
  const setting = (name: string): string | undefined => words[words.indexOf(name) + 1];
  if (!words.includes('/set')) return;
  if (['testsigning', 'nointegritychecks'].some((n) => words.includes(n) && /^(on|yes|true)$/.test(setting(n) ?? ''))) flag(scan, off);
  if (words.includes('recoveryenabled') && /^(no|off|false)$/.test(setting('recoveryenabled') ?? '')) flag(scan, off);
}

/**
 * `defaults write` of a macOS protection: the application firewall (`com.apple.alf globalstate 0`), Gatekeeper's
 * re-arming and quarantine (`LSQuarantine false`), library validation (`DisableLibraryValidation true`).
 */
const MAC_PROTECTIONS: ReadonlyArray<readonly [RegExp, RegExp, RegExp]> = [
  [/com\.apple\.alf$/, /^(globalstate|stealthenabled)$/, /^(0|false|no)$/i],
  [/com\.apple\.LaunchServices$/, /^LSQuarantine$/, /^(0|false|no)$/i],
  [/com\.apple\.security$/, /^GKAutoRearm$/, /^(0|false|no)$/i],
  [/com\.apple\.security\.libraryvalidation$/, /^DisableLibraryValidation$/, /^(1|true|yes)$/i],
];

function defaults(command: Command, scan: Scan): void {
  const [verb, domain = '', key = '', value = ''] = command.operands;
  if (verb !== 'write') return;
  const plain = domain.replace(/\.plist$/, '');
  if (MAC_PROTECTIONS.some(([d, k, v]) => d.test(plain) && k.test(key) && v.test(value))) flag(scan, off);
  // The login window's hooks: a script run as root at every login or logout (deprecated, still honoured).
  if (/(^|\/)com\.apple\.loginwindow$/.test(plain) && /^(LoginHook|LogoutHook)$/.test(key) && value !== '') flag(scan, REASONS.persistence);
}

export const SECURITY_SPECS: readonly CommandSpec[] = [
  { names: ['defaults'], check: defaults },
  // The macOS application firewall's own tool: `--setglobalstate off`, `--setallowsigned on` for everything.
  { names: ['socketfilterfw'], rules: [{ option: /^--setglobalstate$/, operand: /^off$/i, reason: off }, { option: /^--setglobalstate=off$/i, reason: off }] },
  { names: ['setenforce'], rules: [{ operand: /^(0|permissive)$/i, reason: off }] },
  { names: ['ufw'], rules: [{ sub: 'disable|reset', reason: off }, { sub: 'default allow', reason: off }, { sub: 'allow from any', unless: /^(port|proto|app)$/, reason: off }] },
  { names: ['iptables', 'ip6tables', 'iptables-legacy', 'iptables-nft', 'ip6tables-legacy', 'ip6tables-nft', 'ebtables', 'arptables'], values: ['-t', '--table'], check: iptables },
  { names: ['nft'], values: ['-f', '--file', '-I', '--includepath'], check: nft },
  { names: ['firewall-cmd', 'firewall-offline-cmd'], check: firewallCmd },
  { names: ['pfctl'], rules: [{ option: /^-d$|^-F/, reason: off }] },
  { names: ['sysctl'], check: (c, s) => (c.operands.some((o) => HARDENING_SYSCTL.test(o.replace(/\//g, '.').replace(/\s+/g, ''))) ? flag(s, off) : undefined) },
  { names: ['aa-teardown', 'aa-disable', 'aa-complain'], rules: [{ reason: off }] },
  { names: ['apparmor_parser'], rules: [{ option: /^(-R|--remove)$/, reason: off }] },
  { names: ['auditctl'], rules: [{ option: /^-D$/, reason: off }, { option: /^-e$/, operand: /^0$/, reason: off }, { option: /^-e0$/, reason: off }] },
  { names: ['semanage'], rules: [{ sub: 'permissive', reason: off }] },
  { names: ['setsebool'], rules: [{ operand: /^(off|0|false)$/i, reason: off }] },
  { names: ['spctl'], rules: [{ option: /^--(master|global)-disable$|^--disable$/, reason: off }, { sub: 'disable', reason: off }, { sub: 'kext-consent disable', reason: off }] },
  // Gatekeeper's quarantine flag, removed so an unsigned download opens unchecked (`xattr -dr com.apple.quarantine X.app`, `xattr -cr`).
  { names: ['xattr'], rules: [{ option: /^-[a-zA-Z]*d/, operand: /^com\.apple\.quarantine$/, reason: off }, { option: /^-[a-zA-Z]*c/, reason: off }] },
  // File capabilities: `setcap cap_net_admin+eip /usr/bin/python3` gives every user of that program root powers.
  { names: ['setcap'], rules: [{ unless: /^-v$/, reason: REASONS.capabilities }] },
  { names: ['icacls', 'icacls.exe'], rules: [{ operand: /^\/(grant|deny|remove|setowner|reset|inheritance|setintegritylevel|restore)(:.*)?$/i, reason: REASONS.windowsPerms }] },
  { names: ['takeown', 'takeown.exe'], rules: [{ operand: /^\/f$/i, reason: REASONS.windowsPerms }] },
  { names: ['csrutil'], rules: [{ sub: 'disable', reason: off }, { sub: 'authenticated-root disable', reason: off }] },
  { names: ['netsh', 'netsh.exe'], rules: [{ sub: 'advfirewall set * state off', reason: off }, { sub: 'advfirewall set * firewallpolicy', operand: /allowinbound/i, reason: off }, { sub: 'firewall set opmode', operand: /^(disable|mode=disable)$/i, reason: off }] },
  { names: ['fail2ban-client'], rules: [{ sub: 'stop', reason: off }, { sub: 'unban', option: /^--all$/, reason: off }, { sub: 'set * idle', operand: /^on$/, reason: off }] },
  // Boot loaders given kernel arguments that switch a protection off; Windows boot settings that do the same.
  { names: ['grubby', 'grub2-editenv', 'grub-editenv', 'kernelstub'], check: (c, s) => (c.args.some((a) => BOOT_PROTECTION_OFF.test(a)) ? flag(s, off) : undefined) },
  { names: ['bcdedit', 'bcdedit.exe'], check: bcdedit },
];
