import { matchingParen, splitCommandLine, type SimpleCommand } from './command-split.js';
import { commandName } from './command-prefixes.js';

/**
 * The little evaluation the detector does in its head: expanding variables assigned earlier on the same
 * line, and computing the output of side-effect-free pipelines (`echo …`, `printf …`, `base64 -d`,
 * `rev`, `xxd -r -p`) so that `$(echo rm)` or `echo cm0g… | base64 -d | sh` is read as what it runs.
 * Anything it cannot compute stays as written (`$X`, `$(…)`), which the rules treat as unknown.
 */
export interface Evaluated {
  text: string;
  /** Some of the text came out of a decoder (base64, hex, reversal): a sign of deliberate obfuscation. */
  decoded: boolean;
}

const MAX_NESTING = 4;

/** Expands `$NAME`, `${NAME}`, `$(…)` and backticks in one word; unknown parts are kept verbatim. */
export function expandWord(word: string, vars: ReadonlyMap<string, string>, nesting = 0): Evaluated {
  if (!/[$`]/.test(word)) return { text: word, decoded: false };
  let text = '';
  let decoded = false;
  let i = 0;
  while (i < word.length) {
    const c = word[i] as string;
    const substitution = c === '$' && word[i + 1] === '(' ? { start: i + 2, end: matchingParen(word, i + 1) } : c === '`' ? { start: i + 1, end: indexOrEnd(word, '`', i + 1) } : null;
    if (substitution !== null) {
      const inner = word.slice(substitution.start, substitution.end);
      const output = nesting < MAX_NESTING ? pipelineOutput(splitCommandLine(inner), vars, nesting + 1) : null;
      if (output === null) text += word.slice(i, substitution.end + 1);
      else {
        text += output.text.replace(/\n+$/, '');
        decoded ||= output.decoded;
      }
      i = substitution.end + 1;
      continue;
    }
    const reference = c === '$' ? /^\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))/.exec(word.slice(i)) : null;
    const name = reference?.[1] ?? reference?.[2];
    const value = name === undefined ? undefined : vars.get(name);
    if (reference && value !== undefined) {
      text += value;
      i += reference[0].length;
      continue;
    }
    text += c;
    i += 1;
  }
  return { text, decoded };
}

/**
 * Expands every word. A word that was only a variable splits on whitespace as it would unquoted
 * (`CMD="rm -rf"; $CMD /`); quotes are gone by now, so `"$CMD"` splits too, which only over-reads.
 */
export function expandArgv(argv: readonly string[], vars: ReadonlyMap<string, string>): { argv: string[]; decoded: boolean } {
  const out: string[] = [];
  let decoded = false;
  for (const word of argv) {
    const expanded = expandWord(word, vars);
    decoded ||= expanded.decoded;
    if (/^\$(\{\w+\}|\w+)$/.test(word) && /\s/.test(expanded.text)) out.push(...expanded.text.split(/\s+/).filter((w) => w !== ''));
    else out.push(expanded.text);
  }
  return { argv: out, decoded };
}

/** The stdout of a pipeline of pure commands, or `null` when any stage is not one the detector can run. */
export function pipelineOutput(commands: readonly SimpleCommand[], vars: ReadonlyMap<string, string>, nesting = 0): Evaluated | null {
  let input: string | null = null;
  let decoded = false;
  for (const command of commands) {
    if (command.writes.length > 0) return null;
    const expanded = command.argv.map((w) => expandWord(w, vars, nesting));
    decoded ||= expanded.some((e) => e.decoded);
    const stdin = command.hereString !== undefined ? `${command.hereString}\n` : input;
    const stage = runStage(expanded.map((e) => e.text), stdin);
    if (stage === null) return null;
    input = stage.text;
    decoded ||= stage.decoded;
  }
  return input === null ? null : { text: input, decoded };
}

function runStage(argv: string[], stdin: string | null): Evaluated | null {
  const name = commandName(argv[0] ?? '');
  const args = argv.slice(1);
  const flags = args.filter((a) => a.startsWith('-') && a.length > 1);
  const operands = args.filter((a) => !a.startsWith('-') || a === '-');
  switch (name) {
    case 'echo': {
      const options = args.filter((a) => /^-[neE]+$/.test(a));
      const words = args.slice(options.length);
      const text = options.some((o) => o.includes('e')) ? unescape(words.join(' ')) : words.join(' ');
      return { text: options.some((o) => o.includes('n')) ? text : `${text}\n`, decoded: false };
    }
    case 'printf':
      return args[0] === undefined ? null : printf(args[0], args.slice(1));
    case 'base64':
      if (stdin === null || operands.length > 0 || !flags.some((f) => f === '-d' || f === '-D' || f === '--decode')) return null;
      return { text: Buffer.from(stdin.replace(/\s+/g, ''), 'base64').toString('utf8'), decoded: true };
    case 'xxd':
      if (stdin === null || !flags.includes('-r') || !flags.includes('-p')) return null;
      return { text: Buffer.from(stdin.replace(/\s+/g, ''), 'hex').toString('utf8'), decoded: true };
    case 'rev':
      if (stdin === null || operands.length > 0) return null;
      return { text: stdin.split('\n').map((l) => [...l].reverse().join('')).join('\n'), decoded: true };
    case 'cat':
    case 'tee':
      return stdin === null || (name === 'cat' && operands.length > 0) ? null : { text: stdin, decoded: false };
    default:
      return null;
  }
}

/** `printf` with `%s`, `%b` and `%%` only; a format with anything else is not evaluated. */
function printf(format: string, args: string[]): Evaluated | null {
  if (/%[^sb%]/.test(format.replace(/%%/g, ''))) return null;
  const slots = (format.replace(/%%/g, '').match(/%[sb]/g) ?? []).length;
  let text = '';
  let next = 0;
  do {
    text += unescape(format).replace(/%([sb%])/g, (_, kind: string) => (kind === '%' ? '%' : (args[next++] ?? '')));
  } while (slots > 0 && next < args.length);
  return { text, decoded: false };
}

function unescape(text: string): string {
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\' };
  return text.replace(/\\(x[0-9a-fA-F]{1,2}|0?[0-7]{1,3}|.)/g, (whole, esc: string) => {
    if (esc.startsWith('x')) return String.fromCharCode(Number.parseInt(esc.slice(1), 16));
    if (/^[0-7]/.test(esc)) return String.fromCharCode(Number.parseInt(esc, 8));
    return simple[esc] ?? whole;
  });
}

function indexOrEnd(text: string, needle: string, from: number): number {
  const at = text.indexOf(needle, from);
  return at === -1 ? text.length : at;
}
