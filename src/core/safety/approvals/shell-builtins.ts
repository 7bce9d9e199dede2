import type { Stdin } from './invocation.js';
import { pureOutput } from './pure-eval.js';
import { REASONS } from './reasons.js';
import { flag, UNKNOWN, type Scan } from './scan.js';

/**
 * The shell builtins that change what later words mean: `read` and `printf -v` assign, `set --` sets the positional
 * parameters, `set +o history` stops recording, `trap` registers a handler (classified now, as it runs later).
 * Returns true when the command was one of them, so it is not classified as an ordinary command too.
 */
export function runBuiltin(argv: string[], input: Stdin | null, scan: Scan): boolean {
  const [name, ...args] = argv;
  if (name === 'read') {
    const names = args.filter((a, i) => !a.startsWith('-') && !['-p', '-d', '-n', '-N', '-t', '-u', '-a'].includes(args[i - 1] ?? ''));
    const line = input?.text?.split('\n')[0] ?? null;
    const words = line === null ? [] : line.trim().split(/\s+/);
    names.forEach((variable, i) => {
      const value = line === null ? UNKNOWN : i === names.length - 1 ? words.slice(i).join(' ') : (words[i] ?? '');
      scan.vars.set(variable, names.length === 1 && line !== null ? line.trim() : value);
    });
    return true;
  }
  if (name === 'printf' && args[0] === '-v' && args[1] !== undefined) {
    // `printf -v cmd '%s' reboot; $cmd`
    scan.vars.set(args[1], pureOutput(['printf', ...args.slice(2)], null, scan.paths.cwd)?.text ?? UNKNOWN);
    return true;
  }
  if (name === 'set' && args.some((a, i) => a === '+o' && args[i + 1] === 'history')) flag(scan, REASONS.history);
  // `un\set HISTFILE` reaches here as a plain command, not as bash's unset statement.
  if (name === 'unset') {
    if (args.includes('HISTFILE')) flag(scan, REASONS.history);
    for (const variable of args) scan.vars.delete(variable);
    return true;
  }
  if (name === 'set' && args[0] === '--') {
    scan.positional = args.slice(1);
    return true;
  }
  // `trap -- 'cmd' ERR` ends trap's options first.
  const handler = name === 'trap' ? (args[0] === '--' ? args[1] : args[0]) : undefined;
  if (handler !== undefined && (args[0] === '--' || !handler.startsWith('-'))) {
    // The handler runs later, at the signal or at exit: it is classified now.
    scan.runShell(handler);
    return true;
  }
  return false;
}
