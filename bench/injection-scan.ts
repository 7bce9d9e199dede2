/**
 * Injection scanner: precision and recall on the written corpus (test/fixtures/injection-corpus), and
 * throughput in MB/s on a large clean document and on the corpus itself. The baseline is the same rule
 * table applied to plain NFKC text, without the de-obfuscating view, quotation handling or tag decoding:
 * its recall shows what those steps catch, its speed what they cost.
 *
 *   node --import tsx bench/injection-scan.ts
 */
import { ALL_RULES, scanForInjection } from '../src/core/safety/injection/scan.js';
import { loadCorpus, type CorpusEntry } from '../test/fixtures/injection-corpus/load.js';

const attacks = loadCorpus('attacks');
const clean = loadCorpus('clean');

type Detector = (text: string) => boolean;
const scanner: Detector = (text) => scanForInjection(text, { source: 'bench' }).findings.length > 0;
const blockingScanner: Detector = (text) => scanForInjection(text, { source: 'bench' }).verdict === 'blocked';
const baseline: Detector = (text) => {
  const normalised = text.normalize('NFKC');
  // Every rule runs, as in the scanner, so the speed comparison is like for like.
  return ALL_RULES.filter((rule) => rule.pattern.test(normalised)).length > 0;
};

function quality(name: string, detect: Detector): void {
  const hits = (entries: CorpusEntry[]) => entries.filter((e) => detect(e.text));
  const truePositives = hits(attacks).length;
  const falsePositives = hits(clean);
  const precision = truePositives / Math.max(1, truePositives + falsePositives.length);
  const recall = truePositives / attacks.length;
  const missed = attacks.filter((a) => !detect(a.text)).map((a) => a.name);
  console.log(
    `${name.padEnd(34)} precision ${precision.toFixed(3)}  recall ${recall.toFixed(3)}  (${truePositives}/${attacks.length} attacks, ${falsePositives.length}/${clean.length} clean flagged)`,
  );
  if (missed.length > 0) console.log(`${''.padEnd(34)} missed: ${missed.join('; ')}`);
  if (falsePositives.length > 0) console.log(`${''.padEnd(34)} false positives: ${falsePositives.map((e) => e.name).join('; ')}`);
}

/** MB/s over `texts`, repeated until at least `minMs` of work, best of three rounds. */
function throughput(detect: Detector, texts: readonly string[], minMs = 1500): number {
  const bytes = texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0);
  let best = 0;
  for (let round = 0; round < 3; round++) {
    let done = 0;
    const start = performance.now();
    while (performance.now() - start < minMs / 3) {
      for (const text of texts) detect(text);
      done += bytes;
    }
    best = Math.max(best, done / 1e6 / ((performance.now() - start) / 1000));
  }
  return best;
}

console.log(`corpus: ${attacks.length} attacks, ${clean.length} clean texts\n`);
quality('scanner (any finding = suspicious)', scanner);
quality('scanner (high finding = blocked)', blockingScanner);
quality('baseline: rules on NFKC text only', baseline);

// A README-sized clean document (~1 MB) made of the clean corpus: the common case, nothing matches.
const cleanText = clean.map((c) => c.text).join('\n\n');
const document = cleanText.repeat(Math.ceil(1_000_000 / cleanText.length));
const asciiText = clean.filter((c) => /^[\t\n\r\x20-\x7e]*$/.test(c.text)).map((c) => c.text).join('\n\n');
const asciiDocument = asciiText.repeat(Math.ceil(1_000_000 / asciiText.length));
const corpusTexts = [...attacks, ...clean].map((e) => e.text);
const rows: Array<[string, string[]]> = [
  [`mixed-script document (${(Buffer.byteLength(document) / 1e6).toFixed(2)} MB)`, [document]],
  [`ASCII document (${(Buffer.byteLength(asciiDocument) / 1e6).toFixed(2)} MB)`, [asciiDocument]],
  [`corpus entries (${corpusTexts.length} short texts)`, corpusTexts],
];
console.log('');
for (const [label, texts] of rows) {
  const fast = throughput(scanner, texts);
  const base = throughput(baseline, texts);
  console.log(`${label.padEnd(34)} scanner ${fast.toFixed(2)} MB/s  baseline ${base.toFixed(2)} MB/s  ratio ${(base / fast).toFixed(2)}x`);
}
