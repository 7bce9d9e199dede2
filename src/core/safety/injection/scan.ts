import { codePointLabel, findInvisibleCharacters, stripInvisibleCharacters, type InvisibleCharacter } from './invisible-unicode.js';
import { TEXT_RULES, type InjectionCategory, type InjectionSeverity } from './patterns.js';

/**
 * The prompt-injection scanner. Anything that will later be read by the model as trusted context goes
 * through it before it is stored: memory entries, user-model facts, skills, imported files. It is a pure
 * function of the text, so every writer gets the same verdict, and so does `hearth scan` later.
 *
 * It is a tripwire, not a proof of safety: it catches the phrasings, tokens and commands real injections
 * use, and it is tuned so ordinary notes pass. Text is matched after NFKC normalisation (fullwidth
 * letters become ASCII) with invisible characters removed, so `ign\u200Bore previous instructions` or
 * `ｉｇｎｏｒｅ …` are caught as well as the plain form.
 */

export type ScanVerdict = 'clean' | 'suspicious' | 'blocked';

/** Where the text came from; reported in findings and messages. Callers may use their own names. */
export type ScanSource = 'memory' | 'user' | 'user_model' | 'skill' | 'context_file' | 'soul' | 'tool_output' | 'import' | (string & {});

export interface InjectionFinding {
  /** Rule id from patterns.ts, or `invisible_unicode`. */
  rule: string;
  category: InjectionCategory;
  severity: InjectionSeverity;
  /** The matched text with a little context, invisible characters shown as `<U+200B>`. */
  excerpt: string;
  /** Why it was flagged, in plain words. */
  message: string;
}

export interface InjectionScanResult {
  verdict: ScanVerdict;
  findings: InjectionFinding[];
  source: ScanSource;
}

export interface ScanOptions {
  source: ScanSource;
  /** Rule ids not to apply (e.g. a skill that documents the ChatML format may skip `chat_template_token`). */
  ignoreRules?: readonly string[];
}

const EXCERPT_CONTEXT = 30;
const EXCERPT_MAX = 120;

export function scanForInjection(text: string, options: ScanOptions): InjectionScanResult {
  const ignored = new Set(options.ignoreRules ?? []);
  const findings: InjectionFinding[] = [];

  const invisible = findInvisibleCharacters(text);
  if (invisible.length > 0 && !ignored.has('invisible_unicode')) findings.push(invisibleFinding(text, invisible));

  const normalised = normalise(stripInvisibleCharacters(text, invisible));
  for (const rule of TEXT_RULES) {
    if (ignored.has(rule.id)) continue;
    const match = rule.pattern.exec(normalised);
    if (!match) continue;
    findings.push({
      rule: rule.id,
      category: rule.category,
      severity: rule.severity,
      excerpt: excerptAround(normalised, match.index, match[0].length),
      message: rule.description,
    });
  }

  const verdict: ScanVerdict = findings.some((f) => f.severity === 'high') ? 'blocked' : findings.length > 0 ? 'suspicious' : 'clean';
  return { verdict, findings, source: options.source };
}

/** One line a user or model can act on: "blocked (memory): tells the model to … — “ignore all previous instructions”". */
export function describeScan(result: InjectionScanResult): string {
  if (result.findings.length === 0) return `clean (${result.source})`;
  const reasons = result.findings.map((f) => `${f.message} [${f.rule}]: “${f.excerpt}”`);
  return `${result.verdict} (${result.source}): ${reasons.join('; ')}`;
}

function normalise(text: string): string {
  return text.normalize('NFKC').replace(/[ \t\u00a0\u3000]+/g, ' ');
}

function invisibleFinding(text: string, found: InvisibleCharacter[]): InjectionFinding {
  const first = found[0] as InvisibleCharacter;
  const kinds = [...new Map(found.map((c) => [c.codePoint, `${codePointLabel(c.codePoint)} ${c.name}`])).values()];
  const shown = showInvisible(text.slice(Math.max(0, first.index - EXCERPT_CONTEXT), first.index + EXCERPT_CONTEXT));
  return {
    rule: 'invisible_unicode',
    category: 'invisible_unicode',
    severity: 'high',
    excerpt: clip(shown),
    message: `contains ${found.length} invisible character${found.length === 1 ? '' : 's'} (${kinds.join(', ')}) that hide text from the reader`,
  };
}

/** Replace every flagged invisible character with a visible `<U+XXXX>` label. */
function showInvisible(text: string): string {
  let out = text;
  for (const ch of findInvisibleCharacters(text).reverse()) {
    const width = String.fromCodePoint(ch.codePoint).length;
    out = `${out.slice(0, ch.index)}<${codePointLabel(ch.codePoint)}>${out.slice(ch.index + width)}`;
  }
  return out;
}

function excerptAround(text: string, index: number, length: number): string {
  const start = Math.max(0, index - EXCERPT_CONTEXT);
  const end = Math.min(text.length, index + length + EXCERPT_CONTEXT);
  return clip(`${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`);
}

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > EXCERPT_MAX ? `${oneLine.slice(0, EXCERPT_MAX - 1)}…` : oneLine;
}
