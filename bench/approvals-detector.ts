// Approval detector: throughput and per-command latency over the hand-written corpus, and its
// precision/recall. Run: node --import tsx bench/approvals-detector.ts [repeats]
import { performance } from 'node:perf_hooks';
import { classifyCommand } from '../src/core/safety/approvals/detector.js';
import { CORPUS_CONTEXT, loadCorpus, scoreCorpus } from '../test/fixtures/approval-corpus/corpus.js';

const repeats = Number(process.argv[2] ?? 20);
if (!Number.isInteger(repeats) || repeats < 1) throw new Error(`repeats must be a positive integer (got "${process.argv[2]}")`);

const entries = loadCorpus();
const commands = entries.map((e) => e.command);

// Warm up the JIT so the first measured pass is not mostly compilation.
for (const command of commands) classifyCommand(command, CORPUS_CONTEXT);

const samples: number[] = [];
const started = performance.now();
for (let r = 0; r < repeats; r += 1) {
  for (const command of commands) {
    const t0 = performance.now();
    classifyCommand(command, CORPUS_CONTEXT);
    samples.push(performance.now() - t0);
  }
}
const elapsedMs = performance.now() - started;
samples.sort((a, b) => a - b);
const percentile = (p: number): number => samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))] ?? NaN;

const withContext = scoreCorpus(entries, (c) => classifyCommand(c, CORPUS_CONTEXT));
const withoutContext = scoreCorpus(entries, (c) => classifyCommand(c));
const count = (v: string): number => entries.filter((e) => e.expected === v).length;
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

console.log(`corpus: ${entries.length} commands (${count('hardline')} hardline, ${count('dangerous')} dangerous, ${count('safe')} safe), ×${repeats}`);
console.log(`throughput: ${Math.round((samples.length / elapsedMs) * 1000)} commands/s`);
console.log(`latency per command: p50 ${(percentile(50) * 1000).toFixed(1)} µs, p95 ${(percentile(95) * 1000).toFixed(1)} µs, max ${(percentile(100) * 1000).toFixed(1)} µs`);
for (const [label, score] of [
  ['with workspace context', withContext],
  ['without context (relative deletes count as outside)', withoutContext],
] as const) {
  console.log(`${label}:`);
  console.log(`  dangerous-or-hardline vs safe: precision ${pct(score.precision)}, recall ${pct(score.recall)}, F1 ${pct(score.f1)}`);
  console.log(`  hardline exactness: precision ${pct(score.hardlinePrecision)}, recall ${pct(score.hardlineRecall)}; misses ${score.misses.length}`);
}
for (const miss of withContext.misses) console.log(`  miss ${miss.where}: expected ${miss.expected}, got ${miss.actual}: ${miss.command}`);
