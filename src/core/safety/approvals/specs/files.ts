import { isCriticalPath, isInsideWorkspace, isUnder, normalize, resolvePath, SYSTEM_DIRS } from '../paths.js';
import { REASONS } from '../reasons.js';
import { COMPILED, flag, UNKNOWN, type Scan } from '../scan.js';
import { checkReadSource, checkSpreadInto, checkWriteTarget, HISTORY_FILE, insideWorkspace, isSensitivePath } from '../write-targets.js';
import { classifyByVerb } from '../generic-verbs.js';
import { hasFlag, valuesOf, type Command, type CommandSpec } from './spec.js';

/**
 * Coreutils-style file operations: deletes (judged by where they land: inside the workspace is routine, the
 * root, a home or a system directory is hardline), and every argument that is a write target (`cp -t`,
 * `install -t`, the last operand of `cp`/`mv`/`ln`, `tee`, `truncate`, `shred`, `dd of=`, `sed -i`).
 */
export function judgeRecursiveDelete(targets: readonly string[], scan: Scan, reason: string = REASONS.recursiveDelete): void {
  scan.mutatesFiles = true;
  if (targets.some((t) => HISTORY_FILE.test(t))) flag(scan, REASONS.history);
  if (targets.some((t) => isCriticalPath(t, scan.paths))) flag(scan, REASONS.deleteCritical);
  else if (targets.length === 0 || !targets.every((t) => insideWorkspace(t, scan))) flag(scan, reason);
}

/**
 * Deleting or emptying one file: routine inside the workspace (a checkpoint restores it), asks outside it
 * when the detector knows where it is (with no workspace in the context it cannot tell, and does not ask).
 */
export function judgeFileDelete(target: string, scan: Scan): void {
  scan.mutatesFiles = true;
  // `DIR/**`, every file beneath DIR (`$(find DIR -type f)`, pure-eval.ts): deleting them all empties the tree.
  if (target.endsWith('/**')) {
    judgeRecursiveDelete([`${target.slice(0, -3)}/*`], scan);
    return;
  }
  if (HISTORY_FILE.test(target) || HISTORY_FILE.test(resolvePath(target, scan.paths) ?? '')) {
    flag(scan, REASONS.history);
    return;
  }
  checkWriteTarget(target, scan);
  // `~/Library/Logs/<unknown>` (a name `find … | xargs rm` found): the file is unknown, the folder it lies in is not.
  const unknownAt = target.indexOf(UNKNOWN);
  const folder = unknownAt > 0 ? target.slice(0, target.lastIndexOf('/', unknownAt)) : '';
  const inKnownFolder = folder !== '' && resolvePath(folder, scan.paths) !== null;
  const known = resolvePath(target, scan.paths) !== null || inKnownFolder || scan.remote;
  if (known && scan.paths.workspace !== undefined && !insideWorkspace(inKnownFolder ? `${folder}/entry` : target, scan)) flag(scan, REASONS.outsideDelete);
}

function rm(command: Command, scan: Scan): void {
  // A trash tool moves a directory whole, as `rm -r` removes it; `wipe -r` is rm that overwrites first.
  const recursive = hasFlag(command, 'r', '--recursive') || hasFlag(command, 'R') || command.name.startsWith('trash');
  if (!recursive) {
    for (const target of command.operands) judgeFileDelete(target, scan);
    scan.mutatesFiles = true;
    return;
  }
  judgeRecursiveDelete(command.operands, scan);
}

/** `cp -t DIR a b`, `install -t DIR`, `--target-directory=DIR`, otherwise the last operand. */
function copyTarget(command: Command, scan: Scan): void {
  // `rsync -n` / `--dry-run` lists what it would copy and delete, and changes nothing.
  if (command.name === 'rsync' && hasFlag(command, 'n', '--dry-run')) return;
  const explicit = valuesOf(command, '-t', '--target-directory');
  const targets = explicit.length > 0 ? explicit : command.operands.length >= 2 ? [command.operands.at(-1) as string] : [];
  if (command.name === 'install' && hasFlag(command, 'd', '--directory')) targets.push(...command.operands);
  for (const target of targets) checkWriteTarget(target, scan);
  // `cp -r ./dotfiles/. ~/`, `rsync -a skel/ ~/`: a folder's contents (not the folder) copied into the destination.
  const sources = explicit.length > 0 ? command.operands : command.operands.slice(0, -1);
  const recursive = hasFlag(command, 'r', '--recursive') || hasFlag(command, 'R') || hasFlag(command, 'a', '--archive');
  const spreads = sources.some((s) => /\/\.?$|\/\*$/.test(s) || (command.name === 'ditto' && !s.endsWith('.zip')));
  if ((recursive || command.name === 'ditto') && spreads) for (const target of targets) checkSpreadInto(target, scan);
  if (command.name === 'rsync' && command.options.some((o) => /^--(delete|del$|remove-source-files)/.test(o))) {
    const destination = targets[0] ?? '';
    if (/^[\w.-]*@?[\w.-]+:/.test(destination) || !insideWorkspace(destination, scan)) judgeRecursiveDelete([destination], scan);
  }
}

function mv(command: Command, scan: Scan): void {
  const explicit = valuesOf(command, '-t', '--target-directory');
  const sources = explicit.length > 0 ? command.operands : command.operands.slice(0, -1);
  if (sources.some((p) => isCriticalPath(p, scan.paths))) flag(scan, REASONS.deleteCritical);
  for (const source of sources) {
    if (HISTORY_FILE.test(source)) flag(scan, REASONS.history);
    // Moving a file away removes it from where it was.
    else judgeFileDelete(source, scan);
  }
  copyTarget(command, scan);
}

/** `tar -xzf a.tgz -C /etc`, `tar xf a.tar --directory=/usr`: an extraction writes into its directory (the cwd by default). */
function extract(command: Command, scan: Scan): void {
  const first = command.args[0] ?? '';
  const extracting = command.options.some((o) => /^-[a-zA-Z]*x/.test(o) || o === '--extract' || o === '--get') || (!first.startsWith('-') && /^[a-zA-Z]*x[a-zA-Z]*$/.test(first));
  if (!extracting) return;
  for (const directory of valuesOf(command, '-C', '--directory')) checkSpreadInto(directory, scan);
}

/** `unzip -o x.zip -d ~/.config`: the archive's files are written into the `-d` folder (the cwd by default). */
function unzip(command: Command, scan: Scan): void {
  // `-l`, `-v`, `-t`, `-p`, `-Z`: list, test or print; nothing is written.
  if (command.options.some((o) => /^-[a-zA-Z]*[lvtpZ]/.test(o))) return;
  for (const directory of valuesOf(command, '-d')) checkSpreadInto(directory, scan);
}

/**
 * `tar --remove-files -czf /tmp/h.tgz ~`: the files it archives are deleted once they are in, so its sources are a
 * recursive delete. Old-style `tar czf ARCHIVE src…` takes the archive as the first operand after the letters.
 */
function archiveRemovingSources(command: Command, scan: Scan): void {
  if (!command.options.includes('--remove-files')) return;
  const first = command.args[0] ?? '';
  const oldStyle = !first.startsWith('-') && /^[a-zA-Z]*[cr][a-zA-Z]*$/.test(first);
  const sources = oldStyle ? command.operands.slice(/f/.test(first) ? 2 : 1) : command.operands;
  judgeRecursiveDelete(sources, scan);
}

/**
 * Archivers that delete what they packed (`zip -m`, `7z a -sdel`): the sources are gone from where they were, as
 * `tar --remove-files` leaves them.
 */
function zipMoving(command: Command, scan: Scan): void {
  if (!command.options.some((o) => /^-[a-zA-Z]*m[a-zA-Z]*$/.test(o) || o === '--move')) return;
  judgeRecursiveDelete(command.operands.slice(1), scan);
}

function sevenZipMoving(command: Command, scan: Scan): void {
  if (!command.options.some((o) => /^-sdel$/i.test(o)) || !/^[au]$/.test(command.operands[0] ?? '')) return;
  judgeRecursiveDelete(command.operands.slice(2), scan);
}

function dd(command: Command, scan: Scan): void {
  for (const operand of command.operands) {
    // dc3dd's `wipe=DEV` (and `hwipe=`) fills the device it names.
    const output = /^(?:h?ofs?|h?wipe)=(.*)$/s.exec(operand);
    if (output !== null) checkWriteTarget(output[1] as string, scan);
  }
}

function permissions(command: Command, scan: Scan): void {
  // `chattr -i /etc/passwd`: chattr's mode may look like an option, and then every operand is a path.
  const modeAsOption = command.name === 'chattr' && command.options.some((o) => /^-[aAcCdDeFijmPsStTux]+$/.test(o));
  const [mode = '', ...paths] = modeAsOption ? ['', ...command.operands] : command.operands;
  const resolved = paths.map((p) => resolvePath(p, scan.paths) ?? normalize(p));
  const inWorkspace = paths.length > 0 && paths.every((p) => isInsideWorkspace(p, scan.paths) || resolvePath(p, scan.paths) === null);
  if (paths.some((p) => isSensitivePath(p, scan))) flag(scan, REASONS.systemPerms);
  if (command.name === 'chmod') {
    if (/^[0-7]{3,4}$/.test(mode) && '2367'.includes(mode.at(-1) as string)) flag(scan, REASONS.worldWritable, !inWorkspace);
    if (/(^|,)[ugo]*[ao][ugo]*[+=][rwxXst]*w/.test(mode)) flag(scan, REASONS.worldWritable, !inWorkspace);
    if (/^[2467][0-7]{3}$/.test(mode) || /^[ugoa]*[+=][rwxXt]*s/.test(mode)) flag(scan, REASONS.setuid);
  }
  const recursive = hasFlag(command, 'R', '--recursive');
  // Home directories are the user's own: `chmod -R` inside a project there is routine.
  const systemRoots = ['/', ...SYSTEM_DIRS.filter((d) => d !== '/home'), '/System', '/Library', '/private', '/Applications'];
  if (resolved.some((p) => isUnder(p, systemRoots))) flag(scan, recursive ? REASONS.recursiveSystemPerms : REASONS.systemPerms);
  // `chmod -R 000 /` (or home, or a system directory): every file locked; `chown -R x /`: every file given away.
  const locksOut = command.name === 'chmod' && takesEveryPermission(mode);
  const givesAwayRoot = (command.name === 'chown' || command.name === 'chgrp') && resolved.some((p) => p === '/' || p === '/*');
  if (recursive && ((locksOut && paths.some((p) => isCriticalPath(p, scan.paths))) || givesAwayRoot)) flag(scan, REASONS.lockOutCritical);
}

/**
 * `000`, `a=`, `-rwx`, `u-rwx`, `u=,g=,o=`, `a-rwx,u-rwx`: the owner (and so everyone) keeps no permission at all. A
 * symbolic mode is read clause by clause for the owner's r, w and x; a bit no clause settles is kept.
 */
function takesEveryPermission(mode: string): boolean {
  if (/^0+$/.test(mode)) return true;
  const owner = new Map<string, boolean>();
  for (const clause of mode.split(',')) {
    const parsed = /^([ugoa]*)((?:[-+=][rwxXst]*)+)$/.exec(clause);
    if (parsed === null) return false;
    const who = parsed[1] ?? '';
    if (who !== '' && !who.includes('u') && !who.includes('a')) continue;
    for (const [, op = '', perms = ''] of (parsed[2] ?? '').matchAll(/([-+=])([rwxXst]*)/g)) {
      for (const bit of 'rwx') {
        if (op === '=') owner.set(bit, perms.includes(bit));
        else if (perms.includes(bit)) owner.set(bit, op === '+');
      }
    }
  }
  return [...'rwx'].every((bit) => owner.get(bit) === false);
}

/** GNU sed's `e command` (at an optional address, or after `;`): the rest of its line is run by a shell. */
const SED_ADDRESS = String.raw`(?:\d+|\$|\/(?:[^/\\\n]|\\.)*\/)`;
const SED_EXECUTE = new RegExp(String.raw`(?:^|;|\n)\s*(?:${SED_ADDRESS}(?:\s*,\s*${SED_ADDRESS})?\s*!?\s*)?e\s+([^\n]+)`, 'g');

/**
 * The `s` commands of a sed script: `s<d>pattern<d>replacement<d>flags` with any delimiter `d`, `\\d` escaping it.
 * Only where a command can start (the script's start, after `;`, a newline, `{` or an address).
 */
function sedSubstitutions(script: string): Array<{ replacement: string; flags: string }> {
  const found: Array<{ replacement: string; flags: string }> = [];
  const start = new RegExp(String.raw`(?:^|[;\n{}])\s*(?:${SED_ADDRESS}(?:\s*,\s*${SED_ADDRESS})?\s*!?\s*)?s([^\s\w\\])`, 'g');
  for (const match of script.matchAll(start)) {
    const delimiter = match[1] as string;
    const parts: string[] = [];
    let i = (match.index ?? 0) + match[0].length;
    let part = '';
    while (i < script.length && parts.length < 2) {
      const c = script[i] as string;
      if (c === '\\' && i + 1 < script.length) {
        const next = script[i + 1] as string;
        part += next === delimiter ? next : next === 'n' ? '\n' : `\\${next}`;
        i += 2;
        continue;
      }
      if (c === delimiter) {
        parts.push(part);
        part = '';
      } else part += c;
      i += 1;
    }
    if (parts.length < 2) continue;
    const flags = /^[a-zA-Z0-9]*/.exec(script.slice(i))?.[0] ?? '';
    found.push({ replacement: parts[1] as string, flags });
  }
  return found;
}

function inPlaceEdit(command: Command, scan: Scan): void {
  const scripts = valuesOf(command, '-e', '--expression');
  for (const script of scripts.length > 0 ? scripts : command.operands.slice(0, 1)) {
    for (const match of script.matchAll(SED_EXECUTE)) {
      flag(scan, REASONS.interpreterExec);
      scan.runShell(match[1] as string);
    }
    // `s/x/rm -rf ~/e`: the `e` flag runs the pattern space, after the substitution, as a shell command.
    for (const substitution of sedSubstitutions(script)) {
      if (!substitution.flags.includes('e')) continue;
      flag(scan, REASONS.interpreterExec);
      scan.runShell(substitution.replacement);
    }
  }
  if (!command.options.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) return;
  const scriptGiven = valuesOf(command, '-e', '--expression', '-f', '--file').length > 0;
  for (const target of command.operands.slice(scriptGiven ? 0 : 1)) checkWriteTarget(target, scan);
}

function find(command: Command, scan: Scan): void {
  const args = command.args;
  const firstExpression = args.findIndex((a) => a.startsWith('-') || a === '(' || a === '!');
  const starts = args.slice(0, firstExpression === -1 ? args.length : firstExpression);
  const roots = starts.length > 0 ? starts : ['.'];
  let deletes = args.includes('-delete');
  args.forEach((arg, i) => {
    if (['-fprint', '-fprint0', '-fprintf', '-fls'].includes(arg)) checkWriteTarget(args[i + 1] ?? '', scan);
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(arg)) return;
    const end = args.findIndex((a, j) => j > i && (a === ';' || a === '+'));
    const inner = args.slice(i + 1, end === -1 ? args.length : end);
    if (['rm', 'shred', 'unlink', 'rmdir'].includes(inner[0] ?? '')) deletes = true;
    // `{}` is each file found: a path below every starting point (`-name etc` under `/`: `/etc` itself).
    const named = valuesAfter(args, '-name')[0];
    // `-maxdepth 0`: only the starting points themselves are found.
    const rootsOnly = valuesAfter(args, '-maxdepth')[0] === '0';
    for (const root of roots) scan.runArgv(inner.map((w) => w.replace('{}', rootsOnly ? root : `${root.replace(/\/$/, '')}/${named ?? '{}'}`)));
  });
  if (!deletes) return;
  scan.mutatesFiles = true;
  // `find ~ -name '*.bak' -delete` removes some files under home, not home itself.
  const filtered = args.some((a, i) => FIND_FILTERS.has(a) && !/^\*?$/.test(args[i + 1] ?? ''));
  if (!filtered && roots.some((r) => isCriticalPath(r, scan.paths))) flag(scan, REASONS.deleteCritical);
  else if (!roots.every((r) => insideWorkspace(`${r}/x`, scan))) flag(scan, REASONS.findDelete);
}

function valuesAfter(args: readonly string[], option: string): string[] {
  return args.flatMap((a, i) => (a === option && args[i + 1] !== undefined ? [args[i + 1] as string] : []));
}

const FIND_FILTERS: ReadonlySet<string> = new Set(['-name', '-iname', '-path', '-ipath', '-regex', '-iregex', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-newer', '-size', '-user', '-group', '-perm', '-empty', '-lname', '-wholename', '-links', '-inum', '-uid', '-gid']);

function cd(command: Command, scan: Scan): void {
  const target = command.operands[0];
  scan.paths.cwd = target === undefined ? (scan.paths.home ?? null) : target === '-' ? null : resolvePath(target, scan.paths);
}

function copy(command: Command, scan: Scan): void {
  if (command.name !== 'install' && command.name !== 'ln') for (const source of command.operands.slice(0, -1)) checkReadSource(source, scan);
  copyTarget(command, scan);
}

const writesOperands = (command: Command, scan: Scan): void => {
  for (const target of command.operands) checkWriteTarget(target, scan);
};

const readsOperands = (command: Command, scan: Scan): void => {
  for (const operand of command.operands) checkReadSource(operand, scan);
};

/** `gcc bomb.c -o bomb`: the binary runs what the source says, if the line wrote the source. */
function compile(command: Command, scan: Scan): void {
  const output = valuesOf(command, '-o')[0] ?? 'a.out';
  // `printf '…' | gcc -x c - -o fb`: `-` is the source on stdin.
  const stdin = command.invocation.stdin?.text ?? undefined;
  const sources = command.operands.map((o) => (o === '-' ? stdin : scan.files.get(o.slice(o.lastIndexOf('/') + 1)))).filter((t): t is string => t !== undefined);
  if (sources.length > 0) scan.files.set(`${COMPILED}${output.slice(output.lastIndexOf('/') + 1)}`, sources.join('\n'));
}

export const FILE_SPECS: readonly CommandSpec[] = [
  // Filters that can write in place or to a named file: `yq -i … f.yaml`, `sort -o f`.
  { names: ['yq'], values: ['-I', '--indent', '-o', '--output-format', '-p', '--input-format', '--from-file'], check: (c, s) => {
    if (c.options.some((o) => /^-[a-zA-Z]*i[a-zA-Z]*$/.test(o) || o === '--inplace')) for (const target of c.operands) checkWriteTarget(target, s);
  } },
  { names: ['sort'], values: ['-o', '--output', '-k', '--key', '-t', '--field-separator', '-S', '--buffer-size', '-T', '--temporary-directory', '--parallel', '--files0-from', '--batch-size', '--compress-program', '--sort', '--random-source'], check: (c, s) => {
    for (const target of valuesOf(c, '-o', '--output')) checkWriteTarget(target, s);
  } },
  { names: ['gcc', 'cc', 'clang', 'g++', 'c++', 'clang++', 'tcc'], values: ['-o', '-I', '-L', '-l', '-D', '-x', '-std', '-include'], check: compile },
  { names: ['rm', 'trash', 'trash-put', 'srm', 'wipe'], check: rm },
  // `gio trash PATH` is trash-put, `gio remove PATH` rm; its other subcommands are judged like any tool's words.
  { names: ['gio'], check: (c, s) => {
    const rest = c.args.slice(1).filter((a) => a !== '--force' && a !== '-f');
    if (c.args[0] === 'trash') s.runArgv(['trash-put', ...rest]);
    else if (c.args[0] === 'remove' || c.args[0] === 'rm') s.runArgv(['rm', ...rest]);
    else classifyByVerb(c.name, c.args, s);
  } },
  { names: ['zip'], values: ['-b', '-n', '-t', '-tt', '-x', '-i', '-P', '-O', '--out'], check: zipMoving },
  { names: ['7z', '7za', '7zz'], check: sevenZipMoving },
  { names: ['rimraf', 'del-cli', 'del', 'rmrf'], check: (c, s) => judgeRecursiveDelete(c.operands, s) },
  { names: ['unlink'], check: (c, s) => {
    for (const target of c.operands) judgeFileDelete(target, s);
  } },
  { names: ['rmdir', 'touch', 'mkdir', 'mkfifo', 'mknod'], check: writesOperands },
  { names: ['cp', 'install', 'ln', 'ditto', 'gcp'], values: ['-t', '--target-directory', '-m', '--mode', '-o', '--owner', '-g', '--group', '-S', '--suffix'], check: copy },
  { names: ['rsync'], values: ['-e', '--rsh', '--exclude', '--include', '--filter', '-f', '--port', '--exclude-from', '--include-from', '--files-from', '-T', '--temp-dir', '--backup-dir', '--chmod', '--chown'], check: copy },
  { names: ['scp'], values: ['-P', '-i', '-F', '-o', '-c', '-l', '-S', '-J'], check: copy },
  { names: ['mv'], values: ['-t', '--target-directory', '-S', '--suffix'], check: mv },
  { names: ['tee'], check: writesOperands },
  { names: ['unzip'], values: ['-d', '-x', '-P'], check: unzip },
  { names: ['sudoedit'], check: (c, s) => {
    flag(s, REASONS.sudo);
    writesOperands(c, s);
  } },
  { names: ['truncate', 'shred'], values: ['-s', '--size', '-r', '--reference', '-n', '--iterations'], check: (c, s) => {
    for (const target of c.operands) judgeFileDelete(target, s);
  } },
  { names: ['fallocate'], values: ['-l', '--length', '-o', '--offset'], check: writesOperands },
  // dd's relatives that take `of=` too: dcfldd, dc3dd (`hof=` hashes what it writes), sg3_utils' sg_dd, ddpt.
  { names: ['dd', 'gdd', 'dcfldd', 'dc3dd', 'sg_dd', 'ddpt'], check: dd },
  // BSD/macOS `chflags schg /etc/hosts` takes its flags first, like chmod its mode.
  { names: ['chmod', 'chown', 'chgrp', 'chattr', 'setfacl', 'chflags'], values: ['--reference'], check: permissions },
  { names: ['tar', 'bsdtar', 'gtar'], values: ['-C', '--directory', '-f', '--file', '-T', '--files-from', '-X', '--exclude-from', '-b', '--blocking-factor'], check: (c, s) => {
    extract(c, s);
    archiveRemovingSources(c, s);
  } },
  { names: ['sed', 'gsed'], values: ['-e', '--expression', '-f', '--file', '-l', '--line-length'], check: inPlaceEdit },
  { names: ['find', 'gfind'], check: find },
  { names: ['cd', 'pushd'], check: cd },
  { names: ['cat', 'less', 'more', 'head', 'tail', 'xxd', 'strings', 'base64', 'od', 'hexdump', 'bat', 'nl', 'tac', 'gpg'], values: ['-n', '-c', '-o', '--output'], check: readsOperands },
  // `openssl rand -out /dev/sdc N`, `openssl enc … -out f`: every subcommand writes its output where `-out` says.
  { names: ['openssl'], values: ['-out', '-keyout', '-in', '-key', '-n', '-c', '-o', '--output'], check: (c, s) => {
    readsOperands(c, s);
    for (const source of valuesOf(c, '-in', '-key')) checkReadSource(source, s);
    for (const target of valuesOf(c, '-out', '-keyout')) checkWriteTarget(target, s);
  } },
];
