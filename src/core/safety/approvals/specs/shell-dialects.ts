/**
 * Code for `zsh -c` and `fish -c` is not bash, and the walker reads only bash. The common forms of each are rewritten
 * into their bash equivalents first; what is left unrewritten still fails to parse and stays "unreadable" (dangerous),
 * never safe. The rewrite is for reading only: a command it cannot place is left as written.
 */
export function asBash(shell: string, code: string): string {
  if (shell === 'zsh') return zshAsBash(code);
  if (shell === 'fish') return fishAsBash(code) ?? code;
  return code;
}

/** zsh's glob qualifiers at the end of a glob word: `*(.)`, `*(N)`, `*(/)`, `*(.om[1,5])`. */
const GLOB_QUALIFIER = /([*?\]][^\s;|&()'"]*)\([./@=p*%NrwxRWXAIEFoOLmacdfgsuU^:+\-[\],0-9]+\)(?=[\s;|&)]|$)/g;

function zshAsBash(code: string): string {
  return (
    code
      // `/dev/nvme<0-9>n1`: a numeric range glob (bash would read `<` as a redirect).
      .replace(/(?<=[^\s<>|&;()])<(\d*)-(\d*)>/g, '[0-9]*')
      .replace(GLOB_QUALIFIER, '$1')
      // `b(){ b & b }`: zsh closes a group without the `;` bash needs before `}`.
      .replace(/([^\s;&{])([ \t]+)\}(?=[ \t]*(?:[;)\n]|&&|\|\||$))/g, '$1;$2}')
  );
}

/** Block openers and the bash word that closes each (fish closes them all with `end`). */
const FISH_BLOCKS: ReadonlyArray<[RegExp, (m: RegExpExecArray) => string, string]> = [
  [/^for\s+(\w+)\s+in\s+([\s\S]*)$/, (m) => `for ${m[1] as string} in ${m[2] as string}; do`, 'done'],
  [/^while\s+([\s\S]+)$/, (m) => `while ${m[1] as string}; do`, 'done'],
  [/^if\s+([\s\S]+)$/, (m) => `if ${m[1] as string}; then`, 'fi'],
  [/^function\s+([^\s;]+)(?:\s+[\s\S]*)?$/, (m) => `${m[1] as string}() {`, '}'],
  [/^begin$/, () => '{', '}'],
];

/**
 * fish code as bash: `for x in …; …; end`, `while`/`if … else if … else … end`, `function f; …; end`, `begin; …; end`,
 * `(cmd)` substitution, `; and`/`; or`, `set [-lgx] name value…`, `$argv`. Null when a form it does not know
 * (`switch`, an unbalanced `end`) leaves the reading unsure.
 */
function fishAsBash(code: string): string | null {
  const statements = fishStatements(code);
  if (statements === null) return null;
  const closers: string[] = [];
  const out: string[] = [];
  for (const raw of statements) {
    const statement = raw.trim();
    if (statement === '') continue;
    const [first = '', ...rest] = statement.split(/\s+/);
    if (first === 'switch' || first === 'case') return null;
    if (first === 'end') {
      const closer = closers.pop();
      if (closer === undefined) return null;
      out.push(closer);
      continue;
    }
    if (first === 'and' || first === 'or') {
      if (out.length === 0) return null;
      out[out.length - 1] += ` ${first === 'and' ? '&&' : '||'} ${rest.join(' ')}`;
      continue;
    }
    if (first === 'else') {
      if (closers.at(-1) !== 'fi') return null;
      out.push(rest[0] === 'if' ? `elif ${rest.slice(1).join(' ')}; then` : 'else');
      continue;
    }
    const block = FISH_BLOCKS.find(([pattern]) => pattern.test(statement));
    if (block !== undefined) {
      out.push(block[1](block[0].exec(statement) as RegExpExecArray));
      closers.push(block[2]);
      continue;
    }
    out.push(fishSet(statement) ?? statement.replace(/&$/, ' &'));
  }
  if (closers.length > 0) return null;
  return out.join('\n');
}

/** `set -gx PATH a b` is `PATH=(a b)`, `set -e x` is `unset x`; other statements are not a set. */
function fishSet(statement: string): string | null {
  const words = statement.split(/\s+/);
  if (words[0] !== 'set') return null;
  let at = 1;
  let erase = false;
  while ((words[at] ?? '').startsWith('-')) {
    if (/^-[a-zA-Z]*e/.test(words[at] as string) || words[at] === '--erase') erase = true;
    at += 1;
  }
  const name = words[at];
  if (name === undefined || !/^\w+$/.test(name)) return null;
  return erase ? `unset ${name}` : `${name}=(${words.slice(at + 1).join(' ')})`;
}

/**
 * Splits fish code into statements at `;` and newlines outside quotes, rewriting `(cmd)` to `$(cmd)` and `$argv` to
 * `"$@"` on the way (fish has no subshell syntax: every bare parenthesis is a command substitution).
 */
function fishStatements(code: string): string[] | null {
  const statements: string[] = [];
  let current = '';
  let quote: "'" | '"' | null = null;
  let depth = 0;
  for (let i = 0; i < code.length; i += 1) {
    const c = code[i] as string;
    if (quote !== null) {
      current += c;
      if (c === '\\' && i + 1 < code.length) current += code[(i += 1)] as string;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    if (c === '\\' && i + 1 < code.length) {
      current += c + (code[(i += 1)] as string);
      continue;
    }
    if (c === '#' && depth === 0 && (current === '' || /\s$/.test(current))) {
      while (i + 1 < code.length && code[i + 1] !== '\n') i += 1;
      continue;
    }
    if (c === '(') {
      depth += 1;
      current += current.endsWith('$') ? '(' : '$(';
      continue;
    }
    if (c === ')') {
      if (depth === 0) return null;
      depth -= 1;
    }
    if (depth === 0 && (c === ';' || c === '\n')) {
      statements.push(current);
      current = '';
      continue;
    }
    if (code.startsWith('$argv', i) && !/\w/.test(code[i + 5] ?? '')) {
      current += '"$@"';
      i += 4;
      continue;
    }
    current += c;
  }
  if (quote !== null || depth !== 0) return null;
  statements.push(current);
  return statements;
}
