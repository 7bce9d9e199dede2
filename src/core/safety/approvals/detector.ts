import type { Classification, Verdict } from './broker.js';
import { classifyInvocation } from './commands.js';
import { HARDLINE_REASONS, REASONS } from './reasons.js';
import { flag, type Scan } from './scan.js';
import { NETWORK_SENDERS } from './specs/network.js';
import { walkShell } from './walker.js';
import { checkWriteTarget } from './write-targets.js';

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
 * Classifies a shell command line (PARITY §9, decision 0009): `hardline` commands are refused even in yolo
 * mode, `dangerous` ones need the user's approval, the rest are `safe`. The line is parsed by tree-sitter-bash,
 * every command the AST can run is walked with its words statically expanded (walker.ts), and each goes
 * through the wrapper table, the per-command specs or the generic verb rule (commands.ts).
 */
export function classifyCommand(command: string, context: DetectorContext = {}): Classification {
  const scan = readCommand(command, context);
  return verdictOf(scan.found);
}

/** The scan of a command line: its findings, and whether it writes files (for checkpoints). */
export function readCommand(command: string, context: DetectorContext = {}): Scan {
  const scan = newScan(context);
  // The line runs as `bash -c LINE`: `$BASH_EXECUTION_STRING` is the line itself, and running it again replicates it.
  scan.vars.set('BASH_EXECUTION_STRING', command);
  scan.running.add(command);
  try {
    walkShell(command, scan);
  } catch (err) {
    // Only the call stack running out on absurd nesting lands here; an unreadable command fails closed.
    if (!(err instanceof RangeError)) throw err;
    flag(scan, REASONS.unreadable);
  }
  if (scan.mentionsSecret && [...scan.ran].some((name) => NETWORK_SENDERS.has(name))) flag(scan, REASONS.exfiltration);
  return scan;
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
    found: new Map(),
    vars: new Map(),
    paths: { workspace: context.workspace, cwd: context.cwd, home: context.home, hearthHome: context.hearthHome },
    downloads: new Set(),
    functions: new Map(),
    positional: null,
    depth: 0,
    remote: false,
    mutatesFiles: false,
    ran: new Set(),
    mentionsSecret: false,
    outputConsumed: false,
    files: new Map(),
    running: new Set(),
    traps: [],
    runShell: (text, stdin = null) => {
      // `bash -c "$BASH_EXECUTION_STRING" &`, a script running `$0 & $0`: code that starts itself again.
      if (scan.running.has(text)) {
        flag(scan, REASONS.forkBomb);
        return;
      }
      scan.depth += 1;
      scan.running.add(text);
      try {
        walkShell(text, scan, stdin);
      } finally {
        scan.depth -= 1;
        scan.running.delete(text);
      }
    },
    runArgv: (argv) => classifyInvocation({ argv, source: argv.join(' '), stdin: null, decoded: false, downloaded: false, nameComputed: false }, scan),
  };
  return scan;
}

function verdictOf(found: ReadonlyMap<string, boolean>): Classification {
  const reasons = [...found.keys()];
  if (reasons.length === 0) return { verdict: 'safe', reasons };
  const verdict: Verdict = reasons.some((r) => HARDLINE_REASONS.has(r)) ? 'hardline' : 'dangerous';
  return { verdict, reasons, irreversible: [...found.values()].some((v) => v) };
}
