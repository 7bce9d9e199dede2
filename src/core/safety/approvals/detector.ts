import type { Classification, Verdict } from './broker.js';
import { commandName, unwrapCommand } from './command-prefixes.js';
import { splitCommandLine } from './command-split.js';

/**
 * Starter classification of shell commands (PARITY §9): `hardline` commands are refused even in yolo
 * mode, `dangerous` ones need the user's approval, the rest are `safe`. Reasons are stable rule
 * descriptions (never the command's own arguments) because the policy remembers approvals per reason.
 */
export const REASONS = {
  deleteCritical: 'recursive delete of the root, home or a system directory',
  mkfs: 'formats a filesystem',
  rawDisk: 'writes raw data to a disk device',
  forkBomb: 'fork bomb',
  killAll: 'kills every process (kill -1)',
  shutdown: 'shuts down or reboots the machine',
  recursiveDelete: 'recursive delete',
  findDelete: 'finds and deletes files',
  worldWritable: 'makes files world-writable',
  recursiveSystemPerms: 'recursive permission or owner change on a system path',
  pipeToShell: 'pipes a download into a shell or interpreter',
  sensitiveWrite: 'writes to a system or security-sensitive file (/etc, ~/.ssh, shell rc files)',
  forcePush: 'force-pushes git history',
  sqlDrop: 'drops or truncates a database table or database',
  sudo: 'runs as root (sudo/doas)',
} as const;

const HARDLINE = new Set<string>([REASONS.deleteCritical, REASONS.mkfs, REASONS.rawDisk, REASONS.forkBomb, REASONS.killAll, REASONS.shutdown]);

const SYSTEM_DIRS = ['/bin', '/boot', '/dev', '/etc', '/lib', '/lib32', '/lib64', '/opt', '/proc', '/root', '/sbin', '/srv', '/sys', '/usr', '/var', '/home'];
const HOME_FORMS = ['~', '$HOME', '${HOME}'];
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish']);
const INTERPRETERS = new Set([...SHELLS, 'python', 'python3', 'perl', 'ruby', 'node', 'php']);
const RC_FILES = new Set(['.bashrc', '.bash_profile', '.bash_login', '.profile', '.zshrc', '.zprofile', '.zshenv', '.zlogin', '.kshrc', '.cshrc', '.tcshrc']);
const DISK_DEVICE = /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d)/;
const MAX_DEPTH = 4;

export function classifyCommand(command: string): Classification {
  const found = new Set<string>();
  classifyInto(command, found, 0);
  const reasons = [...found];
  const verdict: Verdict = reasons.some((r) => HARDLINE.has(r)) ? 'hardline' : reasons.length > 0 ? 'dangerous' : 'safe';
  return { verdict, reasons };
}

function classifyInto(line: string, found: Set<string>, depth: number): void {
  if (depth > MAX_DEPTH) return;
  // Whole-line patterns: these span the operators the splitter cuts on, or live inside quotes.
  if (/(\S+)\s*\(\)\s*\{[^}]*\1\s*\|\s*\1\s*&/.test(line)) found.add(REASONS.forkBomb);
  if (/\b(DROP\s+(TABLE|DATABASE|SCHEMA)|TRUNCATE\s+TABLE)\b/i.test(line)) found.add(REASONS.sqlDrop);
  if (/\b(ba|z|da|k)?sh\b[^|;&]*[<$]\(\s*(curl|wget)\b/.test(line)) found.add(REASONS.pipeToShell);

  const commands = splitCommandLine(line);
  commands.forEach((command, index) => {
    const { argv, wrappers, embedded } = unwrapCommand(command.argv);
    if (wrappers.includes('sudo') || wrappers.includes('doas')) found.add(REASONS.sudo);
    for (const inner of embedded) classifyInto(inner, found, depth + 1);
    for (const target of command.writes) checkWriteTarget(target, found);
    const next = commands[index + 1];
    if (command.pipesToNext && next !== undefined && isDownload(argv) && INTERPRETERS.has(commandName(unwrapCommand(next.argv).argv[0] ?? ''))) {
      found.add(REASONS.pipeToShell);
    }
    classifySimple(argv, found, depth);
  });
}

function classifySimple(argv: string[], found: Set<string>, depth: number): void {
  const word = commandName(argv[0] ?? '');
  // `mkfs.ext4`, `mkfs.vfat`: one rule for the whole family.
  const name = word.startsWith('mkfs.') ? 'mkfs' : word;
  const args = argv.slice(1);
  const operands = args.filter((a) => !a.startsWith('-'));
  switch (name) {
    case 'rm':
      return classifyRm(args, found);
    case 'mkfs':
    case 'mke2fs':
    case 'mkswap':
      found.add(REASONS.mkfs);
      return;
    case 'dd':
      for (const a of args) if (a.startsWith('of=')) checkWriteTarget(a.slice(3), found);
      return;
    case 'kill':
      if (args.at(-1) === '-1') found.add(REASONS.killAll);
      return;
    case 'shutdown':
    case 'reboot':
    case 'halt':
    case 'poweroff':
    case 'telinit':
      found.add(REASONS.shutdown);
      return;
    case 'init':
      if (operands[0] === '0' || operands[0] === '6') found.add(REASONS.shutdown);
      return;
    case 'systemctl':
      if (operands.some((a) => ['poweroff', 'reboot', 'halt', 'kexec'].includes(a))) found.add(REASONS.shutdown);
      return;
    case 'chmod':
    case 'chown':
    case 'chgrp':
      return classifyPermissions(name, args, operands, found);
    case 'tee':
      for (const target of operands) checkWriteTarget(target, found);
      return;
    case 'cp':
    case 'mv':
    case 'install':
    case 'ln':
    case 'rsync':
      if (operands.length >= 2) checkWriteTarget(operands.at(-1) as string, found);
      return;
    case 'sed':
      if (args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) for (const target of operands.slice(1)) checkWriteTarget(target, found);
      return;
    case 'git':
      if (operands[0] === 'push' && (args.some((a) => a === '-f' || a.startsWith('--force')) || operands.some((a) => a.startsWith('+')))) found.add(REASONS.forcePush);
      return;
    case 'find':
      return classifyFind(args, found, depth);
    case 'eval':
      classifyInto(args.join(' '), found, depth + 1);
      return;
    case 'watch':
      classifyInto(operands.join(' '), found, depth + 1);
      return;
    default:
      if (SHELLS.has(name)) {
        const flagIndex = args.findIndex((a) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a));
        if (flagIndex !== -1 && args[flagIndex + 1] !== undefined) classifyInto(args[flagIndex + 1] as string, found, depth + 1);
      }
  }
}

function classifyRm(args: string[], found: Set<string>): void {
  const optionEnd = args.indexOf('--');
  const options = optionEnd === -1 ? args.filter((a) => a.startsWith('-')) : args.slice(0, optionEnd);
  const targets = optionEnd === -1 ? args.filter((a) => !a.startsWith('-')) : args.slice(optionEnd + 1);
  const recursive = options.some((o) => /^-[a-zA-Z]*[rR]/.test(o) || o === '--recursive');
  if (!recursive) return;
  found.add(targets.some(isCriticalDeleteTarget) ? REASONS.deleteCritical : REASONS.recursiveDelete);
}

function classifyPermissions(name: string, args: string[], operands: string[], found: Set<string>): void {
  const mode = operands[0] ?? '';
  if (name === 'chmod' && (/^0*777$/.test(mode) || /(^|,)[ugo]*[ao][ugo]*[+=][rwxXst]*w/.test(mode))) found.add(REASONS.worldWritable);
  const recursive = args.some((a) => /^-[a-zA-Z]*R/.test(a) || a === '--recursive');
  // Home directories are the user's own: `chmod -R` inside a project there is routine.
  const systemRoots = ['/', ...SYSTEM_DIRS.filter((d) => d !== '/home')];
  if (recursive && operands.slice(1).some((p) => isUnder(normalize(p), systemRoots))) found.add(REASONS.recursiveSystemPerms);
}

function classifyFind(args: string[], found: Set<string>, depth: number): void {
  if (args.includes('-delete')) found.add(REASONS.findDelete);
  args.forEach((arg, i) => {
    if (arg !== '-exec' && arg !== '-execdir' && arg !== '-ok') return;
    const end = args.findIndex((a, j) => j > i && (a === ';' || a === '+'));
    const inner = args.slice(i + 1, end === -1 ? args.length : end);
    if (commandName(inner[0] ?? '') === 'rm') found.add(REASONS.findDelete);
    classifySimple(inner, found, depth + 1);
  });
}

function isDownload(argv: string[]): boolean {
  const name = commandName(argv[0] ?? '');
  return name === 'curl' || name === 'wget' || name === 'fetch';
}

function checkWriteTarget(target: string, found: Set<string>): void {
  const path = normalize(target);
  if (DISK_DEVICE.test(path)) {
    found.add(REASONS.rawDisk);
    return;
  }
  const base = path.slice(path.lastIndexOf('/') + 1);
  const inHome = HOME_FORMS.some((h) => path === h || path.startsWith(`${h}/`)) || /^\/(root|home\/[^/]+)(\/|$)/.test(path) || !path.includes('/');
  if (isUnder(path, ['/etc']) || /(^|\/)\.ssh(\/|$)/.test(path) || (RC_FILES.has(base) && inHome)) found.add(REASONS.sensitiveWrite);
}

function isCriticalDeleteTarget(target: string): boolean {
  const path = normalize(target);
  const bases = ['/', ...HOME_FORMS, ...SYSTEM_DIRS, '/root'];
  return bases.some((b) => path === b || path === `${b === '/' ? '' : b}/*`) || /^\/home\/[^/]+\/?\*?$/.test(path);
}

/** `/etc//x/` → `/etc/x`; `/` stays `/`. Relative paths are left alone. */
function normalize(path: string): string {
  const collapsed = path.replace(/\/{2,}/g, '/');
  return collapsed.length > 1 ? collapsed.replace(/\/+$/, '') : collapsed;
}

function isUnder(path: string, roots: string[]): boolean {
  return roots.some((root) => path === root || (root === '/' ? path.startsWith('/') && !path.slice(1).includes('/') : path.startsWith(`${root}/`)));
}
