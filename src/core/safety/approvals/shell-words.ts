import { evaluateArithmetic } from './arithmetic.js';
import { expandBraces, protectBraces, restoreProtected } from './brace-expansion.js';
import { ALL_PROCESSES, OWN_JOB, UNKNOWN, type Scan } from './scan.js';
import type { ShellNode } from './shell-parser.js';

/**
 * Static word expansion, as bash does it in the order that matters here: quotes and `$'…'` escapes, tilde,
 * parameters (with `:-`, `:=`, substrings and the simple pattern operators), command substitution (through
 * `substitute`, which the walker answers by classifying and, when it can, evaluating the inner command),
 * brace expansion, then field splitting of unquoted expansion results on IFS (so `rm${IFS}-rf${IFS}/` is
 * three words). What cannot be known becomes UNKNOWN, never an empty string.
 */
export interface Substitution {
  /** The output, trailing newlines removed; UNKNOWN when it cannot be computed. */
  text: string;
  /** It came out of a decoder (base64, hex, reversal): a sign of deliberate obfuscation. */
  decoded: boolean;
  /** It came from the network (curl, wget). */
  downloaded: boolean;
}

export interface WordContext {
  scan: Scan;
  substitute(node: ShellNode): Substitution;
}

export interface Expanded {
  fields: string[];
  decoded: boolean;
  downloaded: boolean;
}

interface Segment {
  text: string;
  /** Quoted or produced by an expansion: no brace expansion, no tilde. */
  literal: boolean;
  /** An unquoted expansion result: split into fields on IFS whitespace. */
  split: boolean;
}

const SPLIT = '\uE014';
const PROC_PID_GLOB = /^\/proc\/(\[0-9\]|\[1-9\]\[0-9\])[*+]?\*?\/?$/;
/** Separates the elements of an array variable in `scan.vars` (`cmd=(rm -rf /)`). */
export const ARRAY_SEPARATOR = '\uE015';
const IFS_DEFAULT = ' \t\n';

export function expandWord(node: ShellNode, ctx: WordContext, split = true): Expanded {
  const state = { decoded: false, downloaded: false, quoted: false };
  const segments: Segment[] = [];
  collect(node, ctx, false, segments, state);
  const first = segments[0];
  if (first !== undefined && !first.literal && /^~(\/|$)/.test(first.text)) first.text = (ctx.scan.paths.home ?? '~') + first.text.slice(1);
  // `~+` is $PWD.
  else if (first !== undefined && !first.literal && /^~\+(\/|$)/.test(first.text) && typeof ctx.scan.paths.cwd === 'string') first.text = ctx.scan.paths.cwd + first.text.slice(2);
  const separators = split ? ifsPattern(ctx.scan) : null;
  const joined = segments.map((s) => (s.literal ? protectBraces(s.split && separators !== null ? s.text.replace(separators, SPLIT) : s.text) : s.text)).join('');
  const fields: string[] = [];
  for (const word of expandBraces(joined)) {
    for (const field of word.split(SPLIT)) if (field !== '') fields.push(restoreProtected(field));
  }
  if (fields.length === 0 && state.quoted) fields.push('');
  // `for p in /proc/[0-9]*`: one directory per process, so every process.
  for (const [i, field] of fields.entries()) if (PROC_PID_GLOB.test(field)) fields[i] = ALL_PROCESSES;
  return { fields, decoded: state.decoded, downloaded: state.downloaded };
}

/**
 * One word's text as a single string (assignment values, here-strings, redirect targets): bash does not split these
 * on IFS, so `s=${IFS:0:1}` holds a space. Brace-expanded words are joined by spaces.
 */
export function expandToString(node: ShellNode, ctx: WordContext): Expanded & { text: string } {
  const expanded = expandWord(node, ctx, false);
  return { ...expanded, text: expanded.fields.join(' ') };
}

/** Field splitting on the line's IFS (default space, tab, newline); an empty IFS splits nothing. */
function ifsPattern(scan: Scan): RegExp | null {
  const ifs = scan.vars.get('IFS') ?? IFS_DEFAULT;
  if (ifs === '' || ifs.includes(UNKNOWN)) return ifs === '' ? null : /[ \t\n]+/g;
  return new RegExp(`[${ifs.replace(/[\]\\^-]/g, '\\$&')}]+`, 'g');
}

type State = { decoded: boolean; downloaded: boolean; quoted: boolean };

function collect(node: ShellNode, ctx: WordContext, quoted: boolean, out: Segment[], state: State): void {
  switch (node.type) {
    case 'word':
    case 'number':
    case 'brace_expression':
    case 'command_name':
      if (node.type === 'command_name' || (node.namedChildCount > 0 && node.type !== 'brace_expression')) {
        for (const child of node.namedChildren) if (child !== null) collect(child, ctx, quoted, out, state);
        return;
      }
      if (quoted) out.push({ text: node.text, literal: true, split: false });
      else pushUnquotedWord(node.text, out);
      return;
    case 'raw_string':
      state.quoted = true;
      out.push({ text: node.text.slice(1, -1), literal: true, split: false });
      return;
    case 'ansi_c_string':
      state.quoted = true;
      out.push({ text: decodeAnsiC(node.text.slice(2, -1)), literal: true, split: false });
      return;
    case 'string':
    case 'translated_string':
      state.quoted = true;
      collectDoubleQuoted(node, ctx, out, state);
      return;
    case 'concatenation':
      for (const child of node.children) {
        if (child === null) continue;
        // `-$$`: tree-sitter leaves this shell's pid as an unnamed `$$` token inside the word.
        if (!child.isNamed && child.text === '$$') out.push({ text: OWN_JOB, literal: true, split: false });
        else if (child.isNamed) collect(child, ctx, quoted, out, state);
      }
      return;
    case 'simple_expansion':
    case 'expansion':
      out.push({ text: expandParameter(node, ctx, state, quoted), literal: true, split: !quoted });
      return;
    case 'command_substitution': {
      const result = ctx.substitute(node);
      state.decoded ||= result.decoded;
      state.downloaded ||= result.downloaded;
      out.push({ text: result.text, literal: true, split: !quoted });
      return;
    }
    case 'process_substitution': {
      // The word is a /dev/fd path whose content is the inner command's output (or input).
      const result = ctx.substitute(node);
      state.decoded ||= result.decoded;
      state.downloaded ||= result.downloaded;
      // `bash <(echo …)`, `psql -f <(…)`: a known output is a file this line wrote (`/dev/fd/63`).
      out.push({ text: result.text.startsWith('/dev/fd/') ? result.text : UNKNOWN, literal: true, split: false });
      return;
    }
    case 'arithmetic_expansion': {
      // `$((2-3))`: integer arithmetic on literals and known variables; anything else is unknown.
      const body = /^\$\(\(([\s\S]*)\)\)$/.exec(node.text) ?? /^\$\[([\s\S]*)\]$/.exec(node.text);
      const value = body === null || node.descendantsOfType(['command_substitution', 'process_substitution']).length > 0 ? null : evaluateArithmetic(body[1] as string, (name) => lookup(name, ctx.scan));
      if (value !== null) {
        out.push({ text: value, literal: true, split: !quoted });
        return;
      }
      for (const inner of node.descendantsOfType(['command_substitution', 'process_substitution'])) if (inner !== null) ctx.substitute(inner);
      out.push({ text: UNKNOWN, literal: true, split: false });
      return;
    }
    default:
      // Arithmetic and anything else: its commands still run (and are classified), its value is unknown.
      for (const inner of node.descendantsOfType(['command_substitution', 'process_substitution'])) if (inner !== null) ctx.substitute(inner);
      out.push({ text: UNKNOWN, literal: true, split: false });
  }
}

/** `\x` quotes x; `\<newline>` is a line continuation; the rest is brace- and tilde-active text. */
function pushUnquotedWord(text: string, out: Segment[]): void {
  let plain = '';
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (c !== '\\') {
      plain += c;
      continue;
    }
    if (plain !== '') out.push({ text: plain, literal: false, split: false });
    plain = '';
    const next = text[i + 1];
    if (next !== undefined && next !== '\n') out.push({ text: next, literal: true, split: false });
    i += 1;
  }
  if (plain !== '') out.push({ text: plain, literal: false, split: false });
}

/** Between the named children of a `"…"` string lies its literal text (tree-sitter does not always wrap it). */
function collectDoubleQuoted(node: ShellNode, ctx: WordContext, out: Segment[], state: State): void {
  const source = node.text;
  const base = node.startIndex;
  const open = node.type === 'translated_string' ? 2 : 1;
  let at = open;
  const literal = (end: number): void => {
    if (end > at) out.push({ text: unescapeDoubleQuoted(source.slice(at, end)), literal: true, split: false });
  };
  for (const child of node.namedChildren) {
    if (child === null || child.type === 'string_content') continue;
    literal(child.startIndex - base);
    collect(child, ctx, true, out, state);
    at = child.endIndex - base;
  }
  literal(source.length - 1);
}

function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === '\n' ? '' : c));
}

const PARAMETER = /^\$\{([#!]?)([A-Za-z_]\w*|\d+|[@*#?$!-])(\[[^\]]*\])?([\s\S]*)\}$/;

function expandParameter(node: ShellNode, ctx: WordContext, state: State, quoted = false): string {
  // `"$@"`, `"${cmd[@]}"`: one field per element, even inside quotes.
  const list = (items: readonly string[]): string => items.join(quoted ? SPLIT : ' ');
  // `"$*"`, `"${w[*]}"`: one word, the elements joined by IFS's first character (none when IFS is empty).
  const joined = (items: readonly string[]): string => items.join(quoted ? firstOfIfs(ctx.scan) : ' ');
  if (node.type === 'simple_expansion') {
    const name = node.text.slice(1);
    const items = name === '@' || name === '*' ? elements(name, ctx.scan) : undefined;
    return items !== undefined ? (name === '@' ? list(items) : joined(items)) : (lookup(name, ctx.scan) ?? UNKNOWN);
  }
  const match = PARAMETER.exec(node.text);
  if (match === null) return UNKNOWN;
  const [, prefix, name = '', subscript, operation = ''] = match;
  if (prefix === '' && operation === '' && (subscript !== undefined || name === '@')) {
    const written = elements(name, ctx.scan);
    if (written === undefined) return UNKNOWN;
    // `m=([go]=reboot)` (an associative array, or an indexed one with keys): each element is stored as written.
    const keyed = written.map((i) => /^\[\s*(['"]?)([^\]$`]*?)\1\s*\]=([\s\S]*)$/.exec(i));
    const items = keyed.map((k, i) => (k === null ? (written[i] as string) : (k[3] as string)));
    const index = subscript?.slice(1, -1) ?? '@';
    if (index === '@') return list(items);
    if (index === '*') return joined(items);
    if (keyed.some((k) => k !== null)) {
      const hit = keyed.findLast((k) => k?.[2] === index.replace(/^(['"])(.*)\1$/, '$2'));
      return hit !== undefined && hit !== null ? (hit[3] as string) : keyed.every((k) => k !== null) && /^[\w.-]+$/.test(index) ? '' : UNKNOWN;
    }
    return /^\d+$/.test(index) ? (items[Number(index)] ?? '') : UNKNOWN;
  }
  const value = subscript === undefined ? lookup(name, ctx.scan) : undefined;
  // `${!v}`: the variable whose name v holds.
  if (prefix === '!') return operation === '' && value !== undefined && /^[A-Za-z_]\w*$/.test(value) ? (lookup(value, ctx.scan) ?? UNKNOWN) : UNKNOWN;
  if (prefix === '#') return operation === '' && value !== undefined && !value.includes(UNKNOWN) ? String(value.length) : UNKNOWN;
  if (operation === '') return value ?? UNKNOWN;
  const defaulting = /^:?[-=?+]/.exec(operation);
  if (defaulting !== null) {
    const op = defaulting[0];
    const set = value !== undefined && (op.startsWith(':') ? value !== '' : true);
    const word = (): string => defaultWord(node, ctx, state, operation.slice(op.length));
    if (op.endsWith('+')) return value === undefined ? UNKNOWN : set ? word() : '';
    if (value !== undefined && value.includes(UNKNOWN)) return UNKNOWN;
    if (set) return value;
    if (op.endsWith('?')) return UNKNOWN;
    const fallback = word();
    if (op.endsWith('=')) ctx.scan.vars.set(name, fallback);
    return fallback;
  }
  if (value === undefined || value.includes(UNKNOWN)) return UNKNOWN;
  return operate(value, operation) ?? UNKNOWN;
}

/** The word after `:-`/`:=`/`:+` as parsed nodes, or its text when tree-sitter kept it as plain text. */
function defaultWord(node: ShellNode, ctx: WordContext, state: State, text: string): string {
  const parts = node.namedChildren.filter((c): c is ShellNode => c !== null && !['variable_name', 'special_variable_name', 'subscript'].includes(c.type));
  if (parts.length === 0) return text;
  const segments: Segment[] = [];
  for (const part of parts) collect(part, ctx, true, segments, state);
  return segments.map((s) => s.text).join('');
}

/** Substrings, case changes and literal-pattern removal/replacement; globbing patterns are not evaluated. */
function operate(value: string, operation: string): string | null {
  const substring = /^:\s*(-?\d+)(?::\s*(-?\d+))?$/.exec(operation);
  if (substring !== null) {
    const offset = Number(substring[1]);
    const start = offset < 0 ? Math.max(0, value.length + offset) : offset;
    const length = substring[2] === undefined ? undefined : Number(substring[2]);
    return length === undefined ? value.slice(start) : length < 0 ? value.slice(start, value.length + length) : value.slice(start, start + length);
  }
  const caseChange: Record<string, (v: string) => string> = { '^^': (v) => v.toUpperCase(), ',,': (v) => v.toLowerCase(), '^': (v) => v.charAt(0).toUpperCase() + v.slice(1), ',': (v) => v.charAt(0).toLowerCase() + v.slice(1) };
  const change = caseChange[operation];
  if (change !== undefined) return change(value);
  // `${PWD%/*}`, `${f##*/}`: removal by a glob pattern (`*` and `?`), shortest or longest match.
  const globbed = /^(##?|%%?)([^[\]]*[*?][^[\]]*)$/s.exec(operation);
  if (globbed !== null) {
    const [, op = '', pat = ''] = globbed;
    const body = pat.replace(/[.+^${}()|\\/]/g, '\\$&').replace(/\*/g, op.length === 2 ? '[\\s\\S]*' : '[\\s\\S]*?').replace(/\?/g, '[\\s\\S]');
    if (op.startsWith('#')) return value.replace(new RegExp(`^${body}`), '');
    // Shortest suffix: try each start from the right.
    if (op === '%') {
      for (let at = value.length; at >= 0; at -= 1) if (new RegExp(`^${body}$`).test(value.slice(at))) return value.slice(0, at);
      return value;
    }
    for (let at = 0; at <= value.length; at += 1) if (new RegExp(`^${body}$`).test(value.slice(at))) return value.slice(0, at);
    return value;
  }
  // `${PWD%/project}`, `${f#./}`: a literal prefix or suffix, slashes included (only `/` and `//` take a replacement).
  const affix = /^(##?|%%?)([^*?[\]]*)$/s.exec(operation);
  if (affix !== null) {
    const [, op = '', pat = ''] = affix;
    if (op.startsWith('#')) return value.startsWith(pat) ? value.slice(pat.length) : value;
    return value.endsWith(pat) ? value.slice(0, value.length - pat.length) : value;
  }
  const pattern = /^(\/\/?|##?|%%?)([^*?[\]/]*)(?:\/(.*))?$/s.exec(operation);
  if (pattern === null) return null;
  const [, op = '', pat = '', replacement = ''] = pattern;
  if (op === '/') return value.replace(pat, replacement);
  if (op === '//') return pat === '' ? value : value.split(pat).join(replacement);
  if (op.startsWith('#')) return value.startsWith(pat) ? value.slice(pat.length) : value;
  return value.endsWith(pat) ? value.slice(0, value.length - pat.length) : value;
}

function firstOfIfs(scan: Scan): string {
  const ifs = scan.vars.get('IFS');
  return ifs === undefined || ifs.includes(UNKNOWN) ? ' ' : ifs.charAt(0);
}

/** A variable's value, or undefined when it is not known on this line. */
function lookup(name: string, scan: Scan): string | undefined {
  const assigned = scan.vars.get(name);
  // An array's plain name is its first element.
  if (assigned !== undefined) return assigned.split(ARRAY_SEPARATOR)[0];
  if (name === 'IFS') return IFS_DEFAULT;
  if (name === 'HOME') return scan.paths.home ?? '~';
  // Hearth runs every line with bash: `"$BASH" -c …` starts bash again.
  if (name === 'BASH') return '/bin/bash';
  if (name === 'PWD') return typeof scan.paths.cwd === 'string' ? scan.paths.cwd : undefined;
  // `$!` (the last background job) and `$$` (this shell): pids the line owns, not "any process".
  if (name === '!' || name === '$') return OWN_JOB;
  if (scan.positional === null) return undefined;
  if (/^[1-9]\d*$/.test(name)) return scan.positional[Number(name) - 1] ?? '';
  if (name === '@' || name === '*') return scan.positional.join((scan.vars.get('IFS') ?? ' ').charAt(0) || ' ');
  if (name === '#') return String(scan.positional.length);
  return undefined;
}

/** The elements of an array variable, or the positional parameters for `@`/`*`; undefined when unknown. */
function elements(name: string, scan: Scan): string[] | undefined {
  if (name === '@' || name === '*') return scan.positional ?? undefined;
  const assigned = scan.vars.get(name);
  return assigned === undefined || assigned === UNKNOWN ? undefined : assigned.split(ARRAY_SEPARATOR);
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v' };

/** `$'…'` (ANSI-C quoting): `$'\x72\x6d'` is `rm`, so escapes are decoded before any rule sees the word. */
export function decodeAnsiC(body: string): string {
  let text = '';
  for (let i = 0; i < body.length; i += 1) {
    const c = body[i] as string;
    if (c !== '\\' || i + 1 >= body.length) {
      text += c;
      continue;
    }
    const rest = body.slice(i + 1);
    const numeric = /^x([0-9a-fA-F]{1,2})/.exec(rest) ?? /^u([0-9a-fA-F]{1,4})/.exec(rest) ?? /^U([0-9a-fA-F]{1,8})/.exec(rest);
    const octal = /^[0-7]{1,3}/.exec(rest);
    const control = /^c(.)/.exec(rest);
    if (numeric) {
      text += String.fromCodePoint(Number.parseInt(numeric[1] as string, 16));
      i += numeric[0].length;
    } else if (octal) {
      text += String.fromCharCode(Number.parseInt(octal[0], 8));
      i += octal[0].length;
    } else if (control) {
      text += String.fromCharCode((control[1] as string).charCodeAt(0) & 0x1f);
      i += 2;
    } else {
      const escaped = rest[0] as string;
      text += SIMPLE_ESCAPES[escaped] ?? escaped;
      i += 1;
    }
  }
  return text;
}
