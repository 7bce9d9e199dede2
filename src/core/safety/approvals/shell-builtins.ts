import type { Stdin } from './invocation.js';
import { pureOutput } from './pure-eval.js';
import { REASONS } from './reasons.js';
import { flag, UNKNOWN, type Scan } from './scan.js';
import { ARRAY_SEPARATOR } from './shell-words.js';

/**
 * The shell builtins that change what later words mean: `read` and `printf -v` assign, `set --` sets the positional
 * parameters, `set +o history` stops recording, `trap` registers a handler (classified now, as it runs later).
 * Returns true when the command was one of them, so it is not classified as an ordinary command too.
 */
export function runBuiltin(argv: string[], input: Stdin | null, scan: Scan): boolean {
  const [name, ...args] = argv;
  if (name === 'read') {
    // `read -ra args <<< '-rf /'`: the words of the line into an array.
    const arrayAt = args.findIndex((a) => /^-[a-zA-Z]*a$/.test(a));
    const array = arrayAt === -1 ? undefined : args[arrayAt + 1];
    if (array !== undefined) {
      const line = input?.text?.split('\n')[0] ?? null;
      const words = line?.trim().split(/\s+/).filter((w) => w !== '') ?? [];
      scan.vars.set(array, line === null || words.length === 0 ? UNKNOWN : words.join(ARRAY_SEPARATOR));
      return true;
    }
    const names = args.filter((a, i) => !a.startsWith('-') && !['-p', '-d', '-n', '-N', '-t', '-u', '-a'].includes(args[i - 1] ?? ''));
    const line = input?.text?.split('\n')[0] ?? null;
    const words = line === null ? [] : line.trim().split(/\s+/);
    names.forEach((variable, i) => {
      const value = line === null ? UNKNOWN : i === names.length - 1 ? words.slice(i).join(' ') : (words[i] ?? '');
      scan.vars.set(variable, names.length === 1 && line !== null ? line.trim() : value);
    });
    return true;
  }
  if (name === 'mapfile' || name === 'readarray') {
    // `mapfile -t a <<< /`: one element per line (with its newline unless -t), into MAPFILE or the named array.
    const valued = new Set(['-d', '-n', '-O', '-s', '-u', '-C', '-c']);
    const operands = args.filter((a, i) => !a.startsWith('-') && !valued.has(args[i - 1] ?? ''));
    const array = operands[0] ?? 'MAPFILE';
    const text = input?.text ?? null;
    const strip = args.some((a) => /^-[a-zA-Z]*t/.test(a));
    const custom = args.some((a) => a === '-d' || a === '-n' || a === '-s' || a === '-O' || a === '-u');
    const lines = text === null || custom ? null : text.split(/(?<=\n)/).filter((l) => l !== '').map((l) => (strip ? l.replace(/\n$/, '') : l));
    scan.vars.set(array, lines === null || lines.length === 0 ? UNKNOWN : lines.join(ARRAY_SEPARATOR));
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
    // The handler runs later, at the signal or at exit: it is read once, at the end of the line (walker.ts), so what it
    // does (`trap 'cd /' EXIT`) does not change how the commands after the trap are read.
    scan.traps.push({ handler, remote: scan.remote, cwd: scan.paths.cwd });
    return true;
  }
  // `alias x='rm -rf ~'`: the value is what the name runs from then on (like EDITOR's value).
  if (name === 'alias') {
    for (const definition of args) {
      const eq = definition.indexOf('=');
      if (eq > 0 && !definition.startsWith('-')) scan.runShell(definition.slice(eq + 1));
    }
    return true;
  }
  return false;
}
