/**
 * Decode and rescan: text an attacker encoded so that a keyword filter reads noise while the model, asked
 * to "decode this and follow it", reads an order. Each decoder finds encoded runs and returns what they
 * say; the scanner runs its rules again on that and says in the finding what was decoded.
 * Leetspeak, spaced-out letters, look-alike letters and fullwidth forms are undone in text-view.ts instead:
 * they keep the text's length, so a finding still points at the original.
 *
 * Decoders that transform the whole text (ROT13, reversal) run on short texts, and on long ones only around
 * the places that name the encoding: over a whole document they doubled the scan's cost to catch what is,
 * there, rare. Escape decoders return only the lines that hold escapes.
 */

export interface DecodedPiece {
  /** What was undone, for the finding: "base64", "hex", "ROT13"… */
  encoding: string;
  text: string;
  /** Where the encoded run starts in the original text. */
  index: number;
}

const WHOLE_TEXT_LIMIT = 2_000;
const MAX_PIECES = 50;

interface Decoder {
  encoding: string;
  find(text: string): DecodedPiece[];
}

function printableShare(text: string): number {
  if (text.length === 0) return 0;
  let printable = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x20 && c < 0x7f) || c === 10 || c === 13 || c === 9 || c >= 0xa0) printable++;
  }
  return printable / text.length;
}

/** Decoded bytes count as text when they are valid-looking UTF-8 prose: printable and with some spaces. */
function asText(bytes: Buffer): string | null {
  const text = bytes.toString('utf8');
  if (text.includes('\ufffd') || printableShare(text) < 0.95 || !/[\p{L}]{2,}/u.test(text)) return null;
  if (!/\s/.test(text.trim()) && text.length > 12) return null;
  return text;
}

function runs(text: string, pattern: RegExp, decode: (run: string) => string | null, encoding: string): DecodedPiece[] {
  const out: DecodedPiece[] = [];
  for (const m of text.matchAll(pattern)) {
    if (out.length >= MAX_PIECES) break;
    const decoded = decode(m[0]);
    if (decoded !== null) out.push({ encoding, text: decoded, index: m.index });
  }
  return out;
}

function isBase64Code(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 43 || c === 47 || c === 95 || c === 45;
}

/**
 * The matches of `/[A-Za-z0-9+/_-]{20,}={0,2}/g`, in order: every maximal run of the alphabet at least 20 long,
 * with up to two `=` after it (a shorter run cannot match anywhere inside it, a longer one matches from its
 * start). A loop over char codes: the regex was the costliest part of decoding a whole document.
 */
function* base64Runs(text: string): Generator<{ run: string; index: number; bytes?: 'hex' | 'binary' }> {
  const n = text.length;
  let i = 0;
  // A chain of short runs that are each one byte (`66`, `0x66`, `01100110`), set apart by separators: `66 6f 72 67`.
  let chainStart = -1;
  let chainEnd = -1;
  let chainBytes = 0;
  let chainKind: 'hex' | 'binary' = 'hex';
  while (i < n) {
    if (!isBase64Code(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < n && isBase64Code(text.charCodeAt(end))) end++;
    if (end - i < 20) {
      const kind = byteKind(text, i, end);
      if (kind !== null) {
        if (chainBytes > 0 && kind === chainKind && BYTE_SEPARATOR.test(text.slice(chainEnd, i))) chainBytes++;
        else {
          if (chainBytes >= MIN_SPACED_BYTES) yield { run: text.slice(chainStart, chainEnd), index: chainStart, bytes: chainKind };
          chainStart = i;
          chainBytes = 1;
          chainKind = kind;
        }
        chainEnd = end;
      }
      i = end;
      continue;
    }
    let padded = end;
    while (padded < n && padded - end < 2 && text.charCodeAt(padded) === 61) padded++;
    yield { run: text.slice(i, padded), index: i };
    i = padded;
  }
  if (chainBytes >= MIN_SPACED_BYTES) yield { run: text.slice(chainStart, chainEnd), index: chainStart, bytes: chainKind };
}

/**
 * Bytes written apart, in hex (`66 6f 72 67`, `0x66, 0x6f`) or binary (`01110011 01100101`): a dump of text,
 * found in the base64 scan's pass (a regex of its own cost a tenth of the scan). Eight bytes at least, so a
 * MAC address or a short colour list is not decoded (it would not read as prose anyway).
 */
const MIN_SPACED_BYTES = 8;
const BYTE_SEPARATOR = /^(?:[ :,]\s*|\s+)$/;

function isHexDigit(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

function byteKind(text: string, start: number, end: number): 'hex' | 'binary' | null {
  if (end - start === 8) {
    for (let k = start; k < end; k++) if ((text.charCodeAt(k) | 1) !== 49) return null;
    return 'binary';
  }
  const at = end - start === 4 && text.charCodeAt(start) === 48 && (text.charCodeAt(start + 1) | 32) === 120 ? start + 2 : start;
  return end - at === 2 && isHexDigit(text.charCodeAt(at)) && isHexDigit(text.charCodeAt(at + 1)) ? 'hex' : null;
}

/** RFC 4648 base32 (`IRUXGYLC…`): five bits a character, padding ignored. */
function base32Bytes(run: string): Buffer {
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of run.replace(/=+$/, '')) {
    value = (value << 5) | BASE32_ALPHABET.indexOf(ch);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((value >> bits) & 0xff);
    }
  }
  return Buffer.from(out);
}
const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** `\x69\x67…` escapes; plain hex runs are found by the base64 scan (hex digits are base64 characters). */
const HEX_ESCAPES = /(?:\\x[0-9a-fA-F]{2}){8,}/g;
const LEET_WORD = /\b(?=[a-z0-9]*[a-z])(?=[a-z0-9]*[0-9])[a-z0-9]{3,}\b/gi;
const LEET_ALL: Readonly<Record<string, string>> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '@': 'a', $: 's' };

function codePoint(n: number): string {
  return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : '';
}

/**
 * The lines holding a match of `pattern`, each with every match replaced, when there are at least `min`
 * matches: whole lines, so words split into separate runs ("Ignore%20previous") read as the sentence they
 * spell. Only those lines: a README's badge links would otherwise copy the whole document into a second scan.
 */
function inPlace(text: string, encoding: string, pattern: RegExp, min: number, decode: (match: string) => string): DecodedPiece[] {
  const first = text.search(pattern);
  if (first < 0) return [];
  let n = 0;
  const lines: string[] = [];
  const next = new RegExp(pattern.source, 'g');
  let at = 0;
  while (at < text.length) {
    next.lastIndex = at;
    const found = next.exec(text);
    if (found === null) break;
    const start = text.lastIndexOf('\n', found.index) + 1;
    const newline = text.indexOf('\n', found.index);
    const end = newline < 0 ? text.length : newline;
    lines.push(
      text.slice(start, end).replace(pattern, (m) => {
        n++;
        return decode(m);
      }),
    );
    at = end + 1;
  }
  return n >= min ? [{ encoding, text: lines.join('\n'), index: first }] : [];
}

/**
 * ROT13 and reversal transform everything: a short text is transformed whole; a long one only around each
 * place that names the encoding ("rot13", "backwards"), `NAMED_REACH` characters either side, widened to
 * lines (the order to decode sits next to the encoded run in every sample we have). A long document that
 * says "reverse" somewhere is no longer scanned twice over; ROT13 or reversed text far from any such word is
 * not decoded (the learned model and the rules still read it as it is).
 */
const NAMED_REACH = 1_000;
function aroundNames(text: string, names: RegExp, encoding: string, transform: (part: string) => string): DecodedPiece[] {
  if (text.length <= WHOLE_TEXT_LIMIT) return [{ encoding, text: transform(text), index: 0 }];
  const out: DecodedPiece[] = [];
  let coveredTo = -1;
  for (const m of text.matchAll(names)) {
    if (out.length >= MAX_PIECES) break;
    if (m.index < coveredTo) continue;
    const start = text.lastIndexOf('\n', Math.max(0, m.index - NAMED_REACH)) + 1;
    const newline = text.indexOf('\n', Math.min(text.length, m.index + NAMED_REACH));
    const end = newline < 0 ? text.length : newline;
    const last = out.at(-1);
    if (last !== undefined && start <= coveredTo) {
      // Overlapping windows: one piece from the first's start.
      out[out.length - 1] = { encoding, text: transform(text.slice(last.index, end)), index: last.index };
    } else out.push({ encoding, text: transform(text.slice(start, end)), index: start });
    coveredTo = end;
  }
  return out;
}
const NAMES_ROT13 = /\brot[\s-]?13\b/gi;
const NAMES_REVERSED = /\b(?:revers(?:e|ed)|backwards?|right[\s-]to[\s-]left|mirror(?:ed)?)\b/gi;

/** Each ASCII letter turned 13 places, everything else as it was; over the UTF-16 units (a callback per letter cost more than the rest of decoding). */
function rot13(text: string): string {
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    units[i] = c >= 65 && c <= 90 ? ((c - 52) % 26) + 65 : c >= 97 && c <= 122 ? ((c - 84) % 26) + 97 : c;
  }
  return Buffer.from(units.buffer, units.byteOffset, units.byteLength).toString('utf16le');
}

/**
 * The text's code points in reverse order, as `[...text].reverse().join('')`: the UTF-16 units reversed
 * natively (a Buffer), then each surrogate pair, which that leaves low-before-high, put back in order. Pairs
 * cannot overlap (a unit is either high or low), so swapping every low-high couple restores exactly the pairs
 * the text had; lone surrogates stay lone, as in the spread.
 */
function reversed(text: string): string {
  const bytes = Buffer.from(text, 'utf16le');
  bytes.reverse();
  bytes.swap16();
  const out = bytes.toString('utf16le');
  return SWAPPED_PAIR.test(out) ? out.replace(SWAPPED_PAIRS, '$2$1') : out;
}
const SWAPPED_PAIR = /[\udc00-\udfff][\ud800-\udbff]/;
const SWAPPED_PAIRS = /([\udc00-\udfff])([\ud800-\udbff])/g;

const DECODERS: readonly Decoder[] = [
  {
    // One pass finds both: hex digits are base64 characters. A run of hex digits is hex (hashes are hex too:
    // only one that decodes to prose counts); any other run is base64 if it decodes to prose.
    encoding: 'base64 or hex',
    find: (text) => {
      const out: DecodedPiece[] = [];
      for (const m of base64Runs(text)) {
        if (out.length >= MAX_PIECES) break;
        const run = m.run;
        if (m.bytes === 'hex') {
          const decoded = asText(Buffer.from(run.replace(/0x|[^0-9a-fA-F]/gi, ''), 'hex'));
          if (decoded !== null) out.push({ encoding: 'hex', text: decoded, index: m.index });
          continue;
        }
        if (m.bytes === 'binary') {
          const decoded = asText(Buffer.from((run.match(/[01]{8}/g) ?? []).map((b) => parseInt(b, 2))));
          if (decoded !== null) out.push({ encoding: 'binary', text: decoded, index: m.index });
          continue;
        }
        if (/^[A-Z2-7]{16,}=*$/.test(run) && /[2-7]/.test(run)) {
          const decoded = asText(base32Bytes(run));
          if (decoded !== null) out.push({ encoding: 'base32', text: decoded, index: m.index });
          continue;
        }
        if (/^[0-9a-fA-F]+$/.test(run)) {
          const decoded = run.length >= 24 && run.length % 2 === 0 ? asText(Buffer.from(run, 'hex')) : null;
          if (decoded !== null) out.push({ encoding: 'hex', text: decoded, index: m.index });
          continue;
        }
        if (!/[a-z]/.test(run) || !/[A-Z]/.test(run) || !/[0-9+/]/.test(run)) continue;
        const standard = run.includes('-') || run.includes('_') ? run.replace(/-/g, '+').replace(/_/g, '/') : run;
        const decoded = asText(Buffer.from(standard, 'base64'));
        if (decoded !== null) out.push({ encoding: 'base64', text: decoded, index: m.index });
      }
      if (text.includes('\\x')) out.push(...runs(text, HEX_ESCAPES, (run) => asText(Buffer.from(run.replace(/\\x/g, ''), 'hex')), 'hex'));
      return out;
    },
  },
  // Escapes are decoded in place over the whole text, so words split into separate runs ("Ignore%20previous")
  // read as the sentence they spell.
  { encoding: 'URL encoding', find: (text) => inPlace(text, 'URL encoding', /%[0-9a-fA-F]{2}/g, 3, (m) => String.fromCharCode(parseInt(m.slice(1), 16))) },
  { encoding: 'HTML entities', find: (text) => inPlace(text, 'HTML entities', /&#(?:x[0-9a-fA-F]{1,6}|\d{1,7});/g, 3, (m) => codePoint(m.startsWith('&#x') ? parseInt(m.slice(3, -1), 16) : Number(m.slice(2, -1)))) },
  { encoding: 'Unicode escapes', find: (text) => inPlace(text, 'Unicode escapes', /\\u[0-9a-fA-F]{4}/g, 3, (m) => String.fromCharCode(parseInt(m.slice(2), 16))) },
  {
    // 'igno' + 're al' + 'l prev' …: string pieces a model is asked to concatenate.
    encoding: 'concatenated strings',
    find: (text) => (text.length <= WHOLE_TEXT_LIMIT && /['"`]\s*\+\s*['"`]/.test(text) ? [{ encoding: 'concatenated strings', text: text.replace(/(['"`])\s*\+\s*\1/g, ''), index: 0 }] : []),
  },
  {
    // Leetspeak beyond what the view folds (it leaves words ending in a digit alone: "ed25519"): every digit and
    // @/$ read as a letter, when enough words mix letters and digits to look deliberate.
    encoding: 'leetspeak',
    // A word of digits only ("411") reads 1 as l ("all"); inside a word 1 is i ("1gn0r3").
    find: (text) =>
      text.length <= WHOLE_TEXT_LIMIT && (text.match(LEET_WORD) ?? []).length >= 3
        ? [{ encoding: 'leetspeak', text: text.replace(/\b[0-9]{2,}\b/g, (w) => w.replace(/1/g, 'l')).replace(/[0134578@$]/g, (c) => LEET_ALL[c] ?? c), index: 0 }]
        : [],
  },
  {
    encoding: 'ROT13',
    find: (text) => aroundNames(text, NAMES_ROT13, 'ROT13', rot13),
  },
  {
    encoding: 'reversed text',
    find: (text) => aroundNames(text, NAMES_REVERSED, 'reversed text', reversed),
  },
];

export function decodeHidden(text: string): DecodedPiece[] {
  const pieces: DecodedPiece[] = [];
  for (const decoder of DECODERS) for (const piece of decoder.find(text)) if (piece.text.trim() !== '' && piece.text !== text) pieces.push(piece);
  return pieces;
}

/** Regions a reader of the rendered file does not see, so a finding inside one says so. */
const HIDDEN_REGIONS: ReadonlyArray<{ label: string; pattern: RegExp }> = [
  { label: 'an HTML comment', pattern: /<!--[\s\S]*?(?:-->|$)/g },
  { label: 'a markdown comment', pattern: /^[ \t]*\[\/\/\]:\s*#[^\n]*$/gm },
  { label: 'YAML front matter', pattern: /^\ufeff?---\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/g },
  { label: 'invisible styling', pattern: /<(\w+)[^>]{0,200}?(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0|opacity\s*:\s*0|\bhidden\b)[^>]{0,200}>[\s\S]{0,2000}?<\/\1>/gi },
];

export interface HiddenRegion {
  label: string;
  start: number;
  end: number;
}

export function hiddenRegions(text: string): HiddenRegion[] {
  if (!text.includes('<!--') && !text.includes('[//]') && !text.startsWith('---') && !text.startsWith('\ufeff---') && !/display|visibility|font-size|opacity|hidden/i.test(text)) return [];
  const out: HiddenRegion[] = [];
  for (const { label, pattern } of HIDDEN_REGIONS) for (const m of text.matchAll(pattern)) out.push({ label, start: m.index, end: m.index + m[0].length });
  return out;
}
