/**
 * A small parser for Python literals, for models that write tool calls as Python dicts: Hermes
 * models print `{'arguments': {'symbol': 'TSLA'}, 'name': 'x'}` (the Hermes-Function-Calling README
 * shows it as real output), GLM and Qwen write `True`/`None` in argument values. It reads dicts,
 * lists, tuples, strings in either quote (triple quotes too), numbers and True/False/None — the
 * subset `ast.literal_eval` accepts that maps onto JSON — and nothing else. It never evaluates code.
 */

export type LiteralResult = { ok: true; value: unknown } | { ok: false; reason: string };

/** JSON first (most calls are JSON), then the Python-literal reading. */
export function parseJsonOrPythonLiteral(text: string): LiteralResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (_notJson) {
    // Not JSON: fall through to the Python reading, which also accepts every JSON literal.
    return parsePythonLiteral(text);
  }
}

export function parsePythonLiteral(text: string): LiteralResult {
  const reader = new LiteralReader(text);
  try {
    const value = reader.value(0);
    reader.skipSpace();
    if (!reader.atEnd()) return { ok: false, reason: `unexpected ${JSON.stringify(reader.peek())} at ${reader.pos}` };
    return { ok: true, value };
  } catch (err) {
    if (err instanceof LiteralSyntaxError) return { ok: false, reason: err.message };
    throw err;
  }
}

class LiteralSyntaxError extends Error {}

/** Nesting deeper than this is not a tool call: refuse rather than risk the stack. */
const MAX_DEPTH = 64;

const KEYWORDS: Record<string, unknown> = { True: true, False: false, None: null, true: true, false: false, null: null };

class LiteralReader {
  pos = 0;
  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  peek(): string {
    return this.text[this.pos] ?? '';
  }

  skipSpace(): void {
    while (/\s/.test(this.peek()) && !this.atEnd()) this.pos++;
  }

  private fail(what: string): never {
    throw new LiteralSyntaxError(`${what} at ${this.pos}`);
  }

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) this.fail('nesting too deep');
    this.skipSpace();
    const ch = this.peek();
    if (ch === '{') return this.dict(depth);
    if (ch === '[') return this.sequence(']', depth);
    if (ch === '(') return this.sequence(')', depth);
    if (ch === "'" || ch === '"') return this.strings();
    if (/[-+0-9.]/.test(ch)) return this.number();
    const word = /^[A-Za-z_]\w*/.exec(this.text.slice(this.pos))?.[0];
    if (word !== undefined && word in KEYWORDS) {
      this.pos += word.length;
      return KEYWORDS[word];
    }
    return this.fail(ch === '' ? 'unexpected end' : `unexpected ${JSON.stringify(ch)}`);
  }

  identifier(): string {
    const word = /^[A-Za-z_]\w*/.exec(this.text.slice(this.pos))?.[0];
    if (word === undefined) this.fail('expected a name');
    this.pos += word.length;
    return word;
  }

  private dict(depth: number): Record<string, unknown> {
    this.pos++; // {
    const out: Record<string, unknown> = {};
    for (;;) {
      this.skipSpace();
      if (this.peek() === '}') {
        this.pos++;
        return out;
      }
      const key = this.value(depth + 1);
      if (key !== null && typeof key === 'object') this.fail('a dict key must be a string, number or constant');
      this.skipSpace();
      if (this.peek() !== ':') this.fail('expected ":"');
      this.pos++;
      out[String(key)] = this.value(depth + 1);
      if (!this.separator('}')) return out;
    }
  }

  private sequence(close: string, depth: number): unknown[] {
    this.pos++;
    const out: unknown[] = [];
    for (;;) {
      this.skipSpace();
      if (this.peek() === close) {
        this.pos++;
        return out;
      }
      out.push(this.value(depth + 1));
      if (!this.separator(close)) return out;
    }
  }

  /** After an item: true when another item may follow, false when `close` ended the container. */
  private separator(close: string): boolean {
    this.skipSpace();
    const ch = this.peek();
    this.pos++;
    if (ch === ',') return true;
    if (ch === close) return false;
    this.pos--;
    return this.fail(`expected "," or "${close}"`);
  }

  /** Python joins adjacent string literals: `'a' 'b'` is `'ab'`. */
  private strings(): string {
    let out = this.string();
    for (;;) {
      const save = this.pos;
      this.skipSpace();
      if (this.peek() !== "'" && this.peek() !== '"') {
        this.pos = save;
        return out;
      }
      out += this.string();
    }
  }

  private string(): string {
    const quote = this.peek();
    const triple = this.text.startsWith(quote.repeat(3), this.pos);
    const delimiter = triple ? quote.repeat(3) : quote;
    this.pos += delimiter.length;
    let out = '';
    for (;;) {
      if (this.atEnd()) this.fail('unterminated string');
      if (this.text.startsWith(delimiter, this.pos)) {
        this.pos += delimiter.length;
        return out;
      }
      const ch = this.text[this.pos] as string;
      if (ch === '\n' && !triple) this.fail('newline in a string');
      if (ch !== '\\') {
        out += ch;
        this.pos++;
        continue;
      }
      out += this.escape();
    }
  }

  private escape(): string {
    const next = this.text[this.pos + 1];
    this.pos += 2;
    switch (next) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case '0':
        return '\0';
      case '\n':
        return ''; // a backslash-newline continues the string
      case 'x':
        return this.codePoint(2);
      case 'u':
        return this.codePoint(4);
      case 'U':
        return this.codePoint(8);
      case undefined:
        return this.fail('unterminated string');
      default:
        // Python keeps unknown escapes as written (`'\d'` is backslash + d); quotes and backslash lose theirs.
        return next === '\\' || next === "'" || next === '"' ? next : `\\${next}`;
    }
  }

  private codePoint(digits: number): string {
    const hex = this.text.slice(this.pos, this.pos + digits);
    if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex)) this.fail('bad escape');
    this.pos += digits;
    const code = Number.parseInt(hex, 16);
    if (code > 0x10ffff) this.fail('bad escape');
    return String.fromCodePoint(code);
  }

  private number(): number {
    const match = /^[-+]?(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][-+]?\d+)?/.exec(this.text.slice(this.pos));
    if (!match) return this.fail('bad number');
    this.pos += match[0].length;
    const value = Number(match[0].replace(/_/g, ''));
    if (!Number.isFinite(value)) this.fail('number out of range');
    return value;
  }
}

/**
 * The keyword arguments of a Python call, `city="Paris", days=3` → `{city: 'Paris', days: 3}`:
 * Llama 3.1 writes built-in tool calls as `<|python_tag|>brave_search.call(query="…")`.
 */
export function parsePythonKeywordArguments(text: string): LiteralResult {
  const reader = new LiteralReader(text);
  const out: Record<string, unknown> = {};
  try {
    for (;;) {
      reader.skipSpace();
      if (reader.atEnd()) return { ok: true, value: out };
      const key = reader.identifier();
      reader.skipSpace();
      if (reader.peek() !== '=') return { ok: false, reason: `expected "=" after ${key}` };
      reader.pos++;
      out[key] = reader.value(0);
      reader.skipSpace();
      if (reader.atEnd()) return { ok: true, value: out };
      if (reader.peek() !== ',') return { ok: false, reason: `expected "," at ${reader.pos}` };
      reader.pos++;
    }
  } catch (err) {
    if (err instanceof LiteralSyntaxError) return { ok: false, reason: err.message };
    throw err;
  }
}
