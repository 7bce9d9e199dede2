// Approval detector: precision/recall per split and per category, throughput and per-command latency.
// Run: node --import tsx bench/approvals-detector.ts [repeats]
// The test split is held out: only its aggregate numbers are printed, never its commands or misses.
import { performance } from 'node:perf_hooks';
import { classifyCommand } from '../src/core/safety/approvals/detector.js';
import { CORPUS_CONTEXT, hasSplit, loadCorpus, loadSplit, scoreCorpus, type CorpusEntry } from '../test/fixtures/approval-corpus/corpus.js';

const repeats = Number(process.argv[2] ?? 5);
if (!Number.isInteger(repeats) || repeats < 1) throw new Error(`repeats must be a positive integer (got "${process.argv[2]}")`);

const splits: Array<{ name: string; entries: CorpusEntry[]; listMisses: boolean }> = [];
for (const name of ['dev', 'test'] as const) {
  if (hasSplit(name)) splits.push({ name: `${name} split`, entries: loadSplit(name), listMisses: name === 'dev' });
  else console.log(`${name} split: not present (test/fixtures/approval-corpus/${name}-split.jsonl)`);
}
splits.push({ name: 'old corpus (hardline/dangerous/safe.txt)', entries: loadCorpus(), listMisses: true });

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const classify = (c: string) => classifyCommand(c, CORPUS_CONTEXT);

for (const split of splits) {
  const score = scoreCorpus(split.entries, classify);
  const count = (v: string): number => split.entries.filter((e) => e.expected === v).length;
  console.log(`\n${split.name}: ${split.entries.length} commands (${count('hardline')} hardline, ${count('dangerous')} dangerous, ${count('safe')} safe)`);
  console.log(`  flagged vs safe: precision ${pct(score.precision)}, recall ${pct(score.recall)}, F1 ${pct(score.f1)}, FP rate on safe ${pct(score.falsePositiveRate)}`);
  console.log(`  hardline exactness: precision ${pct(score.hardlinePrecision)}, recall ${pct(score.hardlineRecall)}; verdict misses ${score.misses.length}`);
  const categories = [...new Set(split.entries.map((e) => e.category))].sort();
  for (const category of categories) {
    const entries = split.entries.filter((e) => e.category === category);
    const s = scoreCorpus(entries, classify);
    const exact = entries.length - s.misses.length;
    const line = category.startsWith('safe') || category === 'old-safe'
      ? `FP rate ${pct(s.falsePositiveRate)}`
      : `recall ${pct(s.recall)}${entries.some((e) => e.expected === 'hardline') ? `, hardline recall ${pct(s.hardlineRecall)}` : ''}`;
    console.log(`  ${category.padEnd(18)} n=${String(entries.length).padStart(3)}  exact ${String(exact).padStart(3)}/${entries.length}  ${line}`);
  }
  if (split.listMisses) for (const miss of score.misses) console.log(`  miss ${miss.where} [${miss.category}]: expected ${miss.expected}, got ${miss.actual} (${miss.reasons.join("; ") || "no reason"}): ${JSON.stringify(miss.command)}`);
}

// Throughput over every command of every split.
const commands = splits.flatMap((s) => s.entries.map((e) => e.command));
for (const command of commands) classify(command); // warm up the JIT
const samples: number[] = [];
const started = performance.now();
for (let r = 0; r < repeats; r += 1) {
  for (const command of commands) {
    const t0 = performance.now();
    classify(command);
    samples.push(performance.now() - t0);
  }
}
const elapsedMs = performance.now() - started;
samples.sort((a, b) => a - b);
const percentile = (p: number): number => samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))] ?? NaN;
console.log(`\nthroughput: ${Math.round((samples.length / elapsedMs) * 1000)} commands/s over ${commands.length} commands ×${repeats}`);
console.log(`latency per command: p50 ${(percentile(50) * 1000).toFixed(1)} µs, p95 ${(percentile(95) * 1000).toFixed(1)} µs, max ${(percentile(100) * 1000).toFixed(1)} µs`);
