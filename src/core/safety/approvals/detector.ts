import type { Classification, Verdict } from './broker.js';
import { commandName, unwrapCommand } from './command-prefixes.js';
import { splitCommandLine, type SimpleCommand } from './command-split.js';
import { classifySimple, checkReadSource, checkWriteTarget, isDownload, runsDownloadedScript } from './command-rules.js';
import { classifyWholeLine } from './line-rules.js';
import { HARDLINE_REASONS, REASONS } from './reasons.js';
import type { Scan } from './scan.js';
import { expandArgv, expandWord, pipelineOutput } from './shell-eval.js';

export { REASONS } from './reasons.js';

/**
 * Where a command runs, so paths can be judged. Every field is optional and the detector is stricter
 * without them: with no `cwd` a relative path could be anywhere, so `rm -rf build` needs approval.
 */
export interface DetectorContext {
  /** Absolute path of the workspace: recursive deletes strictly inside it are routine (safe). */
  workspace?: string;
  /** Absolute directory the command starts in (the terminal's current directory). */
  cwd?: string;
  /** The user's home directory, so `~/project/dist` can be recognised as inside a workspace there. */
  home?: string;
  /** HEARTH_HOME: writes to its config.yaml, SOUL.md, skills/ and cron/ are self-modification. */
  hearthHome?: string;
}

/**
 * Classifies a shell command line (PARITY §9): `hardline` commands are refused even in yolo mode,
 * `dangerous` ones need the user's approval, the rest are `safe`. The line is parsed as shell (see
 * command-split.ts), variables assigned earlier on the line and pure pipelines are evaluated
 * (shell-eval.ts), and every command found, however deeply nested, goes through the rules.
 */
export function classifyCommand(command: string, context: DetectorContext = {}): Classification {
  const scan = newScan(context);
  try {
    classifyLine(command, scan, 0);
  } catch (err) {
    // Only the call stack running out on absurd nesting lands here; an unreadable command fails closed.
    if (!(err instanceof RangeError)) throw err;
    scan.found.add(REASONS.unreadable);
  }
  return verdictOf(scan.found);
}

/**
 * Classifies a file tool's write to `path` by the rules a shell redirect to it would meet: `/etc`, `~/.ssh`,
 * shell rc files are dangerous, a disk device is hardline, Hearth's own settings and skills are self-modification.
 */
export function classifyFileWrite(path: string, context: DetectorContext = {}): Classification {
  const scan = newScan(context);
  checkWriteTarget(path, scan);
  return verdictOf(scan.found);
}

function newScan(context: DetectorContext): Scan {
  const scan: Scan = {
    found: new Set(),
    vars: new Map(),
    paths: { workspace: context.workspace, cwd: context.cwd, home: context.home, hearthHome: context.hearthHome },
    downloads: new Set(),
    recurse: (text, depth) => classifyLine(text, scan, depth),
  };
  return scan;
}

function verdictOf(found: ReadonlySet<string>): Classification {
  const reasons = [...found];
  const verdict: Verdict = reasons.some((r) => HARDLINE_REASONS.has(r)) ? 'hardline' : reasons.length > 0 ? 'dangerous' : 'safe';
  return { verdict, reasons };
}

const MAX_DEPTH = 5;
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'ash', 'busybox']);
const INTERPRETERS = new Set([...SHELLS, 'python', 'python2', 'python3', 'perl', 'ruby', 'node', 'php', 'source', '.']);
const DB_CLIENTS = new Set(['psql', 'mysql', 'mariadb', 'sqlite3', 'sqlcmd', 'duckdb', 'clickhouse-client', 'mongo', 'mongosh', 'redis-cli', 'cockroach']);
const ROOT_WRAPPERS = ['sudo', 'doas', 'pkexec', 'su', 'runuser'];
const DECODERS = /^(base64|base32|xxd|openssl|gzip|gunzip|zcat|rev|uudecode)$/;

function classifyLine(line: string, scan: Scan, depth: number): void {
  if (depth > MAX_DEPTH) {
    // `eval eval eval … rm -rf /`: what cannot be read to the end is not called safe.
    scan.found.add(REASONS.unreadable);
    return;
  }
  classifyWholeLine(line, scan);
  const commands = splitCommandLine(line);
  let pipelineStart = 0;
  commands.forEach((command, index) => {
    const upstream = index > 0 && commands[index - 1]?.pipesToNext ? commands.slice(pipelineStart, index) : [];
    classifyOne(command, upstream, scan, depth);
    if (!command.pipesToNext) pipelineStart = index + 1;
  });
}

function classifyOne(command: SimpleCommand, upstream: SimpleCommand[], scan: Scan, depth: number): void {
  const expanded = expandArgv(command.argv, scan.vars);
  if (rememberAssignments(expanded.argv, scan)) return;
  const { argv, wrappers, embedded } = unwrapCommand(expanded.argv);
  if (wrappers.some((w) => ROOT_WRAPPERS.includes(w))) scan.found.add(REASONS.sudo);
  for (const inner of embedded) scan.recurse(inner, depth + 1);
  for (const target of command.writes) checkWriteTarget(expandWord(target, scan.vars).text, scan);
  for (const source of command.reads ?? []) checkReadSource(expandWord(source, scan.vars).text, scan);
  const name = commandName(argv[0] ?? '');
  // `$(cat cmd.txt) -rf /`: a command name computed by something the detector cannot evaluate.
  if (/\$\(|`/.test(argv[0] ?? '')) scan.found.add(REASONS.dynamicCommand);
  if (expanded.decoded && (SHELLS.has(name) || name === 'eval' || expanded.argv[0] !== command.argv[0])) scan.found.add(REASONS.obfuscatedCode);

  // Text a shell, interpreter or database client reads as code from stdin or a here-string.
  const readsCode = INTERPRETERS.has(name) ? readsScriptFromStdin(argv) : DB_CLIENTS.has(name);
  if (readsCode && command.hereString !== undefined) scan.recurse(command.hereString, depth + 1);
  if (readsCode && upstream.length > 0) classifyPipedCode(upstream, scan, depth);
  if (runsDownloadedScript(argv, scan)) scan.found.add(REASONS.pipeToShell);

  // `echo / | xargs rm -rf`: the words piped in are the wrapped command's arguments.
  let effective = argv;
  if (wrappers.includes('xargs') && upstream.length > 0) {
    const output = pipelineOutput(upstream, scan.vars);
    if (output !== null) effective = [...argv, ...output.text.split(/\s+/).filter((w) => w !== '')];
    else effective = [...argv, '$UNKNOWN_XARGS_INPUT'];
  }
  classifySimple(effective, scan, depth);
}

function classifyPipedCode(upstream: SimpleCommand[], scan: Scan, depth: number): void {
  if (upstream.some((c) => isDownload(unwrapCommand(expandArgv(c.argv, scan.vars).argv).argv))) {
    scan.found.add(REASONS.pipeToShell);
    return;
  }
  const output = pipelineOutput(upstream, scan.vars);
  if (output !== null) scan.recurse(output.text, depth + 1);
  const decodes = upstream.some((c) => DECODERS.test(commandName(unwrapCommand(c.argv).argv[0] ?? '')));
  if (decodes || output?.decoded === true) scan.found.add(REASONS.obfuscatedCode);
}

/** A shell or interpreter with no `-c`/`-e` code and no script file runs what arrives on stdin. */
function readsScriptFromStdin(argv: string[]): boolean {
  const args = argv.slice(1);
  if (args.some((a) => /^-[a-zA-Z]*[ce]$/.test(a) || a === '-m')) return false;
  if (args.includes('-s') || args.includes('-')) return true;
  return !args.some((a) => !a.startsWith('-'));
}

/**
 * `X=rm`, `export X=rm`, `declare X=…`: remembered for later words on the line. Returns true when the
 * command was only assignments (nothing runs). `HISTFILE`/`HISTSIZE` changes are flagged here.
 */
function rememberAssignments(argv: string[], scan: Scan): boolean {
  const declarer = ['export', 'declare', 'local', 'readonly', 'typeset'].includes(argv[0] ?? '');
  const words = declarer ? argv.slice(1).filter((w) => !w.startsWith('-')) : argv;
  const assignments = words.filter((w) => /^[A-Za-z_]\w*=/.test(w));
  if (!declarer && assignments.length !== argv.length) return false;
  for (const assignment of assignments) {
    const at = assignment.indexOf('=');
    const name = assignment.slice(0, at);
    const value = assignment.slice(at + 1);
    scan.vars.set(name, value);
    if (name === 'HISTFILE' || ((name === 'HISTSIZE' || name === 'HISTFILESIZE') && value === '0')) scan.found.add(REASONS.history);
  }
  return true;
}
