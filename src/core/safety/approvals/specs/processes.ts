import { resolvePath } from '../paths.js';
import { matchesEveryName } from '../pure-eval.js';
import { REASONS } from '../reasons.js';
import { ALL_PROCESSES, flag, OWN_JOB, UNKNOWN, type Scan } from '../scan.js';
import type { Command, CommandSpec } from './spec.js';

/**
 * Process control: `kill -1` (every process) is hardline; pid 1, a pid computed at run time (`$(pgrep …)`,
 * `$(ps …)`), and killing by name, pattern or user (pkill, killall) ask. Killing one known pid is routine.
 */
function kill(command: Command, scan: Scan): void {
  const args = command.args;
  if (args.some((a) => a === '-l' || a === '-L' || a === '--list')) return;
  const { signal, targets } = signalAndTargets(args);
  // Signal 0 only asks whether the process exists (`kill -0 $PID && echo running`).
  if (signal !== null && /^(0|SIG0|NULL)$/i.test(signal)) return;
  // Every process; or SIGKILL to init (pid 1), whose death takes every process with it. A plain `kill 1` asks
  // (init re-executes or ignores SIGTERM; in a container it is a graceful stop).
  const sigkill = signal !== null && /^(9|KILL|SIGKILL)$/i.test(signal);
  if (targets.some((t) => t === '-1' || t.includes(ALL_PROCESSES) || (t === '1' && sigkill))) flag(scan, REASONS.killAll);
  // `kill $!`, `PID=$!; …; kill $PID`, `kill $(jobs -p)` end the jobs this line started: not broad.
  const computed = targets.some((t) => t.includes(UNKNOWN)) && !/\$!/.test(command.invocation.source);
  // `kill -9 -$$` signals the shell's whole process group, which Hearth's shell leads (it is spawned detached): that is
  // `kill 0` spelled another way, every process the line and its earlier background jobs started, so it asks too.
  const ownGroup = targets.some((t) => t === `-${OWN_JOB}`) && /(^|\s)-\$(\$|\{\$\})/.test(command.invocation.source);
  if (computed || ownGroup || targets.some((t) => t === '1' || t === '0')) flag(scan, REASONS.killProcesses);
}

/**
 * `kill -9 1`, `kill -s KILL -1`, `kill --signal=KILL 1`, `kill -TERM -- -1`: the signal, and the pids (a
 * negative pid after the signal is a process group, `-1` every process).
 */
function signalAndTargets(args: readonly string[]): { signal: string | null; targets: string[] } {
  let signal: string | null = null;
  const targets: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i] as string;
    if (a === '--') {
      targets.push(...args.slice(i + 1).map(pid));
      break;
    }
    if (a === '-s' || a === '-n' || a === '--signal') {
      signal = args[i + 1] ?? null;
      i += 1;
    } else if (a.startsWith('--signal=')) signal = a.slice('--signal='.length);
    // bash's `-sKILL` and `-n9`: the signal attached to its option.
    else if (signal === null && targets.length === 0 && (/^-s[A-Za-z]/.test(a) || /^-n\d/.test(a)) && !SIGNAL_NAME.test(a.slice(1))) signal = a.slice(2);
    else if (a === '-q' || a === '--queue') i += 1;
    else if (a === '--timeout') i += 2;
    else if (a.startsWith('-') && a.length > 1 && signal === null && targets.length === 0 && i < args.length - 1) signal = a.slice(1);
    else if (!a.startsWith('--')) targets.push(pid(a));
  }
  return { signal, targets };
}

/** Signal names, with or without `SIG`, any case (`-sigkill` is SIGKILL spelled as a name, not `-s igkill`). */
const SIGNAL_NAME = /^(sig)?(hup|int|quit|ill|trap|abrt|iot|bus|fpe|kill|usr1|segv|usr2|pipe|alrm|term|stkflt|chld|cld|cont|stop|tstp|ttin|ttou|urg|xcpu|xfsz|vtalrm|prof|winch|io|poll|pwr|sys|rtmin|rtmax)$/i;

/** A pid as kill reads it: `-01`, `+1` and `001` are the numbers -1 and 1 (bash and util-linux parse them as integers). */
function pid(word: string): string {
  return /^[-+]?\d{1,18}$/.test(word) ? String(Number(word)).replace(/^-0$/, '0') : word;
}

/**
 * pkill/killall: by name, pattern or user, which can match processes the agent never started (the user's
 * editor, a database), so it always asks; `-v` inverts the match and reaches every other process.
 */
function killByName(command: Command, scan: Scan): void {
  // `killall -l` lists signal names.
  if (command.args.length === 1 && /^(-l|--list)$/.test(command.args[0] as string)) return;
  // Signal 0 (`pkill -0 -f webpack`) only asks whether a match exists: nothing is delivered.
  const signal = command.name === 'pkill' ? ['--signal'] : ['-s', '--signal'];
  if (command.options.includes('-0') || signal.some((o) => command.optionValues.get(o)?.includes('0'))) return;
  const inverted = command.name === 'pkill' && command.options.some((o) => /^-[a-zA-Z]*v/.test(o) || o === '--inverse');
  // A pattern that matches any name (`pkill .`, `killall -r '.*'`) reaches every process as surely as kill -1.
  // pkill narrows by user, group, terminal, parent or session; killall by user, age or context (its `-s` is the signal).
  const narrowing = command.name === 'killall' ? /^-[a-zA-Z]*[uyoZ]$/ : /^-[a-zA-Z]*[uUgGtPs]$/;
  const exact = command.options.some((o) => /^-[a-zA-Z]*x/.test(o) || o === '--exact');
  // psmisc's `killall -r`, BSD and macOS's `killall -m`: the name is a regular expression.
  const regex = command.name === 'pkill' || command.options.some((o) => /^-[a-zA-Z]*r[a-zA-Z]*$/.test(o) || o === '--regexp' || (command.name === 'killall' && /^-[a-zA-Z]*m[a-zA-Z]*$/.test(o)));
  // A signal given as an option (`pkill -STOP`, `-9`, `-SIGKILL`) narrows nothing, whatever letters it ends with.
  const narrows = (o: string): boolean => narrowing.test(o) && !SIGNAL_NAME.test(o.slice(1)) && !/^-\d+$/.test(o);
  const catchAll = regex && command.operands.some((p) => matchesEveryName(p, exact)) && !command.options.some(narrows);
  // `pkill -u root`, `killall -9 -u root`: with no name, every process root owns (init and every daemon).
  const users = ['-u', '-U', '--euid', '--uid', '--user'].flatMap((o) => command.optionValues.get(o) ?? []).flatMap((v) => v.split(','));
  const rootOnly = users.length > 0 && users.every((u) => u === 'root' || u === '0');
  const everyRootProcess = rootOnly && (command.operands.length === 0 || (regex && command.operands.some((p) => matchesEveryName(p, exact))));
  flag(scan, inverted || catchAll || everyRootProcess || sigkillsInit(command, regex, exact) ? REASONS.killAll : REASONS.killProcesses);
}

/** The names pid 1 runs under, as `pkill -f` sees its command line too. */
const INIT_PROCESS_NAMES = ['systemd', 'init', '/sbin/init', '/lib/systemd/systemd', '/usr/lib/systemd/systemd', 'launchd'];

/** `pkill -9 systemd`, `killall -KILL init`: SIGKILL by a name that pid 1 answers to, as `kill -9 1`. */
function sigkillsInit(command: Command, regex: boolean, exact: boolean): boolean {
  const args = command.args;
  const sigkill = args.some((a, i) => /^-(9|KILL|SIGKILL)$/i.test(a) || (/^(-s|--signal)$/.test(a) && /^(9|KILL|SIGKILL)$/i.test(args[i + 1] ?? '')) || /^--signal=(9|KILL|SIGKILL)$/i.test(a));
  // pkill's `-s` is a session; killall's is the signal.
  const narrowing = command.name === 'killall' ? /^-[a-zA-Z]*[uyoZ]$/ : /^-[a-zA-Z]*[uUgGtPsyoZ]$/;
  if (!sigkill || command.options.some((o) => narrowing.test(o) || o === '--parent' || o === '--terminal')) return false;
  return command.operands.some((pattern) => {
    if (!regex) return INIT_PROCESS_NAMES.includes(pattern);
    try {
      const re = new RegExp(exact ? `^(?:${pattern})$` : pattern);
      const full = command.options.some((o) => /^-[a-zA-Z]*f/.test(o) || o === '--full');
      return (full ? INIT_PROCESS_NAMES : ['systemd', 'init', 'launchd']).some((name) => re.test(name) && (exact || pattern.length >= 3));
    } catch {
      return false;
    }
  });
}

/** `fuser -k /`, `fuser -km /`: every process has the root directory open (as its root, at least). */
function fuser(command: Command, scan: Scan): void {
  if (!command.options.some((o) => /^-[a-zA-Z]*k/.test(o) || o === '--kill')) return;
  const everything = command.operands.some((o) => resolvePath(o, scan.paths) === '/');
  flag(scan, everything ? REASONS.killAll : REASONS.killProcesses);
}

/**
 * taskkill filters (`/fi "PID ge 0"`) that every process passes, or all but a few that are not answering:
 * `STATUS eq RUNNING` is what a normal process reports, `MEMUSAGE gt 0` and `CPUTIME ge 00:00:00` hold for all.
 */
const TASKKILL_ALL_PASS = /^\s*(pid\s+(ge\s+[01]|gt\s+0|ne\s+0)|status\s+eq\s+running|status\s+ne\s+unknown|memusage\s+(gt|ge)\s+0|cputime\s+ge\s+0+(:0+)*|imagename\s+eq\s+\*)\s*$/i;

/** `taskkill /f /fi "PID ge 0"`: a filter every process passes selects every process; any other taskkill asks. */
function taskkill(command: Command, scan: Scan): void {
  const filters = command.args.filter((_a, i) => /^[/-]fi$/i.test(command.args[i - 1] ?? ''));
  const everyProcess = filters.some((f) => TASKKILL_ALL_PASS.test(f));
  flag(scan, everyProcess ? REASONS.killAll : REASONS.killProcesses);
}

/**
 * A WQL condition every process meets (`ProcessId > 0`, `ProcessId != 0`, `Name like '%'`), or all but the kernel's
 * own: pid 0 is the idle process and 4 is System, so `ProcessId > 4` selects every real process.
 */
const WQL_ALL_PASS = /^\s*(processid\s*(>\s*[0-4]|>=\s*[0-5]|!=\s*[04]|<>\s*[04])|name\s+like\s+['"]%['"])\s*$/i;

/** `wmic process [where "…"] call terminate` (or `delete`): with no condition, or one every process meets, every process. */
function wmic(command: Command, scan: Scan): void {
  const words = command.args.map((a) => a.toLowerCase());
  const at = words.indexOf('process');
  if (at === -1 || !(words.includes('terminate') || words.includes('delete'))) return;
  const where = words[at + 1] === 'where' ? command.args[at + 2] ?? '' : null;
  flag(scan, where === null || WQL_ALL_PASS.test(where.replace(/^\((.*)\)$/, '$1')) ? REASONS.killAll : REASONS.killProcesses);
}

export const PROCESS_SPECS: readonly CommandSpec[] = [
  { names: ['kill'], check: kill },
  { names: ['pkill', 'killall', 'skill', 'slay'], values: ['-u', '-U', '-g', '-G', '-t', '-P', '-s', '--signal', '-F', '--pidfile', '--ns', '--nslist', '--euid', '--uid', '--user'], check: killByName },
  { names: ['killall5'], check: (_c, s) => flag(s, REASONS.killAll) },
  { names: ['fuser'], values: ['-n', '--namespace'], check: fuser },
  { names: ['tmux'], rules: [{ sub: 'kill-server|kill-session|kill-window|kill-pane', reason: REASONS.killProcesses }] },
  { names: ['forever'], rules: [{ sub: 'stop|stopall|restartall', reason: REASONS.stopService }] },
  { names: ['sc', 'sc.exe'], rules: [{ sub: 'stop|delete|pause', reason: REASONS.stopService }, { sub: '* stop|delete', reason: REASONS.stopService }, { sub: 'config', operand: /^disabled$/, reason: REASONS.stopService }] },
  { names: ['net', 'net.exe'], rules: [{ sub: 'stop', reason: REASONS.stopService }, { sub: 'user', operand: /^\/(delete|add)$/i, reason: REASONS.accounts }, { sub: 'localgroup', operand: /^\/(add|delete)$/i, reason: REASONS.accounts }] },
  { names: ['taskkill', 'taskkill.exe'], check: taskkill },
  { names: ['wmic', 'wmic.exe'], check: wmic },
  // `xkill -all` kills every X client (each window's program) after one click; `xkill -id 0x…` one window's.
  { names: ['xkill'], rules: [{ option: /^-all$/, reason: REASONS.killProcesses }] },
  { names: ['screen'], rules: [{ option: /^-X$/, operand: /^quit$/, reason: REASONS.killProcesses }] },
];
