/**
 * A rough shell splitter for the approval detector: enough of bash's grammar to find every simple
 * command in a command line (through `&&`, `||`, `;`, `|`, `&`, newlines, subshells, `$(…)`,
 * backticks and process substitution) with quotes removed and output redirect targets separated out.
 * It is deliberately a separate module: a full shell parser (a later issue) replaces it without the
 * detector's rules changing. It over-splits rather than under-splits (a heredoc body is read as
 * commands), which can only make the detector stricter.
 */
export interface SimpleCommand {
  /** Words with quotes and escapes removed; redirections excluded. */
  argv: string[];
  /** Targets of output redirections (`> f`, `>> f`, `&> f`, `2> f`). */
  writes: string[];
  /** True when this command's stdout is piped into the next command of the list. */
  pipesToNext: boolean;
  /** Sources of input redirections (`< f`); present only when there are some. */
  reads?: string[];
  /** The text of a here-string (`<<< text`); present only when there is one. */
  hereString?: string;
}

type Op = '|' | '&&' | '||' | ';' | '&' | '\n';

export function splitCommandLine(line: string): SimpleCommand[] {
  const out: SimpleCommand[] = [];
  parseInto(line, out);
  return out;
}

function parseInto(line: string, out: SimpleCommand[]): void {
  let argv: string[] = [];
  let writes: string[] = [];
  let reads: string[] = [];
  let hereString: string | undefined;
  let word: string | null = null;
  let nextWord: 'argv' | 'write' | 'read' | 'hereString' | 'heredocDelimiter' = 'argv';

  const endWord = (): void => {
    if (word === null) return;
    if (nextWord === 'write') writes.push(word);
    else if (nextWord === 'read') reads.push(word);
    else if (nextWord === 'hereString') hereString = word;
    else if (nextWord === 'argv') argv.push(word);
    nextWord = 'argv';
    word = null;
  };
  const endCommand = (op: Op | null): void => {
    endWord();
    if (argv.length > 0 || writes.length > 0 || hereString !== undefined) {
      out.push({ argv, writes, pipesToNext: op === '|', ...(reads.length > 0 ? { reads } : {}), ...(hereString !== undefined ? { hereString } : {}) });
    }
    argv = [];
    writes = [];
    reads = [];
    hereString = undefined;
  };
  const append = (text: string): void => {
    word = (word ?? '') + text;
  };

  let i = 0;
  while (i < line.length) {
    const c = line[i] as string;
    const next = line[i + 1];
    if (c === '\\') {
      if (next === '\n') i += 2; // line continuation
      else {
        append(next ?? '');
        i += 2;
      }
      continue;
    }
    if (c === '$' && next === "'") {
      // ANSI-C quoting: `$'\x72\x6d'` is `rm`, so the escapes are decoded before any rule sees the word.
      const { text, end } = readAnsiCQuoted(line, i + 2);
      append(text);
      i = end;
      continue;
    }
    if (c === '$' && next === '"') {
      i += 1; // `$"…"` (locale translation) reads as a plain double-quoted string
      continue;
    }
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      const stop = end === -1 ? line.length : end;
      append(line.slice(i + 1, stop));
      i = stop + 1;
      continue;
    }
    if (c === '"') {
      i = readDoubleQuoted(line, i + 1, append, out);
      continue;
    }
    if (c === '`') {
      const end = line.indexOf('`', i + 1);
      const stop = end === -1 ? line.length : end;
      parseInto(line.slice(i + 1, stop), out);
      append(line.slice(i, stop + 1));
      i = stop + 1;
      continue;
    }
    if ((c === '$' || c === '<' || c === '>') && next === '(') {
      const stop = matchingParen(line, i + 1);
      parseInto(line.slice(i + 2, stop), out);
      append(line.slice(i, stop + 1));
      i = stop + 1;
      continue;
    }
    if (c === '#' && word === null) {
      const end = line.indexOf('\n', i);
      i = end === -1 ? line.length : end;
      continue;
    }
    if (c === ' ' || c === '\t') {
      endWord();
      i += 1;
      continue;
    }
    if (c === '>' || (c === '&' && next === '>') || (c === '<' && word === null) || (c === '<' && /^\d+$/.test(word ?? ''))) {
      // A redirect; a word made only of digits right before it is a file-descriptor number.
      if (word !== null && /^\d+$/.test(word)) word = null;
      endWord();
      const input = c === '<';
      const kind = line.startsWith('<<<', i) ? 'hereString' : line.startsWith('<<', i) ? 'heredocDelimiter' : input ? 'read' : 'write';
      let j = i + 1;
      while (line[j] === '>' || line[j] === '<' || line[j] === '|') j += 1;
      if (line[j] === '&') {
        // `>&2`, `2>&1`: duplicating a descriptor, no file involved.
        j += 1;
        while (j < line.length && /[\d-]/.test(line[j] as string)) j += 1;
      } else nextWord = kind;
      i = j;
      continue;
    }
    const op = operatorAt(line, i);
    if (op !== null) {
      endCommand(op.op);
      i += op.length;
      continue;
    }
    // `)` always closes a group (or a `case` pattern); `(`/`{`/`}` only where a command could start or end.
    if (c === ')' || ((c === '(' || c === '{' || c === '}') && word === null && isGroupingPosition(line, i))) {
      endCommand(null);
      i += 1;
      continue;
    }
    append(c);
    i += 1;
  }
  endCommand(null);
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v' };

/** Reads `$'…'` from just after the opening quote; returns the decoded text and the index after the closing quote. */
function readAnsiCQuoted(line: string, start: number): { text: string; end: number } {
  let text = '';
  let i = start;
  while (i < line.length && line[i] !== "'") {
    const c = line[i] as string;
    if (c !== '\\' || i + 1 >= line.length) {
      text += c;
      i += 1;
      continue;
    }
    const rest = line.slice(i + 1);
    const numeric = /^x([0-9a-fA-F]{1,2})/.exec(rest) ?? /^u([0-9a-fA-F]{1,4})/.exec(rest) ?? /^U([0-9a-fA-F]{1,8})/.exec(rest);
    const octal = /^[0-7]{1,3}/.exec(rest);
    if (numeric) {
      text += String.fromCodePoint(Number.parseInt(numeric[1] as string, 16));
      i += 1 + numeric[0].length;
    } else if (octal) {
      text += String.fromCharCode(Number.parseInt(octal[0], 8));
      i += 1 + octal[0].length;
    } else {
      const escaped = rest[0] as string;
      text += SIMPLE_ESCAPES[escaped] ?? escaped;
      i += 2;
    }
  }
  return { text, end: i + 1 };
}

function readDoubleQuoted(line: string, start: number, append: (t: string) => void, out: SimpleCommand[]): number {
  let i = start;
  let text = '';
  while (i < line.length && line[i] !== '"') {
    const c = line[i] as string;
    if (c === '\\' && i + 1 < line.length) {
      text += line[i + 1];
      i += 2;
    } else if (c === '$' && line[i + 1] === '(') {
      const stop = matchingParen(line, i + 1);
      parseInto(line.slice(i + 2, stop), out);
      text += line.slice(i, stop + 1);
      i = stop + 1;
    } else if (c === '`') {
      const end = line.indexOf('`', i + 1);
      const stop = end === -1 ? line.length : end;
      parseInto(line.slice(i + 1, stop), out);
      text += line.slice(i, stop + 1);
      i = stop + 1;
    } else {
      text += c;
      i += 1;
    }
  }
  append(text);
  return i + 1;
}

/** Index of the `)` closing the `(` at `open`, skipping quoted text; the end of the line if unbalanced. */
export function matchingParen(line: string, open: number): number {
  let depth = 0;
  for (let i = open; i < line.length; i += 1) {
    const c = line[i];
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      if (end === -1) return line.length;
      i = end;
    } else if (c === '(') depth += 1;
    else if (c === ')') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return line.length;
}

function operatorAt(line: string, i: number): { op: Op; length: number } | null {
  const two = line.slice(i, i + 2);
  if (two === '&&' || two === '||') return { op: two, length: 2 };
  if (two === '|&') return { op: '|', length: 2 };
  if (two === ';;') return { op: ';', length: 2 };
  const c = line[i];
  if (c === '|' || c === ';' || c === '&' || c === '\n') return { op: c, length: 1 };
  return null;
}

/** `(`/`{` open a group only where a command could start; `}`/`)` close one. Elsewhere they are text (`a{b,c}`). */
function isGroupingPosition(line: string, i: number): boolean {
  const c = line[i];
  if (c === '(' || c === ')') return true;
  const after = line[i + 1];
  return after === undefined || after === ' ' || after === '\t' || after === '\n' || after === ';';
}
