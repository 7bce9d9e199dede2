/**
 * Commands that run another command: `sudo rm -rf /` is an `rm`, not a `sudo`. Each entry says which
 * of the wrapper's options take a value and how many positional arguments come before the wrapped
 * command, so the detector can look through any stack of them (`sudo env FOO=1 timeout 5 nice rm …`).
 */
interface Wrapper {
  /** Options whose value is the next word when not attached (`-u root`). */
  valueOptions: ReadonlySet<string>;
  /** Positional arguments the wrapper itself consumes (`timeout 5 cmd`: 1). */
  positional: number;
}

const wrapper = (valueOptions: string[], positional = 0): Wrapper => ({ valueOptions: new Set(valueOptions), positional });

const WRAPPERS: ReadonlyMap<string, Wrapper> = new Map([
  ['sudo', wrapper(['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-T', '-U', '--user', '--group', '--chdir'])],
  ['doas', wrapper(['-u', '-C'])],
  ['env', wrapper(['-u', '-C', '--unset', '--chdir'])],
  ['timeout', wrapper(['-s', '-k', '--signal', '--kill-after'], 1)],
  ['nice', wrapper(['-n', '--adjustment'])],
  ['ionice', wrapper(['-c', '-n', '-p', '--class', '--classdata'])],
  ['stdbuf', wrapper(['-i', '-o', '-e'])],
  ['nohup', wrapper([])],
  ['pkexec', wrapper(['--user'])],
  ['exec', wrapper(['-a'])],
  ['command', wrapper([])],
  ['builtin', wrapper([])],
  ['time', wrapper(['-f', '-o'])],
  ['xargs', wrapper(['-n', '-I', '-P', '-d', '-L', '-a', '-s', '-E', '-e', '--max-args', '--max-procs', '--delimiter', '--arg-file'])],
]);

export interface Unwrapped {
  /** The command that actually runs, as argv. Empty when the line was only wrappers/assignments. */
  argv: string[];
  /** Names of the wrappers passed through, outermost first (`['sudo', 'env']`). */
  wrappers: string[];
  /** A command line smuggled in as one option value (`env -S "rm -rf /"`), to be classified too. */
  embedded: string[];
}

export function commandName(word: string): string {
  // `/usr/bin/rm` and `\rm` (alias bypass) are both `rm`.
  const base = word.slice(word.lastIndexOf('/') + 1);
  return base.startsWith('\\') ? base.slice(1) : base;
}

export function unwrapCommand(argv: readonly string[]): Unwrapped {
  const wrappers: string[] = [];
  const embedded: string[] = [];
  let i = 0;
  for (;;) {
    // Leading `NAME=value` assignments, and grouping words the splitter may leave behind.
    while (i < argv.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[i] as string) || argv[i] === '!')) i += 1;
    const name = commandName(argv[i] ?? '');
    const spec = WRAPPERS.get(name);
    if (spec === undefined) break;
    wrappers.push(name);
    i += 1;
    let positional = spec.positional;
    while (i < argv.length) {
      const word = argv[i] as string;
      if (word === '--') {
        i += 1;
        break;
      }
      if (word.startsWith('-') && word.length > 1) {
        if (name === 'env' && (word === '-S' || word === '--split-string')) {
          embedded.push(argv[i + 1] ?? '');
          i += 2;
          continue;
        }
        if (name === 'nice' && /^-\d+$/.test(word)) {
          i += 1;
          continue;
        }
        i += spec.valueOptions.has(word) ? 2 : 1;
        continue;
      }
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) && (name === 'env' || name === 'sudo')) {
        i += 1;
        continue;
      }
      if (positional > 0) {
        positional -= 1;
        i += 1;
        continue;
      }
      break;
    }
  }
  return { argv: argv.slice(i), wrappers, embedded };
}
