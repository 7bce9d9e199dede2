import { awkBeginPrint, printedLiteral } from './printed-expression.js';
import { ALL_PROCESSES, OWN_JOB, UNKNOWN } from './scan.js';

/**
 * The stdout of side-effect-free commands the detector can run in its head (`echo`, `printf`, `base64 -d`,
 * `xxd -r -p`, `rev`, `cat`/`tee` of stdin), so `$(echo rm)` or `echo cm0g… | base64 -d | sh` is read as what
 * it runs. Anything else, or any input containing UNKNOWN, gives null: the output is not known.
 */
export interface PureOutput {
  text: string;
  /** Some of it came out of a decoder: a sign of deliberate obfuscation. */
  decoded: boolean;
}

export function pureOutput(argv: readonly string[], stdin: string | null, cwd: string | null | undefined): PureOutput | null {
  if (argv.some((a) => a.includes(UNKNOWN)) || stdin?.includes(UNKNOWN) === true) return null;
  const name = argv[0] ?? '';
  const base = name.slice(name.lastIndexOf('/') + 1);
  const stage = STAGES[base];
  return stage === undefined ? printedLiteral(base, argv.slice(1)) : stage(argv.slice(1), stdin, cwd);
}

type Stage = (args: string[], stdin: string | null, cwd: string | null | undefined) => PureOutput | null;
const base64Decode = (stdin: string): PureOutput => decodedText(Buffer.from(stdin.replace(/\s+/g, ''), 'base64').toString('utf8'));

/** RFC 4648 base32 (`base32 -d`); padding and whitespace ignored, an invalid letter gives null. */
function base32Decode(stdin: string): PureOutput | null {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const c of stdin.replace(/[\s=]+/g, '').toUpperCase()) {
    const index = alphabet.indexOf(c);
    if (index === -1) return null;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((value >> bits) & 0xff);
    }
  }
  return decodedText(Buffer.from(bytes).toString('utf8'));
}

const flagsOf = (args: string[]): string[] => args.filter((a) => a.startsWith('-') && a.length > 1);
const operandsOf = (args: string[]): string[] => args.filter((a) => !a.startsWith('-') || a === '-');
const decodedText = (text: string): PureOutput => ({ text, decoded: true });

/** A process-name pattern that matches every name (`.`, `^`, `.*`, `''`). */
export const CATCH_ALL_PATTERN = /^(\^?\.[*+]?\$?|\^|\.\*|)$/;

/** The names pid 1 runs under. */
const INIT_NAMES = /^(init|systemd|\/sbin\/init|\/lib\/systemd\/systemd|launchd)$/;

/** Process names of every shape: a pattern that matches them all matches any process. */
const SAMPLE_NAMES = ['systemd', 'init', 'kthreadd', 'kworker/0:1H', 'sshd', 'Xorg', 'node', 'python3.12', 'a', '1', 'X-b_c.d'];

/**
 * `pkill .`, `pkill '[a-z]*'`, `killall -r '\w*'`: a regular expression that finds a match in every name (one that
 * can match nothing matches everywhere). With `exact` (`pkill -x`), the whole name must match.
 */
export function matchesEveryName(pattern: string, exact = false): boolean {
  if (CATCH_ALL_PATTERN.test(pattern)) return true;
  if (pattern.includes(UNKNOWN) || pattern.length > 200) return false;
  let re: RegExp;
  try {
    re = new RegExp(exact ? `^(?:${pattern})$` : pattern);
  } catch {
    return false;
  }
  return SAMPLE_NAMES.every((name) => re.test(name));
}
const ALL_PROCESSES_OUTPUT: PureOutput = { text: `${ALL_PROCESSES}\n`, decoded: false };

/** find options that neither filter nor act: the starting points are still printed. */
const FIND_PASSIVE: ReadonlySet<string> = new Set(['-maxdepth', '-print', '-print0', '-xdev', '-mount', '-depth', '-L', '-H', '-P', '-follow', '-noleaf']);

function absolutePath(path: string, cwd: string): string {
  const parts: string[] = [];
  for (const part of `${path.startsWith('/') ? '' : `${cwd}/`}${path}`.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '' && part !== '.') parts.push(part);
  }
  return `/${parts.join('/')}`;
}

function dirnameOf(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === '') return '/';
  const at = trimmed.lastIndexOf('/');
  return at === -1 ? '.' : at === 0 ? '/' : trimmed.slice(0, at);
}

const STAGES: Readonly<Record<string, Stage>> = {
  echo: (args) => {
    const firstWord = args.findIndex((a) => !/^-[neE]+$/.test(a));
    const options = firstWord === -1 ? args : args.slice(0, firstWord);
    const words = args.slice(options.length);
    const text = options.some((o) => o.includes('e')) ? unescape(words.join(' ')) : words.join(' ');
    return { text: options.some((o) => o.includes('n')) ? text : `${text}\n`, decoded: false };
  },
  printf: (args) => (args[0] === undefined ? null : printf(args[0], args.slice(1))),
  base64: (args, stdin) => {
    const flags = flagsOf(args);
    // `-d`, `-D` (macOS), `--decode`, and clusters with `-i` (ignore garbage): `-di`, `-id`.
    if (stdin === null || operandsOf(args).length > 0 || !flags.some((f) => /^-[iD d]*[dD][iD d]*$/.test(f) || f === '--decode')) return null;
    return base64Decode(stdin);
  },
  base32: (args, stdin) => (stdin === null || operandsOf(args).length > 0 || !flagsOf(args).some((f) => /^-[id]*d[id]*$/.test(f) || f === '--decode') ? null : base32Decode(stdin)),
  // `basenc --base64 -d`, `--base64url`, `--base32`, `--base16`.
  basenc: (args, stdin) => {
    const flags = flagsOf(args);
    if (stdin === null || operandsOf(args).length > 0 || !flags.some((f) => /^-[id]*d[id]*$/.test(f) || f === '--decode')) return null;
    if (flags.includes('--base64')) return base64Decode(stdin);
    if (flags.includes('--base64url')) return base64Decode(stdin.replace(/-/g, '+').replace(/_/g, '/'));
    if (flags.includes('--base32')) return base32Decode(stdin);
    if (flags.includes('--base16')) return decodedText(Buffer.from(stdin.replace(/\s+/g, ''), 'hex').toString('utf8'));
    return null;
  },
  // `"$(which rm)" -rf /`, `$(command -v reboot)`, `$(type -P shutdown)`: the path of the named program.
  which: (args) => (args.length === 1 && /^[\w.+-]+$/.test(args[0] as string) ? { text: `/usr/bin/${args[0] as string}\n`, decoded: false } : null),
  command: (args) => (args.length === 2 && args[0] === '-v' && /^[\w.+-]+$/.test(args[1] as string) ? { text: `/usr/bin/${args[1] as string}\n`, decoded: false } : null),
  type: (args) => (args.length === 2 && /^-[pP]$/.test(args[0] as string) && /^[\w.+-]+$/.test(args[1] as string) ? { text: `/usr/bin/${args[1] as string}\n`, decoded: false } : null),
  // `openssl base64 -d`, `openssl enc -base64 -d`
  openssl: (args, stdin) => (stdin !== null && (args[0] === 'base64' || (args[0] === 'enc' && args.includes('-base64'))) && args.includes('-d') && !args.includes('-in') ? base64Decode(stdin) : null),
  // `rm -rf "$(dirname "$PWD")"`: path arithmetic on known paths.
  dirname: (args) => (operandsOf(args).length === 0 || flagsOf(args).length > 0 ? null : { text: `${operandsOf(args).map(dirnameOf).join('\n')}\n`, decoded: false }),
  // `find ~ -maxdepth 1 | xargs rm -rf`: with no test that filters, find prints its starting points first.
  find: (args) => {
    const firstExpression = args.findIndex((a) => a.startsWith('-') || a === '(' || a === '!');
    const roots = args.slice(0, firstExpression === -1 ? args.length : firstExpression);
    const expression = firstExpression === -1 ? [] : args.slice(firstExpression);
    const unfiltered = expression.every((a, i) => FIND_PASSIVE.has(a) || a === '-mindepth' || (/^\d+$/.test(a) && /^-(max|min)depth$/.test(expression[i - 1] ?? '')));
    const end = expression.includes('-print0') ? '\0' : '\n';
    // `find ~ -type f` (no depth bound): every file beneath each root, written `ROOT/**` (judgeFileDelete reads a
    // delete of it as emptying the tree: `shred -u $(find ~ -type f)` leaves the home its folders and nothing else).
    const filesOnly = expression.filter((a, i) => !FIND_PASSIVE.has(a) && !(a === '-type' || (a === 'f' && expression[i - 1] === '-type')));
    if (roots.length > 0 && filesOnly.length === 0 && expression.some((a, i) => a === 'f' && expression[i - 1] === '-type')) {
      return { text: `${roots.map((r) => `${r.replace(/\/+$/, '')}/**`).join(end)}${end}${UNKNOWN}${end}`, decoded: false };
    }
    if (roots.length === 0 || !unfiltered) return null;
    // `find / -mindepth 1 -maxdepth 1`: the starting points left out, their entries (`/*`) are what it prints first.
    const minDepth = Number(expression[expression.indexOf('-mindepth') + 1] ?? 0);
    if (expression.includes('-mindepth') && minDepth > 1) return null;
    const printed = expression.includes('-mindepth') && minDepth === 1 ? roots.map((r) => `${r.replace(/\/+$/, '')}/*`) : roots;
    return { text: `${printed.join(end)}${end}${UNKNOWN}${end}`, decoded: false };
  },
  // `rm -rf "$(realpath ..)"`: the absolute path of a known path.
  realpath: (args, _stdin, cwd) => {
    const operands = operandsOf(args);
    if (typeof cwd !== 'string' || operands.length === 0 || flagsOf(args).length > 0 || operands.some((o) => o.startsWith('~') || /[*?[]/.test(o))) return null;
    return { text: `${operands.map((o) => absolutePath(o, cwd)).join('\n')}\n`, decoded: false };
  },
  // `readlink -f /`, `readlink -e ~`: the canonical path of a known path (no link on the way is known, so none is followed).
  readlink: (args, _stdin, cwd) => {
    const operands = operandsOf(args);
    const flags = flagsOf(args);
    if (typeof cwd !== 'string' || operands.length === 0 || flags.length !== 1 || !/^(-[fem]|--canonicalize(-existing|-missing)?)$/.test(flags[0] as string) || operands.some((o) => o.startsWith('~') || /[*?[]/.test(o))) return null;
    return { text: `${operands.map((o) => absolutePath(o, cwd)).join('\n')}\n`, decoded: false };
  },
  pwd: (_args, _stdin, cwd) => (typeof cwd === 'string' ? { text: `${cwd}\n`, decoded: false } : null),
  // `ls -d /` names what it is given (no glob, no listing of contents).
  ls: (args) => {
    const operands = operandsOf(args);
    // `ls /proc` lists a directory per process: every pid.
    if (operands.length === 1 && /^\/proc\/?$/.test(operands[0] as string)) return ALL_PROCESSES_OUTPUT;
    // `ls -d /*`: a glob names its matches, and the glob written again matches the same ones, so it stands for them.
    if (!flagsOf(args).some((f) => /^-[a-zA-Z]*d/.test(f)) || operands.length === 0) return null;
    return { text: `${operands.join('\n')}\n`, decoded: false };
  },
  // Every process, however it is printed: what matters is that it is all of them.
  // …and every process root owns (`ps -u root -o pid=`, `ps -U 0`): init and every daemon.
  ps: (args) => (selectedPids(args) ?? (args.some((a, i) => /^(-[a-zA-Z]*[eA][a-zA-Z]*|-?a?x[a-zA-Z]*|-?aux[a-zA-Z]*|--everyone)$/.test(a) || (/^(-u|-U|--user|--User)$/.test(a) && /^(root|0)$/.test(args[i + 1] ?? ''))) ? ALL_PROCESSES_OUTPUT : null)),
  // `pgrep .`: a pattern that matches any name lists every process.
  // `pgrep -v x` lists every process but the few that match; `pgrep -u root` with no pattern, every root process.
  pgrep: (args) => {
    const flags = flagsOf(args);
    const operands = operandsOf(args);
    if (flags.some((f) => /^-[a-zA-Z]*x/.test(f)) && operands.length === 1 && INIT_NAMES.test(operands[0] as string)) return { text: `1\n${UNKNOWN}\n`, decoded: false };
    const narrowed = flags.some((f) => /^-[a-zA-Z]*[uUgGtPs]$/.test(f));
    if (!narrowed && (operands.some((p) => matchesEveryName(p, flags.some((f) => /^-[a-zA-Z]*x/.test(f)))) || flags.some((f) => /^-[a-zA-Z]*v[a-zA-Z]*$/.test(f) || f === '--inverse'))) return ALL_PROCESSES_OUTPUT;
    const user = args.findIndex((a) => a === '-u' || a === '-U' || a === '--euid' || a === '--uid');
    return user !== -1 && operands.length === 1 && /^(root|0)$/.test(args[user + 1] ?? '') && flags.length === 1 ? ALL_PROCESSES_OUTPUT : null;
  },
  // Column pickers and header droppers keep "every process" every process (`ps -ef | awk '{print $2}'`,
  // `top -b -n1 | awk 'NR>7{print $1}'`).
  awk: (args, stdin) => {
    const program = operandsOf(args)[0] ?? '';
    const printed = operandsOf(args).length === 1 && flagsOf(args).length === 0 ? awkBeginPrint(program) : null;
    if (printed !== null) return printed;
    if (stdin === ALL_PROCESSES_OUTPUT.text && /^\s*((F?NR\s*(>=?|!=)\s*\d+\s*)?\{\s*print\s+\$\d+\s*\}|F?NR\s*(>=?|!=)\s*\d+)\s*$/.test(program)) return ALL_PROCESSES_OUTPUT;
    if (stdin === null || operandsOf(args).length !== 1 || flagsOf(args).length > 0) return null;
    // `awk '{print}'`, `awk 1`: every line as it came.
    if (/^\s*(1|\{\s*print(\s+\$0)?\s*;?\s*\})\s*$/.test(program)) return { text: stdin, decoded: false };
    // `awk '{print $1}' /proc/1/stat`: one whitespace-separated field of each line of known text.
    const field = /^\s*\{\s*print\s+\$(\d+)\s*;?\s*\}\s*$/.exec(program);
    if (field !== null) return { text: pickFields(stdin, Number(field[1]), /[ \t]+/), decoded: false };
    // `awk '{print "rm -rf " $0}'`: literals and fields glued together, line by line.
    const glued = /^\s*\{\s*print\s+((?:"[^"\\]*"|\$\d+)(?:\s*(?:"[^"\\]*"|\$\d+))*)\s*;?\s*\}\s*$/.exec(program);
    if (glued === null) return null;
    const terms = [...(glued[1] as string).matchAll(/"([^"\\]*)"|\$(\d+)/g)];
    const lines = stdin.split('\n').filter((line, i, all) => i < all.length - 1 || line !== '');
    const text = lines.map((line) => terms.map(([, literal, n]) => literal ?? (n === '0' ? line : (line.trim().split(/[ \t]+/)[Number(n) - 1] ?? ''))).join('')).join('\n');
    return { text: `${text}\n`, decoded: true };
  },
  // `sed 's/a/b/g'` on known text: one plain substitution (no regex metacharacters) is computed.
  sed: (args, stdin) => {
    const script = operandsOf(args);
    // `ps -eo pid | sed 1d`, `sed -n '2,$p'`: the header dropped, every process still listed.
    if (stdin === ALL_PROCESSES_OUTPUT.text && script.length === 1 && /^(1d|2,\$p?)$/.test(script[0] as string)) return ALL_PROCESSES_OUTPUT;
    if (stdin === null || script.length !== 1 || flagsOf(args).some((f) => f !== '-e')) return null;
    // `sed 's/^/rm -rf /'`, `sed 's/$/ \&/'`: text put before or after every line.
    const anchored = /^s(.)([\^$])\1((?:\\.|(?!\1)[^\\&])*)\1g?$/.exec(script[0] as string);
    if (anchored !== null) {
      const [, , anchor = '', escaped = ''] = anchored;
      const added = escaped.replace(/\\(.)/g, '$1');
      const lines = stdin.split('\n');
      const last = lines.at(-1) === '' ? lines.pop() : undefined;
      return { text: [...lines.map((line) => (anchor === '^' ? `${added}${line}` : `${line}${added}`)), ...(last === undefined ? [] : [last])].join('\n'), decoded: true };
    }
    const s = /^s(.)([^\\.*[\]^$+?(){}|]*)\1([^\\&]*)\1(g?)$/.exec(script[0] as string);
    if (s === null) return null;
    const [, , from = '', to = '', global = ''] = s;
    if (from === '') return null;
    const text = stdin.split('\n').map((line) => (global === 'g' ? line.split(from).join(to) : line.replace(from, to))).join('\n');
    return { text, decoded: true };
  },
  cut: (args, stdin) => {
    if (stdin === ALL_PROCESSES_OUTPUT.text) return ALL_PROCESSES_OUTPUT;
    // `cut -d' ' -f1 /proc/1/stat`: one field of known text, split on a one-character delimiter.
    const delimiter = /^-d(.)$/s.exec(args.find((a) => a.startsWith('-d')) ?? '')?.[1];
    const field = /^-f(\d+)$/.exec(args.find((a) => a.startsWith('-f')) ?? '')?.[1];
    if (stdin === null || delimiter === undefined || field === undefined || args.length !== 2) return null;
    return { text: pickFields(stdin, Number(field), delimiter), decoded: false };
  },
  // `seq 1 32768 | xargs kill -9`, `for i in $(seq 2 99999)`: a short range is computed; a range from 1 or 2 past any
  // pid the kernel hands out by default (32768) is every process (pid 1 is never the only one missed that matters).
  seq: (args) => {
    if (!args.every((a) => /^-?\d{1,9}$/.test(a)) || args.length === 0 || args.length > 3) return null;
    const [first, step, last] = args.length === 1 ? [1, 1, Number(args[0])] : args.length === 2 ? [Number(args[0]), 1, Number(args[1])] : args.map(Number) as [number, number, number];
    if (step <= 0) return null;
    if ((last - first) / step < 4096) {
      const values: number[] = [];
      for (let v = first; v <= last; v += step) values.push(v);
      return { text: values.length === 0 ? '' : `${values.join('\n')}\n`, decoded: false };
    }
    return first <= 2 && step === 1 && last >= 32768 ? ALL_PROCESSES_OUTPUT : null;
  },
  // `top -b -n1`: a batch listing of every process.
  top: (args) => (args.some((a) => /^-[a-zA-Z\d]*b/.test(a)) ? ALL_PROCESSES_OUTPUT : null),
  // Reordering or joining every pid keeps every pid (`| sort -rn`, `| tac`, `| paste -sd' '`, `| xargs`).
  // `$(basename "$p")` of every /proc entry is every pid.
  basename: (args) => (operandsOf(args).some((o) => o.startsWith(ALL_PROCESSES)) ? ALL_PROCESSES_OUTPUT : null),
  sort: (_args, stdin) => (stdin === ALL_PROCESSES_OUTPUT.text ? ALL_PROCESSES_OUTPUT : null),
  tac: (_args, stdin) => (stdin === ALL_PROCESSES_OUTPUT.text ? ALL_PROCESSES_OUTPUT : null),
  shuf: (_args, stdin) => (stdin === ALL_PROCESSES_OUTPUT.text ? ALL_PROCESSES_OUTPUT : null),
  uniq: (_args, stdin) => (stdin === ALL_PROCESSES_OUTPUT.text ? ALL_PROCESSES_OUTPUT : null),
  paste: (_args, stdin) => (stdin === ALL_PROCESSES_OUTPUT.text ? ALL_PROCESSES_OUTPUT : null),
  xargs: (args, stdin) => (stdin === ALL_PROCESSES_OUTPUT.text && operandsOf(args).length === 0 ? ALL_PROCESSES_OUTPUT : null),
  // `pidof init`, `pidof systemd` (pid 1 among the user managers), `pgrep -x init|systemd`.
  pidof: (args) => (operandsOf(args).some((o) => INIT_NAMES.test(o)) ? { text: `1\n${UNKNOWN}\n`, decoded: false } : null),
  tail: (args, stdin) => (stdin === ALL_PROCESSES_OUTPUT.text && args.some((a) => /^\+\d$/.test(a)) ? ALL_PROCESSES_OUTPUT : null),
  // A pid-only filter keeps every pid; `grep -v $$` leaves out a few and keeps every other process.
  grep: (args, stdin) => (stdin === ALL_PROCESSES_OUTPUT.text && (operandsOf(args).every((p) => /^\^?(\[0-9\]|\\d)[+*]?\$?$/.test(p)) || flagsOf(args).some((f) => /^-[a-zA-Z]*v/.test(f) || f === '--invert-match')) ? ALL_PROCESSES_OUTPUT : null),
  // `jobs -p`: the pids of this shell's own background jobs.
  jobs: (args) => (flagsOf(args).some((f) => /^-[a-z]*p/.test(f)) && operandsOf(args).length === 0 ? { text: `${OWN_JOB}\n`, decoded: false } : null),
  xxd: (args, stdin) => {
    const flags = flagsOf(args);
    if (stdin === null || !flags.some((f) => /^-[a-z]*r/.test(f)) || !flags.some((f) => /^-[a-z]*p/.test(f))) return null;
    return decodedText(Buffer.from(stdin.replace(/\s+/g, ''), 'hex').toString('utf8'));
  },
  rev: (args, stdin) => (stdin === null || operandsOf(args).length > 0 ? null : decodedText(stdin.split('\n').map((l) => [...l].reverse().join('')).join('\n'))),
  cat: (args, stdin) => (stdin === null || operandsOf(args).some((o) => o !== '-') ? null : { text: stdin, decoded: false }),
  tee: (_args, stdin) => (stdin === null ? null : { text: stdin, decoded: false }),
  tr: (args, stdin) => {
    // `tr 'a-z' 'n-za-m'` (ROT13) and other one-to-one maps of plain ranges.
    const [from, to] = operandsOf(args);
    if (stdin === ALL_PROCESSES_OUTPUT.text) return ALL_PROCESSES_OUTPUT;
    // `tr -d X`: the characters of a plain set deleted.
    if (stdin !== null && from !== undefined && to === undefined && flagsOf(args).length === 1 && flagsOf(args)[0] === '-d') {
      const deleted = expandRanges(from);
      return deleted === null ? null : decodedText([...stdin].filter((c) => !deleted.includes(c)).join(''));
    }
    if (stdin === null || from === undefined || to === undefined || flagsOf(args).length > 0) return null;
    const source = expandRanges(from);
    const target = expandRanges(to);
    if (source === null || target === null || target.length === 0) return null;
    return decodedText([...stdin].map((c) => { const at = source.indexOf(c); return at === -1 ? c : (target[Math.min(at, target.length - 1)] as string); }).join(''));
  },
};

/** The character classes `tr` maps one to one (upper and lower case map in order). */
const TR_CLASSES: Readonly<Record<string, string>> = { '[:upper:]': 'A-Z', '[:lower:]': 'a-z', '[:digit:]': '0-9' };

function expandRanges(set: string): string[] | null {
  const out: string[] = [];
  set = set.replace(/\[:(upper|lower|digit):\]/g, (whole) => TR_CLASSES[whole] ?? whole);
  for (let i = 0; i < set.length; i += 1) {
    const c = set[i] as string;
    if (c === '[' || c === '\\') return null;
    if (set[i + 1] === '-' && i + 2 < set.length) {
      const end = (set[i + 2] as string).charCodeAt(0);
      for (let code = c.charCodeAt(0); code <= end; code += 1) out.push(String.fromCharCode(code));
      i += 2;
    } else out.push(c);
  }
  return out;
}

/** The `n`th field (from 1) of each line, as awk and cut print it; awk's blanks also trim the line. */
function pickFields(text: string, n: number, separator: RegExp | string): string {
  const lines = text.split('\n').filter((line, i, all) => i < all.length - 1 || line !== '');
  const picked = lines.map((line) => (typeof separator === 'string' ? line : line.trim()).split(separator)[n - 1] ?? '');
  return `${picked.join('\n')}\n`;
}

/** `ps -p 1 -o pid=`, `ps -o pid= -q 1,2`: the pids asked for, printed back when only the pid column is shown. */
function selectedPids(args: readonly string[]): PureOutput | null {
  const at = args.findIndex((a) => /^(-p|-q|--pid|--quick-pid)$/.test(a) || /^-[pq]\d/.test(a));
  const list = at === -1 ? undefined : /^-[pq]\d/.test(args[at] as string) ? (args[at] as string).slice(2) : args[at + 1];
  const format = args.findIndex((a) => a === '-o' || a === '--format');
  if (list === undefined || !/^\d+(,\d+)*$/.test(list) || format === -1 || !/^pid=$/.test(args[format + 1] ?? '')) return null;
  return { text: `${list.split(',').join('\n')}\n`, decoded: false };
}

/** `printf` with `%s`, `%b`, `%c` and `%%` only; a format with anything else is not evaluated. */
function printf(format: string, args: string[]): PureOutput | null {
  if (/%[^sbc%]/.test(format.replace(/%%/g, ''))) return null;
  const slots = (format.replace(/%%/g, '').match(/%[sbc]/g) ?? []).length;
  let text = '';
  let next = 0;
  do {
    // `%b` expands backslash escapes in its argument (`printf '%b' '\x72\x6d'`).
    text += unescape(format).replace(/%([sbc%])/g, (_, kind: string) => (kind === '%' ? '%' : kind === 'b' ? unescape(args[next++] ?? '') : kind === 'c' ? [...(args[next++] ?? '')].slice(0, 1).join('') : (args[next++] ?? '')));
  } while (slots > 0 && next < args.length);
  return { text, decoded: false };
}

function unescape(text: string): string {
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\' };
  return text.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|0?[0-7]{1,3}|.)/g, (whole, esc: string) => {
    if (esc.startsWith('x')) return String.fromCharCode(Number.parseInt(esc.slice(1), 16));
    // `printf '\u0072\u006d'`, `echo -e '\U0001F600'`: bash's Unicode escapes.
    if (/^[uU][0-9a-fA-F]/.test(esc)) return String.fromCodePoint(Math.min(Number.parseInt(esc.slice(1), 16), 0x10ffff));
    if (/^[0-7]/.test(esc)) return String.fromCharCode(Number.parseInt(esc, 8));
    return simple[esc] ?? whole;
  });
}
