import { CATCH_ALL_PATTERN } from '../pure-eval.js';
import { REASONS } from '../reasons.js';
import { ALL_PROCESSES, flag, UNKNOWN, type Scan } from '../scan.js';
import type { Command, CommandSpec } from './spec.js';

/**
 * Process control: `kill -1` (every process) is hardline; pid 1, a pid computed at run time (`$(pgrep …)`,
 * `$(ps …)`), and killing by name, pattern or user (pkill, killall) ask. Killing one known pid is routine.
 */
function kill(command: Command, scan: Scan): void {
  const args = command.args;
  if (args.some((a) => a === '-l' || a === '-L' || a === '--list')) return;
  const targets: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i] as string;
    if (a === '-s' || a === '-n' || a === '--signal') i += 1;
    else if (!a.startsWith('-') || i === args.length - 1) targets.push(a);
  }
  // Every process; or SIGKILL to init (pid 1), whose death takes every process with it. A plain `kill 1` asks
  // (init re-executes or ignores SIGTERM; in a container it is a graceful stop).
  const sigkill = args.some((a, i) => /^-(9|KILL|SIGKILL)$/i.test(a) || (/^(-s|-n|--signal)$/.test(a) && /^(9|KILL|SIGKILL)$/i.test(args[i + 1] ?? '')));
  if (args.at(-1) === '-1' || targets.some((t) => t.includes(ALL_PROCESSES) || (t === '1' && sigkill))) flag(scan, REASONS.killAll);
  // `kill $!` ends the job this line started: not broad.
  const computed = targets.some((t) => t.includes(UNKNOWN)) && !/\$!/.test(command.invocation.source);
  if (computed || targets.some((t) => t === '1' || t === '0')) flag(scan, REASONS.killProcesses);
}

/**
 * pkill/killall: by name, pattern or user, which can match processes the agent never started (the user's
 * editor, a database), so it always asks; `-v` inverts the match and reaches every other process.
 */
function killByName(command: Command, scan: Scan): void {
  // `killall -l` lists signal names.
  if (command.args.length === 1 && /^(-l|--list)$/.test(command.args[0] as string)) return;
  const inverted = command.name === 'pkill' && command.options.some((o) => /^-[a-zA-Z]*v/.test(o) || o === '--inverse');
  // A pattern that matches any name (`pkill .`, `killall -r '.*'`) reaches every process as surely as kill -1.
  const catchAll = (command.name === 'pkill' || command.options.some((o) => o === '-r' || o === '--regexp')) && command.operands.some((p) => CATCH_ALL_PATTERN.test(p)) && !command.options.some((o) => /^-[a-zA-Z]*[uUgGtPs]$/.test(o));
  flag(scan, inverted || catchAll ? REASONS.killAll : REASONS.killProcesses);
}

export const PROCESS_SPECS: readonly CommandSpec[] = [
  { names: ['kill'], check: kill },
  { names: ['pkill', 'killall', 'skill', 'slay'], values: ['-u', '-U', '-g', '-G', '-t', '-P', '-s', '--signal', '-F', '--pidfile', '--ns', '--nslist'], check: killByName },
  { names: ['killall5'], check: (_c, s) => flag(s, REASONS.killAll) },
  { names: ['fuser'], check: (c, s) => (c.options.some((o) => /^-[a-zA-Z]*k/.test(o) || o === '--kill') ? flag(s, REASONS.killProcesses) : undefined) },
  { names: ['tmux'], rules: [{ sub: 'kill-server|kill-session|kill-window|kill-pane', reason: REASONS.killProcesses }] },
  { names: ['forever'], rules: [{ sub: 'stop|stopall|restartall', reason: REASONS.stopService }] },
  { names: ['sc', 'sc.exe'], rules: [{ sub: 'stop|delete|pause', reason: REASONS.stopService }, { sub: '* stop|delete', reason: REASONS.stopService }, { sub: 'config', operand: /^disabled$/, reason: REASONS.stopService }] },
  { names: ['net', 'net.exe'], rules: [{ sub: 'stop', reason: REASONS.stopService }, { sub: 'user', operand: /^\/delete$/i, reason: REASONS.accounts }] },
  { names: ['taskkill', 'taskkill.exe'], check: (_c, s) => flag(s, REASONS.killProcesses) },
  { names: ['screen'], rules: [{ option: /^-X$/, operand: /^quit$/, reason: REASONS.killProcesses }] },
];
