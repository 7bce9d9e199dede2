/**
 * Trains the injection scanner's learned model and writes its weights file (a build output, git-ignored):
 *
 *   node --import tsx scripts/train-injection-model.ts [--out <path>] [--if-stale]
 *
 * `--if-stale` does nothing when the weights file is newer than everything training reads (see `isStale`): what
 * `npm start` and vitest's global setup use, so an unchanged checkout does not spend a minute retraining.
 *
 * Runs in `npm run build`, `scripts/test.sh` and vitest's global setup. Data, in a fixed order:
 * - the dev split (test/fixtures/injection-corpus/dev-split.jsonl) and the old corpus (attacks/clean.jsonl);
 * - benign documents on disk: READMEs and docs in node_modules (pinned by package-lock.json). Not the project's
 *   own docs/: the weights would change with every edit of a decision record (three builds of one corpus that
 *   differed only there scored the test split 86.0–88.7 %).
 * The frozen test split is read only for the list of files it uses, and every one of them is left out.
 * Thresholds come from out-of-fold scores (folds by writing batch, see `foldGroups`): `flagAt` lets through at most 2 % of benign documents,
 * `greyAt` 5 %, and `clearAt` with the rules a score below it overrules (see below). Deterministic: same
 * inputs, same bytes.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { findInvisibleCharacters } from '../src/core/safety/injection/invisible-unicode.js';
import { scoreSegment, segments } from '../src/core/safety/injection/linear-model.js';
import { defaultWeightsPath, encodeWeights } from '../src/core/safety/injection/model-weights.js';
import { isVisibleFinding, NEVER_OVERRULED, ruleFindings, SHORT_TEXT_WORDS } from '../src/core/safety/injection/scan.js';
import { proseWords } from '../src/core/safety/injection/mention.js';
import { buildTextView } from '../src/core/safety/injection/text-view.js';
import { DEFAULT_TRAIN_OPTIONS, outOfFoldScores, thresholdForFalsePositiveRate, trainLinearModel, type TrainingExample } from '../src/core/safety/injection/train.js';
import { entryText, loadSplit, oldCorpusEntries, REPO_ROOT, splitFiles } from '../test/fixtures/injection-corpus/load.js';

const MAX_DOC_CHARS = 40_000;
const MAX_BENIGN_CHARS = 2_500_000;
const FOLDS = 4;
/**
 * 2 %, not 1 %: on seven writers the model had not seen (dev5, 2026-12-02) recall went 64.7 % → 71.6 % for
 * 6.1 % → 7.0 % of clean texts flagged; a lone model finding is only "suspicious" (a warning), not a refusal.
 */
const FLAG_FP = 0.02;
const GREY_FP = 0.05;
/** The share of the corpus's attacks the model's "clearly benign" may cost the rules (`clearAt`, below). */
const CLEAR_COST = 0.01;
/** A rule the model may overrule: below `clearAt` its findings were clean at least this many times per attack… */
const OVERRULE_ODDS = 3;
/** …and at least this many times (fewer is too little evidence to stop trusting a rule). */
const OVERRULE_MIN_CLEAN = 3;

const outArg = process.argv.indexOf('--out');
const out = outArg >= 0 ? (process.argv[outArg + 1] as string) : defaultWeightsPath(REPO_ROOT);

/**
 * Whether `out` is older than anything training reads: this script, the scanner's code (the rules choose the
 * overrule thresholds, so every file there counts), the corpus, and the installed packages (their READMEs are
 * the benign documents; npm rewrites node_modules/.package-lock.json on every install).
 */
function isStale(): boolean {
  if (!existsSync(out)) return true;
  const built = statSync(out).mtimeMs;
  const inputs = [
    import.meta.filename,
    ...filesUnder(join(REPO_ROOT, 'src/core/safety/injection')),
    ...filesUnder(join(REPO_ROOT, 'test/fixtures/injection-corpus')),
    // Corpus entries may name a file under docs/ as their text (`file` entries).
    ...filesUnder(join(REPO_ROOT, 'docs')),
    join(REPO_ROOT, 'node_modules/.package-lock.json'),
  ];
  return inputs.some((path) => existsSync(path) && statSync(path).mtimeMs > built);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? filesUnder(join(dir, d.name)) : [join(dir, d.name)]));
}

if (process.argv.includes('--if-stale') && !isStale()) {
  console.log(`train-injection-model: ${relative(REPO_ROOT, out)} is up to date`);
  process.exit(0);
}

const view = (text: string): string => buildTextView(text, findInvisibleCharacters(text)).text;

const examples: TrainingExample[] = [];
/** The document (corpus entry or file) each example was cut from: a document is flagged when any of its segments is. */
const groups: string[] = [];
/**
 * What the out-of-fold split keeps together: for corpus entries the batch that wrote them (the id's prefix,
 * `dev`, `dev2`, `dev3a`…, `old`), so every threshold is chosen on scores for a writer the model did not see.
 * Folds by entry let a writer's habits leak across folds and overstated recall (see SPLITS.md).
 */
const foldGroups: string[] = [];
const counts: Record<string, number> = {};
function add(group: string, text: string, label: 0 | 1, kind: string, foldGroup = group): void {
  if (text.trim() === '') return;
  examples.push({ text, label });
  groups.push(group);
  foldGroups.push(foldGroup);
  counts[kind] = (counts[kind] ?? 0) + 1;
}
const writerOf = (id: string): string => id.split('-')[0] as string;
/** Corpus entries, and those of them long enough to be cut into segments (documents, not notes). */
const corpusIds = new Set<string>();
const segmentGroups = new Set<string>();
/** Long attack entries written in full (a document with one order somewhere in it), by segment. */
const longAttacks: Array<{ id: string; segments: string[] }> = [];

// The test split: only which files it reads, so none of them is trained on.
const test = loadSplit('test');
const excluded = test === null ? new Set<string>() : splitFiles(test);

// Dev split and old corpus. A document with one inserted instruction: the segment holding it is the
// attack, the rest of the document is benign text.
const dev = loadSplit('dev') ?? [];
if (dev.length === 0) console.warn('train-injection-model: no dev split found; training on the old corpus and benign documents only');
for (const entry of [...dev, ...oldCorpusEntries()]) {
  if ('file' in entry && excluded.has(normalize(entry.file))) continue;
  const { text, insertedAt } = entryText(entry);
  const label = entry.label === 'attack' ? 1 : 0;
  corpusIds.add(entry.id);
  if (text.length <= 1200 && insertedAt === undefined) {
    add(entry.id, view(text), label, `dev ${entry.label}`, writerOf(entry.id));
    continue;
  }
  segmentGroups.add(entry.id);
  const parts = segments(text.slice(0, MAX_DOC_CHARS + (insertedAt ?? 0)));
  // A long attack written in full hides its order in one segment we cannot point at: chosen below.
  if (label === 1 && insertedAt === undefined) {
    longAttacks.push({ id: entry.id, segments: parts.map((seg) => view(seg.text)).filter((t) => t.trim() !== '') });
    continue;
  }
  for (const seg of parts) {
    const holdsInsert = insertedAt !== undefined && insertedAt >= seg.start && insertedAt < seg.start + seg.text.length;
    if (insertedAt !== undefined && !holdsInsert && seg.start > MAX_DOC_CHARS) continue;
    add(entry.id, view(seg.text), holdsInsert ? 1 : 0, holdsInsert ? 'dev inserted attack' : 'dev clean segment', writerOf(entry.id));
  }
}

// Benign documents from disk, sorted so the order never depends on the file system.
function markdownFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (err) {
      console.warn(`train-injection-model: skipping ${dir}: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (stat === undefined) continue;
      if (stat.isDirectory()) {
        if (depth > 0 && name !== 'node_modules' && !name.startsWith('.')) walk(path, depth - 1);
      } else if (/\.(?:md|markdown|txt)$/i.test(name) && stat.size > 200 && stat.size < 400_000) found.push(path);
    }
  };
  for (const pkg of readdirSync(join(REPO_ROOT, 'node_modules')).sort()) {
    const dir = join(REPO_ROOT, 'node_modules', pkg);
    if (pkg.startsWith('.')) continue;
    if (pkg.startsWith('@')) for (const inner of readdirSync(dir).sort()) walk(join(dir, inner), 1);
    else walk(dir, 1);
  }
  return found;
}
let benignChars = 0;
for (const path of markdownFiles()) {
  if (benignChars >= MAX_BENIGN_CHARS) break;
  const rel = normalize(relative(REPO_ROOT, path));
  if (excluded.has(rel) || dev.some((e) => 'file' in e && normalize(e.file) === rel)) continue;
  const text = readFileSync(path, 'utf8').slice(0, MAX_DOC_CHARS);
  benignChars += text.length;
  for (const seg of segments(text)) add(rel, view(seg.text), 0, 'benign document segment');
}

// The corpus's clean entries (notes, chat, code and write-ups that use the attack words benignly) are the
// negatives that teach the model what an attack is not; the document segments mostly teach it what
// documentation looks like. Weighted so the two kinds count alike (4.5× each entry on the 2026-12-02 corpus; the
// build prints it): on folds by writer, recall at the 1 % threshold went 15.8 % → 21.6 % when this was set (a
// fixed weight of 4: 19.9 %; 15: 25.0 % but thresholds near 1).
const hardNegatives = examples.filter((e, i) => e.label === 0 && corpusIds.has(groups[i] as string) && !segmentGroups.has(groups[i] as string)).length;
const documentNegatives = examples.filter((e) => e.label === 0).length - hardNegatives;
const hardWeight = hardNegatives === 0 ? 1 : documentNegatives / hardNegatives;
examples.forEach((e, i) => {
  if (e.label === 0 && corpusIds.has(groups[i] as string) && !segmentGroups.has(groups[i] as string)) e.weight = hardWeight;
});

const options = DEFAULT_TRAIN_OPTIONS;
// Which segment of a long attack holds its order is not labelled. Calling every segment an attack taught the
// model that ordinary documentation is one (most of such a document is); so a first model, trained on everything
// else, picks the segment it scores highest, and only that one is the attack (multiple-instance learning in
// one step). The rest of the document is left out: it may hold part of the order.
if (longAttacks.length > 0) {
  const first = trainLinearModel(examples, options);
  const picker = { buckets: options.buckets, bias: first.bias, weights: first.weights, flagAt: 1, greyAt: 1, clearAt: 0, overrulable: new Set<string>() };
  for (const attack of longAttacks) {
    const scored = attack.segments.map((seg) => ({ seg, score: scoreSegment(picker, seg) }));
    const best = scored.reduce<(typeof scored)[number] | undefined>((a, b) => (a === undefined || b.score > a.score ? b : a), undefined);
    if (best !== undefined) add(attack.id, best.seg, 1, 'dev long attack (its likeliest segment)', writerOf(attack.id));
  }
}
const oof = outOfFoldScores(examples, foldGroups, FOLDS, options);
// Thresholds at the document level (a document is flagged when any of its segments is), chosen twice: on the
// corpus's clean entries (short notes, chat, code, security write-ups) and on the benign documents from disk.
// Each is a different shape of text; the stricter threshold holds for both.
const corpusGroups = new Set([...dev, ...oldCorpusEntries()].map((e) => e.id));
const benignMax = { corpus: new Map<string, number>(), disk: new Map<string, number>() };
const attackGroups = new Set(groups.filter((_, i) => examples[i]?.label === 1));
oof.forEach((score, i) => {
  const group = groups[i] as string;
  if (attackGroups.has(group)) return;
  const side = corpusGroups.has(group) ? benignMax.corpus : benignMax.disk;
  side.set(group, Math.max(side.get(group) ?? 0, score));
});
const threshold = (rate: number) => Math.max(thresholdForFalsePositiveRate([...benignMax.corpus.values()], rate), thresholdForFalsePositiveRate([...benignMax.disk.values()], rate));
const flagAt = Math.max(0.5, threshold(FLAG_FP));
const greyAt = Math.min(flagAt, Math.max(0.3, threshold(GREY_FP)));
// The rules the model may overrule (scan.ts), each below its own score, chosen on the same out-of-fold scores.
// Rule r may be overruled below c when, among corpus entries the rules flag with visible findings only and the
// model scores below c, those holding r were clean at least OVERRULE_ODDS times per attack (and at least
// OVERRULE_MIN_CLEAN times); r's threshold is the highest such c (on a 0.005 grid) up to a common cap, and an
// entry is cleared when its score is below the threshold of every rule it holds. The cap (below greyAt) is the
// one that clears the most clean entries while its cleared attacks are at most CLEAR_COST of the corpus's.
// One threshold for all rules (before 2026-12-02, third session) left a rule such as fake_transcript, which
// conversation logs trip, overruled only below 0.12, where few benign logs score. Short texts (under
// SHORT_TEXT_WORDS words) get thresholds of their own, chosen the same way on short entries only: the model's
// score on a dozen words is worth less, and one table let short orders through at the thresholds long benign
// documents had earned. Both tables share the cap and the cost.
const entryScore = new Map<string, number>();
oof.forEach((score, i) => {
  const group = groups[i] as string;
  if (corpusGroups.has(group)) entryScore.set(group, Math.max(entryScore.get(group) ?? 0, score));
});
const visibleOnly: Array<{ attack: boolean; score: number; rules: string[] }> = [];
const SHORT = '@short';
let corpusAttacks = 0;
let corpusClean = 0;
for (const entry of [...dev, ...oldCorpusEntries()]) {
  const score = entryScore.get(entry.id);
  if (score === undefined) continue;
  if (entry.label === 'attack') corpusAttacks++;
  else corpusClean++;
  const text = entryText(entry).text;
  const found = ruleFindings(text);
  if (found.length === 0 || !found.every(isVisibleFinding)) continue;
  // Rules of a short text are keyed apart ("rule@short"): they get the short table's thresholds.
  const short = proseWords(buildTextView(text, findInvisibleCharacters(text)).text) < SHORT_TEXT_WORDS;
  visibleOnly.push({ attack: entry.label === 'attack', score, rules: [...new Set(found.map((f) => (short ? `${f.rule}${SHORT}` : f.rule)))] });
}
const GRID = 0.005;
const gridSteps = Math.floor(greyAt / GRID);
/** Per rule, per grid step g: the highest step ≤ g at which the rule's odds hold (0: none). */
const bestStepUpTo = new Map<string, Int32Array>();
{
  const byRule = new Map<string, Array<{ attack: boolean; score: number }>>();
  for (const e of visibleOnly) for (const rule of e.rules) if (!NEVER_OVERRULED.has(rule.replace(SHORT, ''))) (byRule.get(rule) ?? byRule.set(rule, []).get(rule))?.push(e);
  for (const [rule, entries] of byRule) {
    const best = new Int32Array(gridSteps + 1);
    for (let g = 1; g <= gridSteps; g++) {
      const below = entries.filter((e) => e.score < g * GRID);
      const clean = below.filter((e) => !e.attack).length;
      const attacks = below.length - clean;
      best[g] = clean >= OVERRULE_MIN_CLEAN && clean >= OVERRULE_ODDS * attacks ? g : (best[g - 1] as number);
    }
    bestStepUpTo.set(rule, best);
  }
}
function clearing(cap: number): { byRule: Map<string, number>; attacks: number; clean: number } {
  const byRule = new Map<string, number>();
  for (const [rule, best] of bestStepUpTo) if ((best[cap] as number) > 0) byRule.set(rule, Number(((best[cap] as number) * GRID).toFixed(3)));
  const cleared = visibleOnly.filter((e) => e.rules.every((r) => e.score < (byRule.get(r) ?? 0)));
  return { byRule, attacks: cleared.filter((e) => e.attack).length, clean: cleared.filter((e) => !e.attack).length };
}
let clear = clearing(0);
for (let cap = 1; cap <= gridSteps; cap++) {
  const candidate = clearing(cap);
  if (candidate.attacks <= CLEAR_COST * corpusAttacks && candidate.clean > clear.clean) clear = candidate;
}
const chosen = [...clear.byRule].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
const clearAtByRule = Object.fromEntries(chosen.filter(([rule]) => !rule.endsWith(SHORT)));
const clearAtByRuleShort = Object.fromEntries(chosen.filter(([rule]) => rule.endsWith(SHORT)).map(([rule, at]) => [rule.slice(0, -SHORT.length), at]));
const overrulable = [...new Set([...Object.keys(clearAtByRule), ...Object.keys(clearAtByRuleShort)])].sort();
const clearAt = Math.max(0, ...Object.values(clearAtByRule), ...Object.values(clearAtByRuleShort));
const attackOof = oof.filter((_, i) => examples[i]?.label === 1);
const recall = attackOof.filter((s) => s >= flagAt).length / Math.max(1, attackOof.length);

const model = trainLinearModel(examples, options);
const bytes = encodeWeights({ buckets: options.buckets, bias: model.bias, flagAt, greyAt, clearAt, overrulable, clearAtByRule, clearAtByRuleShort, trainedOn: counts }, model.weights);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, bytes);
console.log(
  `train-injection-model: ${examples.length} examples (${Object.entries(counts)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ')}); corpus clean entries weigh ${hardWeight.toFixed(1)}; ${excluded.size} test-split files left out; flagAt ${flagAt.toFixed(3)} greyAt ${greyAt.toFixed(3)} overrules ${overrulable.length} rules below their own scores, up to ${clearAt.toFixed(3)} (out of fold that clears ${clear.clean} of the ${corpusClean} clean entries, at the cost of ${clear.attacks} of ${corpusAttacks} attacks: ${chosen.map(([r, at]) => `${r} ${at}`).join(', ')}); out-of-fold attack recall at flagAt ${(recall * 100).toFixed(1)} %; wrote ${(bytes.length / 1024).toFixed(0)} KB to ${relative(REPO_ROOT, out)}`,
);
