/**
 * Injection scanner: per split (dev, test, old corpus) and per category, how many attacks are flagged
 * (recall), how many clean texts are flagged (FP rate) and the precision, for the rules alone, the
 * learned model alone and the two combined (the scanner's verdict); then MB/s on real documents.
 * Dev misses and false positives are printed with their ids; for the frozen test split only counts.
 *
 *   node --import tsx bench/injection-scan.ts            (build the weights first: npm run build)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { findInvisibleCharacters } from '../src/core/safety/injection/invisible-unicode.js';
import { scoreText } from '../src/core/safety/injection/linear-model.js';
import { loadInjectionModel } from '../src/core/safety/injection/model-weights.js';
import { MODEL_RULE, scanForInjection } from '../src/core/safety/injection/scan.js';
import { buildTextView } from '../src/core/safety/injection/text-view.js';
import { entryText, loadSplit, oldCorpusEntries, REPO_ROOT, type SplitEntry } from '../test/fixtures/injection-corpus/load.js';

const status = loadInjectionModel();
if (status.state === 'unavailable') console.log(`WARNING: ${status.reason}; "model" and "combined" rows are rules only.\n`);

type Detector = (text: string) => boolean;
const rules: Detector = (text) => scanForInjection(text, { source: 'bench', ignoreRules: [MODEL_RULE] }).verdict !== 'clean';
const model: Detector = (text) => {
  if (status.state === 'unavailable') return false;
  return scoreText(status.model, buildTextView(text, findInvisibleCharacters(text)).text).score >= status.model.flagAt;
};
const combined: Detector = (text) => scanForInjection(text, { source: 'bench' }).verdict !== 'clean';
const DETECTORS: Array<[string, Detector]> = [
  ['rules', rules],
  ['model', model],
  ['combined', combined],
];

interface Row {
  attacks: number;
  attacksFlagged: number;
  clean: number;
  cleanFlagged: number;
}
const pct = (n: number, d: number) => (d === 0 ? '   -  ' : `${((100 * n) / d).toFixed(1).padStart(5)}%`);
function line(label: string, r: Row): string {
  const precision = r.attacksFlagged + r.cleanFlagged === 0 ? '  -  ' : (r.attacksFlagged / (r.attacksFlagged + r.cleanFlagged)).toFixed(3);
  return `  ${label.padEnd(22)} n=${String(r.attacks + r.clean).padStart(4)}  attacks flagged ${String(r.attacksFlagged).padStart(3)}/${String(r.attacks).padEnd(3)} ${pct(r.attacksFlagged, r.attacks)}  clean flagged ${String(r.cleanFlagged).padStart(3)}/${String(r.clean).padEnd(3)} ${pct(r.cleanFlagged, r.clean)}  precision ${precision}`;
}

function evaluate(name: string, entries: SplitEntry[], showTexts: boolean): void {
  const texts = entries.map((e) => entryText(e).text);
  console.log(`\n== ${name}: ${entries.length} entries`);
  for (const [detectorName, detect] of DETECTORS) {
    const flagged = texts.map((t) => detect(t));
    const byCategory = new Map<string, Row>();
    const total: Row = { attacks: 0, attacksFlagged: 0, clean: 0, cleanFlagged: 0 };
    entries.forEach((e, i) => {
      const row = byCategory.get(e.category) ?? { attacks: 0, attacksFlagged: 0, clean: 0, cleanFlagged: 0 };
      for (const r of [row, total]) {
        if (e.label === 'attack') {
          r.attacks++;
          if (flagged[i]) r.attacksFlagged++;
        } else {
          r.clean++;
          if (flagged[i]) r.cleanFlagged++;
        }
      }
      byCategory.set(e.category, row);
    });
    console.log(`${detectorName}:`);
    console.log(line('ALL', total));
    for (const [category, row] of [...byCategory].sort()) console.log(line(category, row));
    if (showTexts && detectorName === 'combined') {
      const missed = entries.filter((e, i) => e.label === 'attack' && !flagged[i]);
      const falsePositives = entries.filter((e, i) => e.label === 'clean' && flagged[i]);
      for (const e of missed) console.log(`  MISSED ${e.id}: ${JSON.stringify('insert' in e ? e.insert : 'text' in e ? e.text : e.file).slice(0, 200)}`);
      for (const e of falsePositives) {
        const result = scanForInjection(entryText(e).text, { source: 'bench' });
        console.log(`  FALSE POSITIVE ${e.id}: ${result.findings.map((f) => `${f.rule} “${f.excerpt}”`).join('; ').slice(0, 240)}`);
      }
    }
  }
}

const dev = loadSplit('dev');
if (dev === null) console.log('\n== dev split: not there yet');
else evaluate('dev split', dev, true);
const test = loadSplit('test');
if (test === null) console.log('\n== test split: not there yet');
else evaluate('test split (frozen; counts only)', test, false);
evaluate('old corpus (attacks.jsonl + clean.jsonl)', oldCorpusEntries(), true);

/** MB/s over `texts`, repeated until at least `minMs` of work, best of three rounds. */
function throughput(detect: Detector, texts: readonly string[], minMs = 3000): number {
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

// Real documents: the READMEs and docs of installed packages, as the scanner meets them in a skill or repo.
const documents: string[] = [];
let size = 0;
for (const pkg of readdirSync(join(REPO_ROOT, 'node_modules')).sort()) {
  const path = join(REPO_ROOT, 'node_modules', pkg, 'README.md');
  const stat = pkg.startsWith('.') ? undefined : statSync(path, { throwIfNoEntry: false });
  if (stat === undefined || !stat.isFile() || size > 3_000_000) continue;
  documents.push(readFileSync(path, 'utf8'));
  size += stat.size;
}
console.log(`\n== throughput on ${documents.length} real READMEs (${(size / 1e6).toFixed(2)} MB)`);
for (const [name, detect] of DETECTORS) console.log(`  ${name.padEnd(10)} ${throughput(detect, documents).toFixed(2)} MB/s`);
