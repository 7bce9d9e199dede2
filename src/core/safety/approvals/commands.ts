import { classifyByVerb } from './generic-verbs.js';
import { commandName, type Invocation } from './invocation.js';
import { resolvePath } from './paths.js';
import { REASONS } from './reasons.js';
import { COMPILED, flag, UNKNOWN, type Scan } from './scan.js';
import { judgeRemoteLogin, NETWORK_SENDERS, SECRET_MENTION, SECRET_OUTPUT, SECRET_PRINTERS } from './specs/network.js';
import { applyRules, parseCommand, type CommandSpec } from './specs/spec.js';
import { commandsMatchingGlob, specFor } from './specs/index.js';
import { cmdAsShell, isWrapper, unwrap } from './wrappers.js';
import { readInterpreterCode } from './interpreter-code.js';
import { runWrittenFile } from './specs/shells.js';
import { CONTAINER_EXEC_WRAPPERS, containHardline } from './specs/containers.js';

/**
 * Classifies one expanded command: looks through the wrappers around it (sudo, env, timeout, ssh, xargs…),
 * then applies the spec its name has in the registry, or the generic destructive-verb rule when none does.
 */

/** Variables that name the user's own tools: `$EDITOR notes.md` runs what the user chose. */
const USER_TOOL_VARIABLES = /^\$\{?(EDITOR|VISUAL|PAGER|BROWSER|CC|CXX|FC|LD|AR|MAKE|PYTHON|PYTHON3|NODE|NPM|GO|JAVA|CARGO|SHELL|TERMINAL|GIT)\}?$/;
const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'http', 'https', 'xh', 'aria2c', 'lynx', 'links', 'ftp', 'tftp', 'invoke-webrequest', 'iwr']);

export function classifyInvocation(invocation: Invocation, scan: Scan): void {
  if (invocation.argv.length === 0) return;
  const stdinText = argFileText(invocation.argv, scan) ?? invocation.stdin?.text ?? null;
  const stdinWords = stdinText === null ? null : stdinText.split(/[\s\0]+/).filter((w) => w !== '');
  const outer = commandName(invocation.argv[0] ?? '');
  if (outer === 'ssh' || outer === 'mosh') judgeRemoteLogin(invocation.argv, scan);
  for (const reading of unwrap(invocation.argv, stdinWords, stdinText)) {
    if (reading.root) flag(scan, REASONS.sudo);
    if (reading.scheduled) flag(scan, REASONS.scheduleJob);
    const remote = scan.remote;
    const cwd = scan.paths.cwd;
    scan.remote ||= reading.remote;
    // `env -C / rm -rf ./*`, `sudo -D /srv …`: the command starts in the wrapper's directory.
    if (reading.cwd !== null) scan.paths.cwd = resolvePath(reading.cwd, scan.paths);
    // `docker exec app sh -c 'rm -rf /*'`: what would be hardline here wrecks only the container (containers.ts).
    const contained = reading.wrappers.some((w) => CONTAINER_EXEC_WRAPPERS.has(w)) ? new Set(scan.found.keys()) : null;
    try {
      for (const code of reading.code) {
        if (invocation.downloaded) flag(scan, REASONS.pipeToShell);
        // `echo 'DROP TABLE t;' | ssh host psql app`: the command the wrapper runs reads the wrapper's stdin.
        scan.runShell(code, invocation.stdin);
      }
      // `ssh host <<EOF`, `ssh host bash -s <<EOF`, `sudo -i <<EOF`, `su - postgres <<EOF`: with no command (or only
      // a shell that reads stdin) the session's shell reads the text on stdin as its commands.
      if (stdinText !== null && reading.argv.length === 0 && startsShellOnStdin(reading.wrappers, reading.code)) scan.runShell(stdinText);
      classifyCommand({ ...invocation, argv: reading.argv }, scan, reading.wrappers.length > 0);
      if (contained !== null) containHardline(scan, contained);
    } finally {
      scan.remote = remote;
      // Only the wrapper's own directory is undone: a `cd` the command ran stays for the rest of the line.
      if (reading.cwd !== null) scan.paths.cwd = cwd;
    }
  }
}

function classifyCommand(invocation: Invocation, scan: Scan, wrapped: boolean): void {
  const [first = '', ...args] = invocation.argv;
  if (first === '') return;
  const name = commandName(first);
  // `sudo /s?in/re?oot`: a glob as the wrapped command is whichever described command it matches (the walker does
  // the same for a command that is not wrapped; no real program has `*`, `?` or `[` in its name).
  if (wrapped && specFor(name) === undefined) {
    const candidates = commandsMatchingGlob(name);
    if (candidates.length > 0 && candidates.length <= 4) {
      const dir = first.slice(0, first.lastIndexOf('/') + 1);
      for (const candidate of candidates) classifyCommand({ ...invocation, argv: [`${dir}${candidate}`, ...args] }, scan, wrapped);
      return;
    }
  }
  scan.ran.add(name);
  if (first.includes(UNKNOWN)) {
    // `$(cat cmd.txt) -rf /`: a command name only known when it runs.
    const userTool = USER_TOOL_VARIABLES.test(invocation.source.trim().split(/\s+/)[0] ?? '');
    if (!userTool || wrapped) flag(scan, REASONS.dynamicCommand);
    return;
  }
  if (invocation.decoded && invocation.nameComputed) flag(scan, REASONS.obfuscatedCode);
  // `/etc/init.d/ufw stop`: a SysV init script is its service, whatever else its name means.
  const initScript = INIT_SCRIPT.exec(first);
  if (initScript !== null) {
    scan.runArgv(['service', initScript[1] as string, ...args]);
    return;
  }
  const line = invocation.argv.join(' ');
  if (invocation.argv.some((a) => SECRET_MENTION.test(a)) || SECRET_PRINTERS.some((re) => re.test(line))) scan.mentionsSecret = true;
  // Only where the secret lands on the terminal: `$(gh auth token)` in an Authorization header is the token's own use.
  if (!scan.outputConsumed && SECRET_OUTPUT.some((re) => re.test(line))) flag(scan, REASONS.secretRead);
  if (NETWORK_SENDERS.has(name) && invocation.stdin?.kind === 'pipe' && invocation.stdin.upstream.some((u) => ENV_DUMPERS.has(u))) scan.mentionsSecret = true;
  // `./b.sh` after `printf … > b.sh`, `./bomb` after `gcc bomb.c -o bomb`, `./x.sh` after `curl -o x.sh`.
  if (first.includes('/')) {
    if (scan.downloads.has(name)) flag(scan, REASONS.pipeToShell);
    const compiled = scan.files.get(`${COMPILED}${name}`);
    if (compiled !== undefined) readInterpreterCode(compiled, 'generic', scan);
    else if (runWrittenFile(first, scan)) return;
  }
  // `printf '%%0|%%0' > b.bat && cmd /c b.bat`: a batch file the line wrote, run by cmd or by its name.
  const batch = /\.(bat|cmd)$/i.test(name) ? scan.files.get(name) : undefined;
  if (batch !== undefined) readBatchFile(batch, scan);
  const spec = specFor(name);
  if (spec === undefined) {
    classifyByVerb(name, args, scan);
    readAsWrapper(args, scan);
    return;
  }
  const command = parseCommand(name, windowsArgs(name, args, invocation.source), valueSet(spec), invocation, spec.clusters === true);
  spec.check?.(command, scan);
  if (spec.rules !== undefined) applyRules(spec.rules, command, scan);
}

/** `%0|%0` (the script piped into itself), or `start %0` with a `goto` back: a batch file that starts itself without end. */
const BATCH_SELF_FORK = /%~?[dpnxfs]*0\s*\|\s*%~?[dpnxfs]*0/i;
const BATCH_SELF_START = /(?:^|[\s&(])start\b[^\n]*%~?[dpnxfs]*0\b/im;

function readBatchFile(text: string, scan: Scan): void {
  if (BATCH_SELF_FORK.test(text) || (BATCH_SELF_START.test(text) && /(?:^|[\s&(])goto\b/im.test(text))) {
    flag(scan, REASONS.forkBomb);
    return;
  }
  if (scan.depth > 3) return;
  for (const line of text.split(/\r?\n/)) if (line.trim() !== '' && !/^\s*(?:@?echo\b|rem\b|::|:)/i.test(line)) scan.runShell(cmdAsShell(line.trim()));
}

/**
 * `mywrap -q rm -rf ~`: a program nobody described may run its arguments as a command, so they are read as
 * one. What that reading finds asks (it is a guess, so never hardline) under a reason of its own.
 */
function readAsWrapper(args: readonly string[], scan: Scan): void {
  const start = args.findIndex((a) => !a.startsWith('-'));
  const inner = args[start];
  // Only a word that names a command the checker knows is read as one (`mocha test/x.js` is not).
  if (inner === undefined || scan.depth > 3 || (specFor(inner) === undefined && !isWrapper(inner))) return;
  const before = new Map(scan.found);
  const cwd = scan.paths.cwd;
  scan.depth += 1;
  try {
    scan.runArgv(args.slice(start));
  } finally {
    scan.depth -= 1;
    scan.paths.cwd = cwd;
  }
  const added = [...scan.found.entries()].filter(([reason]) => !before.has(reason));
  if (added.length === 0) return;
  for (const [reason] of added) scan.found.delete(reason);
  flag(scan, REASONS.unknownWrapper, added.some(([, irreversible]) => irreversible));
}

/**
 * `xargs -a <(echo /) rm -rf`, `parallel -a list.txt …`: arguments read from a file instead of stdin; when the line
 * wrote that file (or it is a `<(…)` with known output) its text is what they read.
 */
function argFileText(argv: readonly string[], scan: Scan): string | null {
  if (!['xargs', 'parallel'].includes(commandName(argv[0] ?? ''))) return null;
  const at = argv.findIndex((a) => a === '-a' || a === '--arg-file' || a.startsWith('--arg-file='));
  const file = at === -1 ? undefined : (argv[at] as string).startsWith('--arg-file=') ? (argv[at] as string).slice('--arg-file='.length) : argv[at + 1];
  return file === undefined ? null : (scan.files.get(commandName(file)) ?? null);
}

/** Windows programs whose paths and registry keys are written with backslashes, which bash would have removed. */
const WINDOWS_NATIVE: ReadonlySet<string> = new Set(['reg', 'reg.exe', 'icacls', 'icacls.exe', 'takeown', 'takeown.exe', 'schtasks', 'schtasks.exe', 'wevtutil', 'wevtutil.exe']);

/**
 * `reg add HKCU\Software\…\Run /v x`: such a line is written for cmd or PowerShell, which keep a backslash as it is, so
 * the arguments are read from the source split cmd's way (blanks, double quotes) rather than from bash's words.
 */
function windowsArgs(name: string, args: string[], source: string): string[] {
  if (!WINDOWS_NATIVE.has(name.toLowerCase()) || !source.includes('\\') || /[$`|;&<>]/.test(source)) return args;
  const words = [...source.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? (m[2] as string));
  const at = words.findIndex((w) => commandName(w).toLowerCase() === name.toLowerCase());
  return at === -1 ? args : words.slice(at + 1);
}

/** `/etc/init.d/NAME`, `/etc/rc.d/init.d/NAME`, `/etc/rc.d/NAME` (BSD, Arch). */
const INIT_SCRIPT = /^\/etc\/(?:rc\.d\/(?:init\.d\/)?|init\.d\/)([\w.@-]+)$/;

/** Wrappers that, given no command, start a shell (a login, a root shell, a remote session). */
const SHELL_STARTERS: ReadonlySet<string> = new Set(['ssh', 'mosh', 'su', 'sudo', 'doas', 'runuser', 'pkexec', 'run0']);
const SHELL_READING_STDIN = /^\s*(?:\S*\/)?(?:sh|bash|zsh|dash|ksh|ash|fish)(?:\s+-[a-zA-Z]*)*\s*$/;

function startsShellOnStdin(wrappers: readonly string[], code: readonly string[]): boolean {
  if (!wrappers.some((w) => SHELL_STARTERS.has(w))) return false;
  return code.every((c) => SHELL_READING_STDIN.test(c) && !/\s-[a-zA-Z]*c/.test(c));
}

/** Each spec's value options as a set, built once. */
const VALUE_SETS = new WeakMap<CommandSpec, ReadonlySet<string>>();

function valueSet(spec: CommandSpec): ReadonlySet<string> {
  let set = VALUE_SETS.get(spec);
  if (set === undefined) {
    set = new Set(spec.values ?? []);
    VALUE_SETS.set(spec, set);
  }
  return set;
}

const ENV_DUMPERS = new Set(['env', 'printenv', 'set', 'export', 'declare', 'compgen']);

/**
 * Inline interpreter code that prints a URL's body to stdout, a downloader by another name (`php -r 'copy("https://…",
 * "php://stdout");' | php`, `python3 -c 'print(urlopen(URL).read().decode())' | sh`).
 */
const PRINTS_DOWNLOAD = /\bcopy\s*\(\s*['"]https?:[^'"]*['"]\s*,\s*['"]php:\/\/(?:stdout|output)['"]|\breadfile\s*\(\s*['"]https?:|\b(?:echo|print)\s*\(?\s*file_get_contents\s*\(\s*['"]https?:|\bprint\s*\(\s*(?:urllib\.request\.)?urlopen\s*\(|\bsys\.stdout\.(?:buffer\.)?write\s*\(\s*(?:urllib\.request\.)?urlopen\s*\(|\bputs\s*\(?\s*(?:URI\.open|Net::HTTP\.get)\b|\bgetprint\s*\(?\s*['"]https?:|\bprint\s+get\s*\(?\s*['"]https?:/;
const INLINE_INTERPRETERS = /^(php[\d.]*|python[\d.]*|ruby|perl)$/;

export function isDownloader(argv: readonly string[]): boolean {
  const name = commandName(argv[0] ?? '').toLowerCase();
  if (DOWNLOADERS.has(name)) return true;
  if (INLINE_INTERPRETERS.test(name) && argv.slice(1).some((a) => PRINTS_DOWNLOAD.test(a))) return true;
  // `sudo curl …`, `timeout 5 wget …`
  return unwrap(argv, null).some((r) => r.wrappers.length > 0 && DOWNLOADERS.has(commandName(r.argv[0] ?? '').toLowerCase()));
}
