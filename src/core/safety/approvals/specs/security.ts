import { REASONS } from '../reasons.js';
import type { CommandSpec } from './spec.js';

/** Firewalls, audit, SELinux, AppArmor, macOS Gatekeeper/SIP, kernel hardening: turning any off asks. */
const off = REASONS.disableSecurity;

export const SECURITY_SPECS: readonly CommandSpec[] = [
  { names: ['setenforce'], rules: [{ operand: /^(0|permissive)$/i, reason: off }] },
  { names: ['ufw'], rules: [{ sub: 'disable|reset', reason: off }, { sub: 'default allow', reason: off }] },
  { names: ['iptables', 'ip6tables', 'iptables-legacy', 'iptables-nft'], rules: [{ option: /^(-F|--flush|-X|--delete-chain)$/, reason: off }, { option: /^(-P|--policy)$/, operand: /^ACCEPT$/, reason: off }] },
  { names: ['nft'], rules: [{ sub: 'flush|delete', reason: off }] },
  { names: ['firewall-cmd'], rules: [{ option: /^(--panic-off|--set-default-zone=trusted|--remove-service=.*|--remove-port=.*)$/, reason: off }] },
  { names: ['pfctl'], rules: [{ option: /^-d$|^-F/, reason: off }] },
  { names: ['sysctl'], rules: [{ operand: /^kernel\.(randomize_va_space|yama\.ptrace_scope|kptr_restrict|dmesg_restrict)=0$/, reason: off }, { option: /^-w$/, operand: /^kernel\.(randomize_va_space|yama\.ptrace_scope)=0$/, reason: off }] },
  { names: ['aa-teardown', 'aa-disable', 'aa-complain'], rules: [{ reason: off }] },
  { names: ['apparmor_parser'], rules: [{ option: /^(-R|--remove)$/, reason: off }] },
  { names: ['auditctl'], rules: [{ option: /^-D$/, reason: off }, { option: /^-e$/, operand: /^0$/, reason: off }] },
  { names: ['semanage'], rules: [{ sub: 'permissive', reason: off }] },
  { names: ['setsebool'], rules: [{ operand: /^(off|0|false)$/i, reason: off }] },
  { names: ['spctl'], rules: [{ option: /^--master-disable$|^--global-disable$/, reason: off }, { sub: 'disable', reason: off }] },
  { names: ['csrutil'], rules: [{ sub: 'disable', reason: off }, { sub: 'authenticated-root disable', reason: off }] },
  { names: ['netsh', 'netsh.exe'], rules: [{ sub: 'advfirewall set * state off', reason: off }] },
];
