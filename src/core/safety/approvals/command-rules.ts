import { commandName } from './command-prefixes.js';
import { homeRelative, isCriticalPath, isInsideWorkspace, isUnder, normalize, resolvePath, SYSTEM_DIRS } from './paths.js';
import { REASONS } from './reasons.js';
import type { Scan } from './scan.js';
import { checkSelfWrite, classifySelfCommand } from './self-rules.js';
import { classifySystemCommand } from './system-rules.js';

/** Per-command rules for files, disks and processes; system administration lives in system-rules.ts. */
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'ash']);
const CODE_FLAGS = /^-[a-zA-Z]*[ce]$/;
const INLINE_INTERPRETERS = new Set(['python', 'python2', 'python3', 'perl', 'ruby', 'node', 'php']);
const RC_FILES = new Set(['.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zprofile', '.zshenv', '.zlogin', '.kshrc', '.cshrc', '.tcshrc', '.inputrc']);
const HISTORY_FILE = /(^|\/)\.(bash_|zsh_|sh_|python_|node_repl_|psql_|mysql_)?history$/;
const DISK_DEVICE = /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|md\d|dm-\d|mapper\/)/;
const DISK_TOOLS = new Set(['wipefs', 'sgdisk', 'sfdisk', 'fdisk', 'gdisk', 'parted', 'blkdiscard', 'shred', 'badblocks', 'hdparm']);
/** Writes under these need approval; /tmp, /var/tmp and /dev/null-like devices do not. */
const WRITE_PROTECTED = ['/etc', '/boot', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/opt', '/root', '/srv', '/sys', '/proc/sys', '/var'];
const SECRET_FILE = /(^|\/)(\.ssh\/(id_[\w-]+|[\w-]+_key|[\w.-]+\.pem)|\.aws\/credentials|\.netrc|\.git-credentials|\.pgpass|\.docker\/config\.json|\.kube\/config|\.config\/gh\/hosts\.yml|\.gnupg\/[\w.-]+|\/etc\/g?shadow)$/;

export function classifySimple(argv: string[], scan: Scan, depth: number): void {
  const word = commandName(argv[0] ?? '');
  const name = word.startsWith('mkfs.') ? 'mkfs' : word;
  const args = argv.slice(1);
  const operands = args.filter((a) => !a.startsWith('-'));
  switch (name) {
    case 'cd':
    case 'pushd':
      scan.paths.cwd = operands[0] === undefined ? (scan.paths.home ?? null) : resolvePath(operands[0], scan.paths);
      return;
    case 'rm':
      return classifyRm(args, scan);
    case 'mv':
      if (operands.slice(0, -1).some((p) => isCriticalPath(p, scan.paths))) scan.found.add(REASONS.deleteCritical);
      if (operands.length >= 2) checkWriteTarget(operands.at(-1) as string, scan);
      for (const source of operands.slice(0, -1)) if (HISTORY_FILE.test(source)) scan.found.add(REASONS.history);
      return;
    case 'mkfs':
    case 'mke2fs':
    case 'mkswap':
      scan.found.add(REASONS.mkfs);
      return;
    case 'dd':
      for (const a of args) if (a.startsWith('of=')) checkWriteTarget(a.slice(3), scan);
      return;
    case 'kill':
      if (args.at(-1) === '-1') scan.found.add(REASONS.killAll);
      return;
    case 'chmod':
    case 'chown':
    case 'chgrp':
      return classifyPermissions(name, args, operands, scan);
    case 'tee':
    case 'truncate':
      for (const target of operands) checkWriteTarget(target, scan);
      return;
    case 'cp':
    case 'install':
    case 'ln':
    case 'rsync':
      if (operands.length >= 2) checkWriteTarget(operands.at(-1) as string, scan);
      return;
    case 'sed':
    case 'perl':
      if (args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) for (const target of operands.slice(1)) checkWriteTarget(target, scan);
      if (name === 'perl') classifyInlineCode(args, scan, depth);
      return;
    case 'curl':
    case 'wget':
      return classifyDownload(name, args, scan);
    case 'find':
      return classifyFind(args, scan, depth);
    case 'eval':
      scan.recurse(args.join(' '), depth + 1);
      return;
    case 'watch':
      scan.recurse(operands.join(' '), depth + 1);
      return;
    case 'su':
    case 'runuser': {
      const code = args.findIndex((a) => a === '-c' || a === '--command');
      if (code !== -1 && args[code + 1] !== undefined) scan.recurse(args[code + 1] as string, depth + 1);
      scan.found.add(REASONS.sudo);
      return;
    }
    case 'history':
      if (args.some((a) => /^-[a-z]*[cd]/.test(a))) scan.found.add(REASONS.history);
      return;
    case 'unset':
      if (operands.some((v) => v === 'HISTFILE')) scan.found.add(REASONS.history);
      return;
    case 'cat':
    case 'less':
    case 'more':
    case 'head':
    case 'tail':
    case 'xxd':
    case 'strings':
    case 'base64':
      for (const operand of operands) checkReadSource(operand, scan);
      return;
    default:
      if (DISK_TOOLS.has(name)) {
        if (operands.some((o) => DISK_DEVICE.test(normalize(o)))) scan.found.add(REASONS.rawDisk);
        if (name === 'shred') for (const target of operands) checkWriteTarget(target, scan);
        return;
      }
      if (SHELLS.has(name)) {
        const flagIndex = args.findIndex((a) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a));
        if (flagIndex !== -1 && args[flagIndex + 1] !== undefined) scan.recurse(args[flagIndex + 1] as string, depth + 1);
        return;
      }
      if (INLINE_INTERPRETERS.has(name)) return classifyInlineCode(args, scan, depth);
      if (classifySelfCommand(name, operands, args, scan)) return;
      classifySystemCommand(name, args, operands, scan);
  }
}

function classifyRm(args: string[], scan: Scan): void {
  const optionEnd = args.indexOf('--');
  const options = optionEnd === -1 ? args.filter((a) => a.startsWith('-')) : args.slice(0, optionEnd);
  const targets = optionEnd === -1 ? args.filter((a) => !a.startsWith('-')) : args.slice(optionEnd + 1);
  const recursive = options.some((o) => /^-[a-zA-Z]*[rR]/.test(o) || o === '--recursive');
  // Deleting a file is writing it; a recursive delete has its own, stronger reasons below.
  if (!recursive) {
    for (const target of targets) checkWriteTarget(target, scan);
    return;
  }
  if (targets.some((t) => HISTORY_FILE.test(t))) scan.found.add(REASONS.history);
  if (targets.some((t) => isCriticalPath(t, scan.paths))) scan.found.add(REASONS.deleteCritical);
  else if (targets.length === 0 || !targets.every((t) => isInsideWorkspace(t, scan.paths))) scan.found.add(REASONS.recursiveDelete);
}

function classifyPermissions(name: string, args: string[], operands: string[], scan: Scan): void {
  const mode = operands[0] ?? '';
  if (name === 'chmod') {
    if (/^[0-7]{3,4}$/.test(mode) && '2367'.includes(mode.at(-1) as string)) scan.found.add(REASONS.worldWritable);
    if (/(^|,)[ugo]*[ao][ugo]*[+=][rwxXst]*w/.test(mode)) scan.found.add(REASONS.worldWritable);
    if (/^[2467][0-7]{3}$/.test(mode) || /^[ugoa]*[+=][rwxXt]*s/.test(mode)) scan.found.add(REASONS.setuid);
  }
  const recursive = args.some((a) => /^-[a-zA-Z]*R/.test(a) || a === '--recursive');
  // Home directories are the user's own: `chmod -R` inside a project there is routine.
  const systemRoots = ['/', ...SYSTEM_DIRS.filter((d) => d !== '/home')];
  const paths = operands.slice(1).map((p) => resolvePath(p, scan.paths) ?? normalize(p));
  if (paths.some((p) => isUnder(p, systemRoots))) scan.found.add(recursive ? REASONS.recursiveSystemPerms : REASONS.systemPerms);
}

function classifyFind(args: string[], scan: Scan, depth: number): void {
  const firstExpression = args.findIndex((a) => a.startsWith('-') || a === '(' || a === '!');
  const starts = args.slice(0, firstExpression === -1 ? args.length : firstExpression);
  const roots = starts.length > 0 ? starts : ['.'];
  let deletes = args.includes('-delete');
  args.forEach((arg, i) => {
    if (arg !== '-exec' && arg !== '-execdir' && arg !== '-ok' && arg !== '-okdir') return;
    const end = args.findIndex((a, j) => j > i && (a === ';' || a === '+'));
    const inner = args.slice(i + 1, end === -1 ? args.length : end);
    if (commandName(inner[0] ?? '') === 'rm') deletes = true;
    // `{}` is each file found: a path below every starting point.
    for (const root of roots) classifySimple(inner.map((w) => w.replace('{}', `${root}/{}`)), scan, depth + 1);
  });
  if (!deletes) return;
  if (roots.some((r) => isCriticalPath(r, scan.paths))) scan.found.add(REASONS.deleteCritical);
  else if (!roots.every((r) => isInsideWorkspace(`${r}/x`, scan.paths))) scan.found.add(REASONS.findDelete);
}

/** `python -c "os.system('rm -rf /')"`: shell commands inside inline code are classified too. */
function classifyInlineCode(args: string[], scan: Scan, depth: number): void {
  const flag = args.findIndex((a) => CODE_FLAGS.test(a) || a === '-E');
  const code = flag === -1 ? undefined : args[flag + 1];
  if (code === undefined) return;
  for (const match of code.matchAll(/\b(?:system|popen|call|run|check_call|check_output|exec|execSync|spawnSync|Popen)\s*\(\s*(?:\[?\s*)(['"])(.*?)\1/g)) {
    scan.recurse(match[2] as string, depth + 1);
  }
  if (/\b(shutil\.)?rmtree\s*\(\s*['"](\/|~)['"]/.test(code)) scan.found.add(REASONS.deleteCritical);
}

function classifyDownload(name: string, args: string[], scan: Scan): void {
  const outputFlags = name === 'curl' ? ['-o', '--output'] : ['-O', '--output-document'];
  args.forEach((arg, i) => {
    const attached = outputFlags.map((f) => (arg.startsWith(`${f}=`) ? arg.slice(f.length + 1) : null)).find((v) => v !== null);
    const target = outputFlags.includes(arg) ? args[i + 1] : attached;
    if (target !== undefined && target !== null && target !== '-') {
      checkWriteTarget(target, scan);
      scan.downloads.add(target.slice(target.lastIndexOf('/') + 1));
    }
  });
  const urls = args.filter((a) => /^(https?|ftp):\/\//.test(a));
  const namesItself = name === 'wget' ? !args.some((a) => outputFlags.some((f) => a === f || a.startsWith(`${f}=`) || /^-[a-zA-Z]*O/.test(a))) : args.some((a) => a === '-O' || a === '--remote-name');
  if (namesItself) for (const url of urls) scan.downloads.add(url.replace(/[?#].*$/, '').slice(url.replace(/[?#].*$/, '').lastIndexOf('/') + 1));
}

export function isDownload(argv: string[]): boolean {
  const name = commandName(argv[0] ?? '');
  return name === 'curl' || name === 'wget' || name === 'fetch';
}

/** `sh install.sh`, `bash ./x.sh`, `./x.sh`, `source x` where a download on this line wrote the file. */
export function runsDownloadedScript(argv: string[], scan: Scan): boolean {
  if (scan.downloads.size === 0) return false;
  const name = commandName(argv[0] ?? '');
  const candidates = SHELLS.has(name) || INLINE_INTERPRETERS.has(name) || name === 'source' || name === '.' ? argv.slice(1).filter((a) => !a.startsWith('-')).slice(0, 1) : [argv[0] ?? ''];
  return candidates.some((c) => scan.downloads.has(c.slice(c.lastIndexOf('/') + 1)));
}

export function checkWriteTarget(target: string, scan: Scan): void {
  const path = resolvePath(target, scan.paths) ?? normalize(target);
  if (DISK_DEVICE.test(path)) {
    scan.found.add(REASONS.rawDisk);
    return;
  }
  if (path === '/proc/sysrq-trigger') {
    scan.found.add(REASONS.shutdown);
    return;
  }
  if (HISTORY_FILE.test(path)) {
    scan.found.add(REASONS.history);
    return;
  }
  const inHome = homeRelative(target, scan.paths);
  const base = path.slice(path.lastIndexOf('/') + 1);
  const homeSensitive = inHome !== null && (/^~\/(\.ssh|\.gnupg|\.aws|\.config\/(autostart|systemd))(\/|$)/.test(inHome) || RC_FILES.has(inHome.slice(2)));
  // `.bashrc` with no known directory could be the user's own: read it as in home.
  const bareRcFile = RC_FILES.has(base) && !target.includes('/') && resolvePath(target, scan.paths) === null;
  if (isUnder(path, WRITE_PROTECTED) && !isUnder(path, ['/var/tmp'])) scan.found.add(REASONS.sensitiveWrite);
  else if (homeSensitive || bareRcFile || /(^|\/)\.ssh(\/|$)/.test(path)) scan.found.add(REASONS.sensitiveWrite);
  checkSelfWrite(target, scan);
}

/** Reading a private key or a credentials file puts it into the conversation (and the model provider's logs). */
export function checkReadSource(source: string, scan: Scan): void {
  const inHome = homeRelative(source, scan.paths);
  const path = inHome ?? resolvePath(source, scan.paths) ?? normalize(source);
  if (SECRET_FILE.test(path) && !path.endsWith('.pub')) scan.found.add(REASONS.secretRead);
}
