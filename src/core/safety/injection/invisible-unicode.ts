/**
 * Characters that change what a model reads without changing what a person sees: zero-width characters
 * (hide words inside words), bidi embeddings/overrides/isolates (reorder text, "Trojan Source"), tag
 * characters and variation-selector supplements (carry a whole hidden message, "ASCII smuggling").
 *
 * Legitimate uses stay clean, so real text from real people is not refused:
 * - ZWJ/ZWNJ between emoji (👩‍💻) or between letters of scripts that need them (Persian, Devanagari…);
 * - tag characters inside an emoji flag sequence (🏴 + tag letters + CANCEL TAG, e.g. the Scottish flag);
 * - variation selectors U+E0100–E01EF after a Han ideograph (ideographic variation sequences).
 * - a byte-order mark (U+FEFF) as the very first character: editors on Windows write one at the start of
 *   a UTF-8 file (some of Anthropic's own skills start with it); it hides nothing. Anywhere else it is a
 *   zero-width no-break space and is flagged.
 * LRM/RLM/ALM are not flagged: they mark direction, they cannot reorder text the way overrides do.
 */

export interface InvisibleCharacter {
  /** Index in the string (UTF-16 units). */
  index: number;
  codePoint: number;
  name: string;
}

const ZWNJ = 0x200c;
const ZWJ = 0x200d;
const BLACK_FLAG = 0x1f3f4;
const CANCEL_TAG = 0xe007f;
const MAX_FLAG_TAGS = 7;
const BYTE_ORDER_MARK = 0xfeff;

function describe(cp: number): string | undefined {
  if (cp === 0x200b) return 'ZERO WIDTH SPACE';
  if (cp === ZWNJ) return 'ZERO WIDTH NON-JOINER';
  if (cp === ZWJ) return 'ZERO WIDTH JOINER';
  if (cp === 0x2060) return 'WORD JOINER';
  if (cp >= 0x2061 && cp <= 0x2064) return 'INVISIBLE MATH OPERATOR';
  if (cp === 0xfeff) return 'ZERO WIDTH NO-BREAK SPACE';
  if (cp === 0x180e) return 'MONGOLIAN VOWEL SEPARATOR';
  if (cp >= 0x202a && cp <= 0x202e) return 'BIDI EMBEDDING/OVERRIDE';
  if (cp >= 0x2066 && cp <= 0x2069) return 'BIDI ISOLATE';
  if (cp >= 0xe0000 && cp <= 0xe007f) return 'TAG CHARACTER';
  if (cp >= 0xe0100 && cp <= 0xe01ef) return 'VARIATION SELECTOR SUPPLEMENT';
  return undefined;
}

const JOINABLE = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]|(?![A-Za-z])[\p{L}\p{M}]/u;
const HAN = /\p{Script=Han}/u;

/** Every invisible character in `text` that is not part of a legitimate sequence, in order. */
/** Any character `describe` names (tags and variation selectors are astral: high surrogate U+DB40). */
const MAYBE_INVISIBLE = /[\u180e\u200b-\u200d\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\udb40]/;

export function findInvisibleCharacters(text: string): InvisibleCharacter[] {
  // Nearly all text has none of them: skip the per-character walk.
  if (!MAYBE_INVISIBLE.test(text)) return [];
  const chars = Array.from(text);
  const found: InvisibleCharacter[] = [];
  let index = 0;
  // Tag characters seen since a 🏴; a real subdivision flag spells a short region code (gbsct).
  let flagTags = -1;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] ?? '';
    const cp = ch.codePointAt(0) ?? 0;
    if (cp === BLACK_FLAG) flagTags = 0;
    else if (cp >= 0xe0020 && cp < CANCEL_TAG && flagTags >= 0) flagTags++;
    else if (cp !== CANCEL_TAG) flagTags = -1;
    const inFlagSequence = flagTags >= 0 && flagTags <= MAX_FLAG_TAGS;
    const name = describe(cp);
    if (name !== undefined && !isLegitimate(chars, i, cp, inFlagSequence)) found.push({ index, codePoint: cp, name });
    if (cp === CANCEL_TAG) flagTags = -1;
    index += ch.length;
  }
  return found;
}

function isLegitimate(chars: string[], i: number, cp: number, inFlagSequence: boolean): boolean {
  if (cp === BYTE_ORDER_MARK) return i === 0;
  const before = chars[i - 1] ?? '';
  const after = chars[i + 1] ?? '';
  if (cp === ZWJ || cp === ZWNJ) return JOINABLE.test(before) && JOINABLE.test(after);
  if (cp >= 0xe0020 && cp <= CANCEL_TAG) return inFlagSequence;
  if (cp >= 0xe0100 && cp <= 0xe01ef) return HAN.test(before);
  return false;
}

/** `text` with each flagged character removed, so phrasing rules see what the model would read. */
export function stripInvisibleCharacters(text: string, found = findInvisibleCharacters(text)): string {
  if (found.length === 0) return text;
  let out = '';
  let from = 0;
  for (const ch of found) {
    out += text.slice(from, ch.index);
    from = ch.index + String.fromCodePoint(ch.codePoint).length;
  }
  return out + text.slice(from);
}

export function codePointLabel(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The ASCII message carried by flagged tag characters (U+E0020–E007E mirror printable ASCII), so the
 * scanner can read what was smuggled, not only that something was. '' when nothing is hidden.
 */
export function decodeTagMessage(found: readonly InvisibleCharacter[]): string {
  let message = '';
  for (const ch of found) {
    if (ch.codePoint >= 0xe0020 && ch.codePoint <= 0xe007e) message += String.fromCharCode(ch.codePoint - 0xe0000);
  }
  return message;
}
