import type { PureOutput } from './pure-eval.js';

/**
 * What a one-line program prints when all it does is print an expression built from literals:
 * `python3 -c 'print("toober"[::-1])'`, `perl -e 'print pack("H*","726d…")'`, `awk 'BEGIN{printf "%c%c", 114, 109}'`.
 * A small evaluator for the few operations such lines use (string joins, slices, chr/fromCharCode, pack, hex decoding,
 * C-style %c formats); anything else gives null, so the printed text is "not known". pure-eval.ts asks it when such a
 * program feeds a shell.
 */
/**
 * `python3 -c "print('rm -rf /')" | sh`, `perl -e 'print pack("H*","726d…")'`, `python3 -c 'print("toober"[::-1])'`:
 * an interpreter whose whole program prints one expression built from literals. Per interpreter: the option that
 * takes code, how a print statement opens, and what joins two strings.
 */
const PRINTERS: ReadonlyArray<{ names: RegExp; option: RegExp; print: RegExp; dialect: Dialect }> = [
  { names: /^python[\d.]*$/, option: /^-c$/, print: /^\s*print\s*(?=\()/, dialect: 'python' },
  { names: /^(node|bun)$/, option: /^-e$/, print: /^\s*console\.log\s*(?=\()/, dialect: 'node' },
  { names: /^(node|bun)$/, option: /^-p$/, print: /^/, dialect: 'node' },
  { names: /^perl$/, option: /^-[eE]$/, print: /^\s*(?:print|say)\b/, dialect: 'perl' },
  { names: /^ruby$/, option: /^-e$/, print: /^\s*(?:puts|print)\b/, dialect: 'ruby' },
];

export function printedLiteral(name: string, args: readonly string[]): PureOutput | null {
  for (const { names, option, print, dialect } of PRINTERS) {
    if (!names.test(name) || args.length !== 2 || !option.test(args[0] as string)) continue;
    const code = args[1] as string;
    const opening = print.exec(code);
    if (opening === null) continue;
    const text = printedExpression(code.slice(opening[0].length), dialect);
    if (text !== null) return { text: `${text}\n`, decoded: true };
  }
  return null;
}

type Dialect = 'python' | 'node' | 'perl' | 'ruby' | 'awk';
type Value = string | number | Value[];

/** The text a print statement's arguments come to, or null when any part is not a literal or a known operation. */
function printedExpression(code: string, dialect: Dialect): string | null {
  const cursor = { text: code, at: 0 };
  const values = argumentList(cursor, dialect);
  if (values === null || !/^\s*;?\s*$/.test(code.slice(cursor.at))) return null;
  const strings = values.map((v) => (Array.isArray(v) ? null : String(v)));
  if (strings.some((v) => v === null)) return null;
  return (strings as string[]).join(dialect === 'python' || dialect === 'awk' ? ' ' : '');
}

interface Cursor {
  text: string;
  at: number;
}

function take(cursor: Cursor, token: RegExp): RegExpExecArray | null {
  const match = token.exec(cursor.text.slice(cursor.at));
  if (match !== null) cursor.at += match[0].length;
  return match;
}

/** Comma-separated expressions, in parentheses or (perl, ruby, awk) without. */
function argumentList(cursor: Cursor, dialect: Dialect): Value[] | null {
  const parenthesized = take(cursor, /^\s*\(/) !== null;
  const values: Value[] = [];
  if (parenthesized && take(cursor, /^\s*\)/) !== null) return values;
  do {
    const value = expression(cursor, dialect);
    if (value === null) return null;
    values.push(value);
  } while (take(cursor, /^\s*,/) !== null);
  if (parenthesized && take(cursor, /^\s*\)/) === null) return null;
  return values;
}

/** Strings joined: `.` in perl, `+` elsewhere, side by side in awk. */
function expression(cursor: Cursor, dialect: Dialect): Value | null {
  let value = term(cursor, dialect);
  const join = dialect === 'perl' ? /^\s*\.(?!\d)/ : /^\s*\+/;
  while (value !== null) {
    const at = cursor.at;
    if (take(cursor, join) === null && !(dialect === 'awk' && /^\s*["(a-z\d]/.test(cursor.text.slice(cursor.at)))) break;
    const next = term(cursor, dialect);
    if (next === null) {
      cursor.at = at;
      break;
    }
    value = typeof value === 'number' && typeof next === 'number' && dialect !== 'perl' && dialect !== 'awk' ? value + next : `${String(value)}${String(next)}`;
  }
  return value;
}

const STRING_LITERAL = /^\s*(?:[bru]{0,2}'((?:[^'\\]|\\.)*)'|[bru]{0,2}"((?:[^"\\]|\\.)*)"|qq?\(([^()]*)\))/;

function term(cursor: Cursor, dialect: Dialect): Value | null {
  let value = primary(cursor, dialect);
  while (value !== null) {
    const slice = dialect === 'python' ? take(cursor, /^\[\s*(-?\d+)?\s*(?::\s*(-?\d+)?\s*)?(?::\s*(-?\d+)?\s*)?\]/) : null;
    if (slice !== null) {
      if (typeof value === 'number') return null;
      value = sliced(value, slice[0].includes(':'), slice[1], slice[2], slice[3]);
      continue;
    }
    // `.decode()`, `.toString()`: bytes to text; `.reverse` (ruby); `.chr` (ruby) of a number.
    const method = dialect === 'perl' ? null : take(cursor, /^\.(decode|toString|reverse|chr|join)\b(\s*\(\s*(?:['"][\w-]*['"])?\s*\))?/);
    if (method === null) break;
    const [, name = '', call] = method;
    if (name === 'join') {
      if (typeof value !== 'string') return null;
      const inner = argumentList(cursor, dialect);
      if (inner === null || inner.length !== 1 || !Array.isArray(inner[0])) return null;
      value = inner[0].map(String).join(value);
    } else if (name === 'reverse' && call === undefined) value = typeof value === 'string' ? [...value].reverse().join('') : null;
    else if (name === 'chr') value = typeof value === 'number' ? String.fromCharCode(value) : null;
    else if (name === 'decode' || name === 'toString') value = typeof value === 'string' ? value : null;
    else return null;
  }
  return value;
}

function primary(cursor: Cursor, dialect: Dialect): Value | null {
  const literal = take(cursor, STRING_LITERAL);
  if (literal !== null) {
    const single = literal[1] !== undefined && literal[0].trimStart().replace(/^[bru]+/, '').startsWith("'");
    const body = literal[1] ?? literal[2] ?? literal[3] ?? '';
    // Perl and ruby keep backslashes in single quotes; python, node and awk escape in both.
    return single && (dialect === 'perl' || dialect === 'ruby') ? body.replace(/\\([\\'])/g, '$1') : unescape(body);
  }
  const number = take(cursor, /^\s*(0x[0-9a-fA-F]+|\d+)\b/);
  if (number !== null) return Number(number[1]);
  if (take(cursor, /^\s*\[/) !== null) {
    const items: Value[] = [];
    if (take(cursor, /^\s*\]/) !== null) return items;
    do {
      const item = expression(cursor, dialect);
      if (item === null) return null;
      items.push(item);
    } while (take(cursor, /^\s*,/) !== null);
    return take(cursor, /^\s*\]/) === null ? null : items;
  }
  if (take(cursor, /^\s*\(/) !== null) {
    const inner = expression(cursor, dialect);
    return inner === null || take(cursor, /^\s*\)/) === null ? null : inner;
  }
  const call = take(cursor, /^\s*(scalar\s+reverse|bytes\.fromhex|bytearray\.fromhex|String\.fromCharCode|Buffer\.from|[A-Za-z_]\w*)\s*(?=\(|\s["'\d])/);
  if (call === null) return null;
  const args = argumentList(cursor, dialect);
  return args === null ? null : applyBuiltin((call[1] as string).replace(/\s+/, ' '), args, dialect);
}

/** The few builtins that turn numbers, hex or a reversed string into text. */
function applyBuiltin(name: string, args: Value[], dialect: Dialect): Value | null {
  const [first, second] = args;
  const numbers = (values: Value[]): number[] | null => (values.every((v) => typeof v === 'number') ? (values as number[]) : null);
  const codes = (values: number[]): string => String.fromCharCode(...values.filter((n) => n >= 0 && n < 0x10000));
  switch (name) {
    case 'chr':
      return typeof first === 'number' && args.length === 1 ? String.fromCharCode(first) : null;
    case 'String.fromCharCode':
      return numbers(args) === null ? null : codes(args as number[]);
    case 'bytes':
    case 'bytearray':
      return Array.isArray(first) && numbers(first) !== null ? codes(first as number[]) : null;
    case 'bytes.fromhex':
    case 'bytearray.fromhex':
      return typeof first === 'string' ? hexText(first) : null;
    case 'Buffer.from':
      return typeof first === 'string' && second === 'hex' ? hexText(first) : null;
    case 'reversed':
      return typeof first === 'string' ? [...first].reverse() : null;
    case 'scalar reverse':
      return args.every((a) => typeof a === 'string') ? [...args.join('')].reverse().join('') : null;
    case 'pack': {
      // `pack("H*", hex)`, `pack("C*", 114, 109)`.
      if (dialect !== 'perl' || typeof first !== 'string') return null;
      if (/^H\*?$/.test(first) && typeof second === 'string') return hexText(second);
      const rest = args.slice(1).flatMap((v) => (Array.isArray(v) ? v : [v]));
      return /^[CcUW]\*$/.test(first) && numbers(rest) !== null ? codes(rest as number[]) : null;
    }
    case 'sprintf':
      return typeof first === 'string' ? formatted(first, args.slice(1)) : null;
    default:
      return null;
  }
}

function hexText(hex: string): string | null {
  const digits = hex.replace(/\s+/g, '');
  return /^([0-9a-fA-F]{2})*$/.test(digits) ? Buffer.from(digits, 'hex').toString('utf8') : null;
}

/** Python's `s[a:b:c]` (and `s[i]`) on a string. */
function sliced(value: string | Value[], isSlice: boolean, a?: string, b?: string, c?: string): Value | null {
  const chars = typeof value === 'string' ? [...value] : value;
  const n = chars.length;
  if (!isSlice) {
    const i = Number(a ?? 'NaN');
    const item = chars[i < 0 ? n + i : i];
    return item === undefined ? null : item;
  }
  const step = c === undefined ? 1 : Number(c);
  if (step === 0) return null;
  const clamp = (v: number, low: number, high: number): number => Math.min(Math.max(v < 0 ? v + n : v, low), high);
  const start = a === undefined ? (step > 0 ? 0 : n - 1) : clamp(Number(a), step > 0 ? 0 : -1, step > 0 ? n : n - 1);
  const stop = b === undefined ? (step > 0 ? n : -1) : clamp(Number(b), step > 0 ? 0 : -1, step > 0 ? n : n - 1);
  const out: Value[] = [];
  for (let i = start; step > 0 ? i < stop : i > stop; i += step) out.push(chars[i] as Value);
  return typeof value === 'string' ? out.join('') : out;
}

/** C-style `printf`/`sprintf` for `%c` (a number is a character code), `%s`, `%d` and `%%`; other conversions give null. */
function formatted(format: string, args: Value[]): string | null {
  let next = 0;
  let failed = false;
  const text = format.replace(/%([%csdi])/g, (_, kind: string) => {
    if (kind === '%') return '%';
    const arg = args[next++];
    if (arg === undefined || Array.isArray(arg)) failed = true;
    else if (kind === 'c') return typeof arg === 'number' ? String.fromCharCode(arg) : arg.charAt(0);
    else if (kind === 's') return String(arg);
    else if (typeof arg === 'number') return String(Math.trunc(arg));
    else failed = true;
    return '';
  });
  return failed || /%/.test(format.replace(/%[%csdi]/g, '')) ? null : text;
}

/** `awk 'BEGIN{printf "%c%c", 114, 109}'`, `awk 'BEGIN { print "re" "boot" }'`: a program that only prints, before any input. */
export function awkBeginPrint(program: string): PureOutput | null {
  const body = /^\s*BEGIN\s*\{\s*([\s\S]*?)\s*;?\s*\}\s*$/.exec(program)?.[1];
  const statement = body === undefined ? null : /^(printf|print)\b/.exec(body);
  if (body === undefined || statement === null) return null;
  const cursor = { text: body.slice(statement[0].length), at: 0 };
  const args = argumentList(cursor, 'awk');
  if (args === null || cursor.at !== cursor.text.length || args.length === 0) return null;
  const text = statement[1] === 'printf' ? (typeof args[0] === 'string' ? formatted(args[0], args.slice(1)) : null) : args.map(String).join(' ') + '\n';
  return text === null ? null : { text, decoded: true };
}
