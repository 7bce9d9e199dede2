import type { Stdin } from './invocation.js';
import type { PathContext } from './paths.js';
import type { ShellNode } from './shell-parser.js';

/**
 * Marks a part of a word the detector cannot know statically (an unset variable, a substitution it cannot
 * evaluate). It survives into argv so that every rule sees "unknown" rather than an empty string: a path
 * containing it resolves to nowhere known, a command name containing it is computed at run time.
 */
export const UNKNOWN = '\uE000';

/** Stands for "the id of every process" (`ps -e -o pid=`), so `kill -9 $(ps -e -o pid=)` is read as `kill -1`. */
export const ALL_PROCESSES = '\uE001';

/** Stands for a pid this shell owns (`$!`, `$$`, `jobs -p`): `kill $PID` after `PID=$!` ends the agent's own child. */
export const OWN_JOB = '\uE003';

/** Prefix of a `files` entry holding the source a binary was compiled from (`gcc bomb.c -o bomb`). */
export const COMPILED = '\uE002';

/** What the detector carries while it reads one command line. */
export interface Scan {
  /** Reasons found so far, each with whether what it changes lies beyond a workspace checkpoint. */
  found: Map<string, boolean>;
  /** Variables assigned earlier on the line (`X=rm; $X -rf ~`); a value may contain UNKNOWN. */
  vars: Map<string, string>;
  /** Workspace, home and the current directory, which `cd` on the line moves. */
  paths: PathContext;
  /** Base names of files a download on this line wrote (`curl -o x.sh …; sh x.sh`). */
  downloads: Set<string>;
  /** Functions defined on the line, so calling one walks its body (valid while its tree is). */
  functions: Map<string, ShellNode>;
  /** Positional parameters inside a function call (`f() { rm -rf "$1"; }; f /`); null outside one. */
  positional: string[] | null;
  /** Nesting of `bash -c`, `eval`, function calls…; past a limit the line is unreadable. */
  depth: number;
  /** Inside `ssh host …`: what runs is another machine, which no checkpoint here covers. */
  remote: boolean;
  /** Something on the line writes or deletes files (for checkpoints: destructive.ts). */
  mutatesFiles: boolean;
  /** Names of the commands that run, and what the exfiltration rule needs to know about them. */
  ran: Set<string>;
  mentionsSecret: boolean;
  /**
   * What the command being read prints goes into another program (`$(gh auth token)`, `… | docker login
   * --password-stdin`), not into the conversation: a secret printed there is not read by the model.
   */
  outputConsumed: boolean;
  /** What files written on this line contain, by base name (`cat > x.sh <<EOF`, `printf … > b.sh`, `gcc x.c -o x`). */
  files: Map<string, string>;
  /** Code being run right now (shell text, file contents): meeting it again means it replicates itself. */
  running: Set<string>;
  /**
   * Trap handlers registered on the line, read once at its end (a handler runs at the signal or at exit, and may call a
   * function defined later), each with where it was set: inside `ssh host '…'` it runs there, and in the directory of then.
   */
  traps: Array<{ handler: string; remote: boolean; cwd: PathContext['cwd'] }>;
  /** Parses `text` as shell and classifies it into this scan, one level deeper; `stdin` feeds its commands. */
  runShell(text: string, stdin?: Stdin | null): void;
  /** Classifies one command given as argv (`find -exec rm {} +`), wrappers and all. */
  runArgv(argv: string[]): void;
}

/** Classifies shell code that runs on other machines (`salt '*' cmd.run …`, `aws ssm send-command`): remote, like ssh. */
export function runRemoteShell(scan: Scan, code: string): void {
  const remote = scan.remote;
  scan.remote = true;
  try {
    scan.runShell(code);
  } finally {
    scan.remote = remote;
  }
}

/** Records a finding; `irreversible` false only for changes confined to workspace files a checkpoint restores. */
export function flag(scan: Scan, reason: string, irreversible = true): void {
  const reach = irreversible || scan.remote;
  scan.found.set(reason, (scan.found.get(reason) ?? false) || reach);
}
