/**
 * The scanner's second opinion: a logistic regression over hashed word and character n-grams. Rules say
 * why; the model catches the paraphrase nobody enumerated. It is trained at build time by
 * scripts/train-injection-model.ts on the dev side of the corpus plus benign documents from disk, and
 * this file is the one definition of its features, shared by training and scoring so the two cannot drift.
 *
 * Features, all hashed (FNV-1a) into `buckets` slots: lowercase word unigrams and bigrams, and character
 * 4-grams of the whitespace-collapsed text (they carry scripts without spaces and misspellings). The
 * vector is the count of each slot scaled by 1/√n, so a long segment is not more "suspicious" for being long.
 */

/**
 * The weights either as trained (float, in the training script and tests) or as stored (int8 times `scale`,
 * loaded from a weights file). A loaded model keeps only the int8 table: a quarter of the memory, so it
 * stays in cache (2^18 slots: 256 KB rather than 1 MB), and scoring sums it directly.
 */
export type WeightTable = { weights: Float32Array; quantized?: undefined } | { weights?: undefined; quantized: { values: Int8Array; scale: number } };

export type LinearWeights = WeightTable & {
  buckets: number;
  bias: number;
  /** Model alone flags the text (suspicious) at or above this score. */
  flagAt: number;
  /** Between this and `flagAt` the model is unsure: the grey zone, which a configured judge is asked about. */
  greyAt: number;
  /** Below this score the model is sure enough of "benign" to overrule the findings of the rules in `overrulable` (scan.ts). */
  clearAt: number;
  /** The rules a score below `clearAt` may overrule (scan.ts); empty: none. */
  overrulable: ReadonlySet<string>;
  /**
   * Each overrulable rule's own threshold, when the weights file has them (then `clearAt` is the highest of
   * them): a rule whose findings stayed clean up to a higher score may be overruled up to there (scan.ts).
   */
  clearAtByRule?: ReadonlyMap<string, number>;
  /** The same for texts under SHORT_TEXT_WORDS words (scan.ts); absent: none is overruled in a short text. */
  clearAtByRuleShort?: ReadonlyMap<string, number>;
};

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const WORD_SALT = 0x9e3779b9;
const BIGRAM_SALT = 0x85ebca6b;
const CHAR_SALT = 0xc2b2ae35;
const CJK_SALT = 0x27d4eb2f;
const CHAR_N = 4;

/** Segments the model scores one at a time, so one hidden order in a long document is not averaged away. */
const SEGMENT_CHARS = 300;

function isWordCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 39 || (c >= 0xc0 && c !== 0x3000 && !(c >= 0x2000 && c <= 0x206f) && !(c >= 0x3000 && c <= 0x303f) && !(c >= 0xff00 && c <= 0xff0f));
}

/**
 * Han, kana and Hangul: scripts written without spaces between words (Korean puts particles on its words).
 * A "word" there is a whole clause that rarely repeats, and a 4-gram spans two words; so these characters
 * also give character bigrams, about one word of Chinese or Japanese each.
 */
function isCjkCode(c: number): boolean {
  return (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x3040 && c <= 0x30ff) || (c >= 0xac00 && c <= 0xd7af);
}

/** Reused across calls: scoring a document allocates nothing per segment. Grown as needed. */
let scratch = new Int32Array(4096);

/**
 * The bucket of every feature of `text`, in a fixed order, written into a shared buffer: read
 * `buckets[0..count)` before the next call. A buffer rather than a callback so the one loop stays
 * monomorphic for both callers (scoring and training); with a callback it ran three times slower.
 * `text` is lowercased here; the caller passes the scanner's normalised view.
 */
export function extractFeatures(text: string, buckets: number): { buckets: Int32Array; count: number } {
  const lower = text.toLowerCase();
  // At most four features per character (a word, a bigram, a 4-gram, a CJK bigram) plus the closing word.
  if (scratch.length < 4 * lower.length + 3) scratch = new Int32Array(4 * lower.length + 3);
  const out = scratch;
  const mask = buckets - 1;
  let count = 0;
  let prevWord = 0;
  let word = FNV_OFFSET;
  let inWord = false;
  // Character 4-grams over a whitespace-collapsed copy: the last four codes in four locals (oldest first).
  let c0 = 32;
  let c1 = 32;
  let c2 = 32;
  let c3 = 32;
  let filled = 0;
  let lastSpace = true;
  let prevCjk = 0;
  for (let i = 0; i <= lower.length; i++) {
    const c = i < lower.length ? lower.charCodeAt(i) : 32;
    if (c >= 0x3040 && isCjkCode(c)) {
      if (prevCjk !== 0) out[count++] = (Math.imul(Math.imul(CJK_SALT ^ prevCjk, FNV_PRIME) ^ c, FNV_PRIME) >>> 0) & mask;
      prevCjk = c;
    } else prevCjk = 0;
    if (isWordCode(c)) {
      word = Math.imul(word ^ c, FNV_PRIME);
      inWord = true;
    } else {
      if (inWord) {
        const w = Math.imul(word ^ WORD_SALT, FNV_PRIME) >>> 0;
        out[count++] = w & mask;
        if (prevWord !== 0) out[count++] = (Math.imul(prevWord ^ w ^ BIGRAM_SALT, FNV_PRIME) >>> 0) & mask;
        prevWord = w;
        word = FNV_OFFSET;
        inWord = false;
      }
      // A sentence break ends the bigram chain, so "… done. Ignore" is not a bigram.
      if (c === 46 || c === 10 || c === 33 || c === 63 || c === 0x3002) prevWord = 0;
    }
    const space = c === 32 || c === 10 || c === 9 || c === 13;
    if (space && lastSpace) continue;
    lastSpace = space;
    c0 = c1;
    c1 = c2;
    c2 = c3;
    c3 = space ? 32 : c;
    if (++filled >= CHAR_N) {
      const h = Math.imul(Math.imul(Math.imul(Math.imul(CHAR_SALT ^ c0, FNV_PRIME) ^ c1, FNV_PRIME) ^ c2, FNV_PRIME) ^ c3, FNV_PRIME);
      out[count++] = (h >>> 0) & mask;
    }
  }
  return { buckets: out, count };
}

/** The model's probability that `segment` is an injection. */
export function scoreSegment(model: LinearWeights, segment: string): number {
  const { buckets, count: n } = extractFeatures(segment, model.buckets);
  if (n === 0) return sigmoid(model.bias);
  let sum = 0;
  if (model.quantized !== undefined) {
    const values = model.quantized.values;
    for (let i = 0; i < n; i++) sum += values[buckets[i] as number] as number;
    sum *= model.quantized.scale;
  } else {
    const weights = model.weights;
    for (let i = 0; i < n; i++) sum += weights[buckets[i] as number] as number;
  }
  return sigmoid(model.bias + sum / Math.sqrt(n));
}

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** Lines packed into segments of about SEGMENT_CHARS; a longer line is cut at sentence ends, then hard. */
export function segments(text: string): Array<{ start: number; text: string }> {
  const out: Array<{ start: number; text: string }> = [];
  let start = 0;
  let at = 0;
  while (at < text.length) {
    let lineEnd = text.indexOf('\n', at);
    if (lineEnd < 0) lineEnd = text.length;
    if (lineEnd - start > SEGMENT_CHARS && at > start) {
      out.push({ start, text: text.slice(start, at) });
      start = at;
    }
    while (lineEnd - start > SEGMENT_CHARS) {
      const cut = text.lastIndexOf('. ', start + SEGMENT_CHARS);
      const end = cut > start + SEGMENT_CHARS / 3 ? cut + 2 : start + SEGMENT_CHARS;
      out.push({ start, text: text.slice(start, end) });
      start = end;
    }
    at = lineEnd + 1;
  }
  if (start < text.length && text.slice(start).trim() !== '') out.push({ start, text: text.slice(start) });
  return out;
}

/** The highest-scoring segment of `text`. */
export function scoreText(model: LinearWeights, text: string): { score: number; start: number; length: number } {
  let best = { score: 0, start: 0, length: 0 };
  for (const seg of segments(text)) {
    if (seg.text.trim() === '') continue;
    const score = scoreSegment(model, seg.text);
    if (score > best.score) best = { score, start: seg.start, length: seg.text.length };
  }
  return best;
}
