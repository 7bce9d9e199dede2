import type { InvisibleCharacter } from './invisible-unicode.js';

/**
 * The text the phrasing rules read: what a model would understand, not what the bytes say. Attackers
 * dodge keyword filters with tricks a model reads straight through, so the view undoes them:
 * - invisible characters are dropped (`ig\u200Bnore`);
 * - NFKC folds fullwidth and styled letters to plain ones (`ｉｇｎｏｒｅ`, `𝐢𝐠𝐧𝐨𝐫𝐞`);
 * - a word mixing Latin with Cyrillic/Greek look-alikes is folded to Latin (`іgnоrе` with Cyrillic і, о, е).
 *   Whole Cyrillic or Greek words are left alone, so Russian text stays Russian for its own rules;
 * - a word mixing letters and digits is read as leetspeak (`1gn0re`);
 * - letters spaced out one by one are joined (`i g n o r e`, `i.g.n.o.r.e`);
 * - runs of spaces and tabs become one space.
 * `origin[i]` is the index in the original text of the view's i-th UTF-16 unit, so findings can point
 * at the original.
 */
export interface TextView {
  text: string;
  origin: Int32Array;
}

/** Cyrillic and Greek letters that render like Latin ones, folded only inside mixed-script words. */
const LOOKALIKES: Readonly<Record<string, string>> = {
  а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x',
  і: 'i', ї: 'i', ј: 'j', ѕ: 's', ԁ: 'd', ɡ: 'g', һ: 'h', ԛ: 'q', ԝ: 'w', ո: 'n',
  α: 'a', β: 'b', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', γ: 'y',
};
const LEET: Readonly<Record<string, string>> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't' };

const MARK = /\p{M}/u;
/**
 * A soft hyphen shows only where a line breaks, so `Ign\u00adore prev\u00adious` reads as "Ignore previous";
 * the invisible-character finder does not list it (it is common in hyphenated web text), so the view drops it here.
 */
const SOFT_HYPHEN = '\u00ad';
/** Anything but printable ASCII and ordinary whitespace: the only runs NFKC or invisible removal can change. */
const UNUSUAL_RUN = /[^\t\n\r\x20-\x7e]+/g;
/** Characters that can make a word foldable: a digit, or a letter of a script with Latin look-alikes. */
const FOLD_TRIGGER = /[0-9\u0370-\u03ff\u0400-\u052f\u0261\u0570-\u058f]/g;
const WORD_CHAR = /[\p{L}\p{N}]/u;
const LATIN = /\p{Script=Latin}/u;
/**
 * Three or more single letters each set apart by one spacer: `i g n o r e`, `i.g.n.o.r.e`. ASCII only
 * (fullwidth letters are ASCII by now): a Unicode-aware pattern here cost more than the rest of the scan.
 */
const SPACED_LETTERS = /(?<![A-Za-z])[A-Za-z](?:[ ._*-][A-Za-z](?![A-Za-z])){2,}/g;
/**
 * Characters spaced out one by one with wider gaps between the words: `s e n d   . e n v   t o   m y`. The
 * pattern above needs three letters a word, so two-letter words ("to", "my") and punctuation (".env") stayed
 * apart; here one space joins characters and a wider gap is the word break.
 */
const WIDE_SPACED = /[A-Za-z0-9./@:_~-] [A-Za-z0-9./@:_~-](?: {1,6}[A-Za-z0-9./@:_~-](?!\S)){3,}/g;
const SINGLE_GAP = / (?! )/g;
const WIDE_GAP = / {2,}/g;
const THREE_LETTERS = /[A-Za-z][^A-Za-z]*[A-Za-z][^A-Za-z]*[A-Za-z]/;
const SPACER = /[ ._*-]/g;
const DOT_SPACER = /[._*-]/g;
const SPACE_RUN = /[ \t\u00a0\u3000]{2,}|[\t\u00a0\u3000]/g;

export function buildTextView(text: string, invisible: readonly InvisibleCharacter[]): TextView {
  let view = withoutInvisibleNormalised(text, invisible);
  view = { text: foldMixedWords(view.text), origin: view.origin };
  view = rewrite(view, WIDE_SPACED, joinWideSpaced);
  // "i g n o r e" joins whole; in "P.l.e.a.s.e i.g.n.o.r.e" the dots join letters and the spaces stay word breaks.
  view = rewrite(view, SPACED_LETTERS, (m) => (/[._*-]/.test(m) ? m.replace(DOT_SPACER, '') : m.replace(SPACER, '')));
  return rewrite(view, SPACE_RUN, () => ' ');
}

/**
 * Joins a run of spaced characters when it has word gaps and mostly single spaces (not a table of digits).
 * The run must start a word; the pattern does not check that itself (a look-behind there doubled its cost).
 */
function joinWideSpaced(run: string, index: number, source: string): string {
  if (index > 0 && !/\s/.test(source[index - 1] as string)) return run;
  const wide = run.match(WIDE_GAP)?.length ?? 0;
  const single = (run.match(SINGLE_GAP)?.length ?? 0) - wide;
  if (wide === 0 || single < 3 || single < wide || !THREE_LETTERS.test(run)) return run;
  return run.split(WIDE_GAP).map((word) => word.replace(/ /g, '')).join(' ');
}

/**
 * Drops invisible characters and applies NFKC per base character with its combining marks: the same
 * result as whole-string NFKC for the scripts the rules read, but each piece keeps its origin. ASCII
 * runs and runs NFKC leaves alone are copied whole, which is nearly all real text.
 */
function withoutInvisibleNormalised(text: string, invisible: readonly InvisibleCharacter[]): TextView {
  if (invisible.length === 0 && !text.includes(SOFT_HYPHEN) && text.normalize('NFKC') === text) return { text, origin: identity(text.length) };
  const skip = new Set(invisible.map((c) => c.index));
  let out = '';
  const origin: number[] = [];
  let from = 0;
  const copy = (start: number, end: number) => {
    out += text.slice(start, end);
    for (let i = start; i < end; i++) origin.push(i);
  };
  // (Only texts with invisible or NFKC-changed characters get here; plain arrays are fine for those.)
  for (const run of text.matchAll(UNUSUAL_RUN)) {
    const start = run.index;
    const end = start + run[0].length;
    copy(from, start);
    from = end;
    if (!invisible.some((c) => c.index >= start && c.index < end) && !run[0].includes(SOFT_HYPHEN) && run[0].normalize('NFKC') === run[0]) {
      copy(start, end);
      continue;
    }
    let at = start;
    for (const ch of run[0]) {
      const index = at;
      at += ch.length;
      if (skip.has(index) || ch === SOFT_HYPHEN) continue;
      // A mark belongs with the character before it, which may be the last one already copied.
      const base = MARK.test(ch) && out.length > 0 ? out.slice(-1) : '';
      if (base !== '') {
        out = out.slice(0, -1);
        origin.pop();
      }
      const baseAt = base === '' ? index : index - 1;
      for (const piece of (base + ch).normalize('NFKC')) {
        out += piece;
        for (let k = 0; k < piece.length; k++) origin.push(baseAt);
      }
    }
  }
  copy(from, text.length);
  return { text: out, origin: Int32Array.from(origin) };
}

function identity(length: number): Int32Array {
  const origin = new Int32Array(length);
  for (let i = 0; i < length; i++) origin[i] = i;
  return origin;
}

/** Look-alike and leet folds replace one UTF-16 unit by one, so the origin map is unchanged. */
function foldMixedWords(text: string): string {
  let out = '';
  let from = 0;
  let doneUntil = 0;
  for (const trigger of text.matchAll(FOLD_TRIGGER)) {
    if (trigger.index < doneUntil) continue;
    let start = trigger.index;
    while (start > 0 && isWordChar(text[start - 1] as string)) start--;
    let end = trigger.index + 1;
    while (end < text.length && isWordChar(text[end] as string)) end++;
    doneUntil = end;
    const word = text.slice(start, end);
    const folded = foldWord(word);
    if (folded === word) continue;
    out += text.slice(from, start) + folded;
    from = end;
  }
  return from === 0 ? text : out + text.slice(from);
}

function isWordChar(ch: string): boolean {
  const code = ch.charCodeAt(0);
  if (code < 0x80) return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  return WORD_CHAR.test(ch);
}

function foldWord(word: string): string {
  if (!LATIN.test(word)) return word;
  const hasDigit = /[0-9]/.test(word);
  const lookalike = /[\u0370-\u03ff\u0400-\u052f\u0261\u0570-\u058f]/.test(word);
  const leet = hasDigit && looksLeet(word);
  if (!lookalike && !leet) return word;
  let folded = '';
  for (const ch of word) folded += (lookalike ? LOOKALIKES[ch.toLowerCase()] : undefined) ?? (leet ? LEET[ch] : undefined) ?? ch;
  return folded;
}

/**
 * Leet replaces single letters (`1gn0re`, `previ0us`); identifiers keep digit runs or end in digits
 * (`base64`, `ed25519`, `utf8`, `i18n`), and folding those would break the rules that name them.
 */
function looksLeet(word: string): boolean {
  return !/[0-9]{2}/.test(word) && !/[0-9]$/.test(word);
}

/**
 * Replace every match of `pattern`, carrying the origin map: a replacement maps to its match's start.
 * The text is built from pieces and the map written into one array sized for the result (both rewrites here
 * shorten the text or keep its length; a longer result grows the array): a README has thousands of matches
 * (indentation, tables), and a typed array per match cost more than the matching.
 */
function rewrite(view: TextView, pattern: RegExp, replace: (match: string, index: number, source: string) => string): TextView {
  const source = view.text;
  const pieces: string[] = [];
  let origin = new Int32Array(source.length);
  let length = 0;
  let from = 0;
  const ensure = (extra: number) => {
    if (length + extra <= origin.length) return;
    const grown = new Int32Array(Math.max(origin.length * 2, length + extra));
    grown.set(origin.subarray(0, length));
    origin = grown;
  };
  for (const match of source.matchAll(pattern)) {
    const replacement = replace(match[0], match.index, source);
    const at = view.origin[match.index] as number;
    ensure(match.index - from + replacement.length);
    pieces.push(source.slice(from, match.index), replacement);
    origin.set(view.origin.subarray(from, match.index), length);
    length += match.index - from;
    for (let i = 0; i < replacement.length; i++) origin[length++] = i < match[0].length ? (view.origin[match.index + i] ?? at) : at;
    from = match.index + match[0].length;
  }
  if (pieces.length === 0) return view;
  ensure(source.length - from);
  pieces.push(source.slice(from));
  origin.set(view.origin.subarray(from), length);
  length += source.length - from;
  return { text: pieces.join(''), origin: length === origin.length ? origin : origin.slice(0, length) };
}
