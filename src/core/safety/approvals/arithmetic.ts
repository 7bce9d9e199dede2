/**
 * `$(( … ))` with integer literals and known variables, as bash evaluates it: `kill -9 $((2-3))` signals pid -1.
 * Only `+ - * / % **`, unary `- + ~ !` and parentheses are read; anything else (assignments, comparisons, bit
 * operators, unknown names) gives null, and the caller treats the value as unknown.
 */
export function evaluateArithmetic(expression: string, lookup: (name: string) => string | undefined): string | null {
  const tokens = tokenize(expression, lookup, 0);
  if (tokens === null || tokens.length === 0 || tokens.length > 64) return null;
  let at = 0;
  const peek = (): string | undefined => tokens[at];
  const primary = (): bigint | null => {
    const token = tokens[at++];
    if (token === undefined) return null;
    if (token === '(') {
      const value = sum();
      return tokens[at++] === ')' ? value : null;
    }
    if (token === '-' || token === '+' || token === '~' || token === '!') {
      const value = power();
      if (value === null) return null;
      return token === '-' ? -value : token === '~' ? -value - 1n : token === '!' ? (value === 0n ? 1n : 0n) : value;
    }
    return /^\d+$/.test(token) ? BigInt(token) : null;
  };
  const power = (): bigint | null => {
    const base = primary();
    if (base === null || peek() !== '**') return base;
    at += 1;
    const exponent = power();
    return exponent === null || exponent < 0n || exponent > 64n ? null : base ** exponent;
  };
  const product = (): bigint | null => {
    let value = power();
    while (value !== null && (peek() === '*' || peek() === '/' || peek() === '%')) {
      const op = tokens[at++];
      const right = power();
      if (right === null || (op !== '*' && right === 0n)) return null;
      value = op === '*' ? value * right : op === '/' ? value / right : value % right;
    }
    return value;
  };
  const sum = (): bigint | null => {
    let value = product();
    while (value !== null && (peek() === '+' || peek() === '-')) {
      const op = tokens[at++];
      const right = product();
      if (right === null) return null;
      value = op === '+' ? value + right : value - right;
    }
    return value;
  };
  const value = sum();
  return value === null || at !== tokens.length ? null : value.toString();
}

/** Numbers (decimal, `0x` hex, leading-zero octal), operators and parentheses; names become their values. */
function tokenize(expression: string, lookup: (name: string) => string | undefined, depth: number): string[] | null {
  if (depth > 4) return null;
  const tokens: string[] = [];
  const re = /\s*(?:(0[xX][0-9a-fA-F]+|\d+)|\$?\{?([A-Za-z_]\w*)\}?|(\*\*|[-+*/%()~]|!(?!=)))/y;
  let at = 0;
  const text = expression.trim();
  while (at < text.length) {
    re.lastIndex = at;
    const match = re.exec(text);
    if (match === null) return null;
    at = re.lastIndex;
    const [, number, name, op] = match;
    if (number !== undefined) {
      const parsed = /^0[xX]/.test(number) ? BigInt(number) : /^0[0-7]+$/.test(number) ? BigInt(`0o${number.slice(1)}`) : /^0\d+$/.test(number) ? null : BigInt(number);
      if (parsed === null) return null;
      tokens.push(parsed.toString());
    } else if (name !== undefined) {
      const value = lookup(name);
      if (value === undefined) return null;
      // A variable holding an expression is evaluated as one, in parentheses.
      const inner = tokenize(value === '' ? '0' : value, lookup, depth + 1);
      if (inner === null) return null;
      tokens.push('(', ...inner, ')');
    } else if (op !== undefined) tokens.push(op);
    else if (text.slice(at).trim() !== '') return null;
  }
  return tokens;
}
