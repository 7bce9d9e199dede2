import { SECRET_PATTERNS, type SecretPattern } from './redact-patterns.js';

/**
 * Values shorter than this are not registered as known secrets: a 4-character "token" such as `true`,
 * `1234` or `dev` occurs everywhere in ordinary output, and redacting every occurrence would mangle it
 * while protecting nothing worth protecting.
 */
export const MIN_SECRET_LENGTH = 8;

/** Env var names whose values are treated as secrets: `OPENAI_API_KEY`, `GITHUB_TOKEN`, `HEARTH_DB_KEY`, `DB_PASSWORD`. */
const SECRET_ENV_NAME = /(?:_KEY|_TOKEN|_SECRET|PASSWORD|PASSWD)$/i;

export function placeholder(label: string): string {
  return `[REDACTED:${label}]`;
}

/** A half-open range [start, end) of a text that a redaction would replace. */
export interface SecretSpan {
  start: number;
  end: number;
}

/**
 * Replaces secrets in text with `[REDACTED:<label>]`: the values registered with `addSecret` (API keys from
 * the keychain or the environment) and every format in SECRET_PATTERNS. Known values go first, so a key
 * Hearth knows is labelled with where it came from rather than with its format.
 */
export class Redactor {
  private readonly known = new Map<string, string>();
  private knownRegex: RegExp | null = null;
  private longest = 0;

  private readonly multiline: readonly SecretPattern[];
  private readonly lineLocal: readonly SecretPattern[];
  /** Any line-local pattern's anchor: lines without one cannot hold a format match and are skipped. */
  private readonly candidate: RegExp;

  constructor(private readonly patterns: readonly SecretPattern[] = SECRET_PATTERNS) {
    this.multiline = patterns.filter((p) => p.multiline === true);
    this.lineLocal = patterns.filter((p) => p.multiline !== true);
    this.candidate = new RegExp(this.lineLocal.map((p) => `(?:${p.anchor})`).join('|') || '(?!)', 'gi');
  }

  /** Registers a value to redact wherever it appears. Returns false (and registers nothing) when it is too short to be safe to match. */
  addSecret(value: string, label: string): boolean {
    const trimmed = value.trim();
    if (trimmed.length < MIN_SECRET_LENGTH) return false;
    if (this.known.get(trimmed) === label) return true;
    this.known.set(trimmed, label);
    this.knownRegex = null;
    this.longest = Math.max(this.longest, trimmed.length);
    return true;
  }

  /** The length of the longest registered value: a stream must hold back at least this much to never split one. */
  get longestKnownSecret(): number {
    return this.longest;
  }

  redact(text: string): string {
    let result = text;
    const known = this.knownPattern();
    if (known !== null) result = result.replace(known, (value) => placeholder(this.known.get(value) ?? 'secret'));
    result = applyPatterns(result, this.multiline);
    // Only the lines holding an anchor go through the line patterns; the rest is copied as is.
    let out = '';
    let copied = 0;
    this.candidate.lastIndex = 0;
    for (let hit = this.candidate.exec(result); hit !== null; hit = this.candidate.exec(result)) {
      const lineStart = result.lastIndexOf('\n', hit.index) + 1;
      const newline = result.indexOf('\n', hit.index);
      const lineEnd = newline < 0 ? result.length : newline;
      out += result.slice(copied, lineStart) + applyPatterns(result.slice(lineStart, lineEnd), this.lineLocal);
      copied = lineEnd;
      this.candidate.lastIndex = lineEnd;
    }
    return copied === 0 ? result : out + result.slice(copied);
  }

  /** Where secrets sit in the text as given (before any replacement): for callers that must not cut one in two. */
  spans(text: string): SecretSpan[] {
    const found: SecretSpan[] = [];
    const known = this.knownPattern();
    for (const regex of known === null ? this.patterns.map((p) => p.regex) : [known, ...this.patterns.map((p) => p.regex)]) {
      for (const match of text.matchAll(regex)) found.push({ start: match.index, end: match.index + match[0].length });
    }
    return found;
  }

  private knownPattern(): RegExp | null {
    if (this.known.size === 0) return null;
    if (this.knownRegex === null) {
      // Longest first: when one secret contains another, the whole of the longer one goes.
      const values = [...this.known.keys()].sort((a, b) => b.length - a.length);
      this.knownRegex = new RegExp(values.map(escapeRegExp).join('|'), 'g');
    }
    return this.knownRegex;
  }
}

function applyPatterns(text: string, patterns: readonly SecretPattern[]): string {
  let result = text;
  for (const pattern of patterns) {
    pattern.regex.lastIndex = 0;
    result = result.replace(pattern.regex, (...args: unknown[]) => replacement(pattern, args));
  }
  return result;
}

function replacement(pattern: SecretPattern, args: unknown[]): string {
  const match = args[0] as string;
  const groups = args[args.length - 1] as Record<string, string | undefined>;
  const secret = groups.secret ?? match;
  if (secret.startsWith('[REDACTED:') || (pattern.accept !== undefined && !pattern.accept(secret))) return match;
  return `${groups.pre ?? ''}${placeholder(pattern.label)}${groups.post ?? ''}`;
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/**
 * A redactor that knows the secret values of an environment: every variable whose name looks secret
 * (`…_API_KEY`, `…_KEY`, `…_TOKEN`, `…_SECRET`, `…PASSWORD`), labelled with its name, plus `extraValues`
 * (keys read from the keychain: label them `keychain:provider:openai` or similar).
 */
export function redactorFromEnvironment(
  env: NodeJS.ProcessEnv,
  extraValues: readonly { value: string; label: string }[] = [],
): Redactor {
  const redactor = new Redactor();
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && SECRET_ENV_NAME.test(name)) redactor.addSecret(value, name);
  }
  for (const extra of extraValues) redactor.addSecret(extra.value, extra.label);
  return redactor;
}

/**
 * Wraps a log writer so every line it writes is redacted first: for the CLI's stderr (engine warnings and
 * errors) and the web server's `log`, where an error message can quote a request, a URL or a command.
 */
export function redactingLogger(redactor: Pick<Redactor, 'redact'>, write: (text: string) => void): (text: string) => void {
  return (text) => write(redactor.redact(text));
}
