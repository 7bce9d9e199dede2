/**
 * Context compression on a long synthetic conversation: prompt tokens before and after, for windows
 * from 4K to 128K, and the time of the work around the model call (estimate, prune, plan, transcript).
 * The summarising model here answers instantly with a summary of about half its token budget, so the
 * times measure Hearth's own work only. Nothing is asserted (benchmarks are not tests).
 *
 *   node --import tsx bench/compression.ts [--turns 400]
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compressContext } from '../src/core/agent/compression/compress.js';
import { planCompression } from '../src/core/agent/compression/plan.js';
import { pruneToolOutputs } from '../src/core/agent/compression/prune.js';
import { isSummaryMessage } from '../src/core/agent/compression/summary-message.js';
import { SUMMARY_SECTIONS } from '../src/core/agent/compression/summarize.js';
import { estimateTokens, historyTokens, thresholdTokens } from '../src/core/agent/compression/token-estimate.js';
import { chunkForTranscript } from '../src/core/agent/compression/transcript.js';
import { defaultConfig } from '../src/core/config/schema.js';
import type { ChatModel, ChatRequest, ModelEvent } from '../src/core/llm/types.js';
import { generateHistory } from '../test/fixtures/compression-histories.js';
import { seededRandom } from '../src/core/seeded-random.js';

const SYSTEM = 'You are Hearth, a capable assistant running on the user\'s own computer. '.repeat(12);

/** Answers every summary request at once with the sections filled to about half of `maxTokens`. */
const instantSummarizer: ChatModel = {
  id: 'bench:instant',
  describe: () => ({ kind: 'remote', provider: 'bench', model: 'instant', capabilities: { tools: 'none', images: false } }),
  async *stream(request: ChatRequest): AsyncIterable<ModelEvent> {
    const words = Math.floor((request.maxTokens ?? 1_000) / 2 / SUMMARY_SECTIONS.length);
    const text = SUMMARY_SECTIONS.map((s) => `## ${s}\n${'progress noted '.repeat(Math.ceil(words / 2))}`).join('\n\n');
    yield { type: 'text', delta: text };
    yield { type: 'done', finishReason: 'stop' };
  },
};

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export async function runCompressionBench(turns: number): Promise<void> {
  const history = generateHistory(seededRandom(42), { turns, maxOutputChars: 3_000, skillViewChance: 0.01, skillActivationChance: 0.01 });
  const config = defaultConfig().compression;

  let start = process.hrtime.bigint();
  const tokens = estimateTokens(SYSTEM, history);
  const coldMs = ms(start);
  start = process.hrtime.bigint();
  estimateTokens(SYSTEM, [...history, { role: 'user', content: 'one more message' }]);
  const warmMs = ms(start);
  console.log(`history: ${history.length} messages, ${tokens.toLocaleString('en-US')} tokens (reference tokenizer)`);
  console.log(`estimateTokens: ${coldMs.toFixed(1)} ms first call, ${warmMs.toFixed(2)} ms on the next model call (per-message cache)`);
  console.log('\ncontext   threshold   before      after  fits  pruned  summarised  calls  head/summary/skills/tail tokens  prune+plan ms  transcript ms  total ms (no model)');

  for (const contextLength of [4_096, 8_192, 32_768, 131_072]) {
    const threshold = thresholdTokens(contextLength, config.threshold);
    start = process.hrtime.bigint();
    const pruned = pruneToolOutputs(history, { keepLastN: config.protect_last_n });
    const plan = planCompression(pruned.history, { protectFirstN: config.protect_first_n, protectLastN: config.protect_last_n, tailTokenBudget: Math.floor(threshold * config.target_ratio) });
    const planMs = ms(start);
    start = process.hrtime.bigint();
    chunkForTranscript(plan.middle, Math.floor(contextLength * 0.5));
    const transcriptMs = ms(start);
    start = process.hrtime.bigint();
    const result = await compressContext({ model: instantSummarizer, systemPrompt: SYSTEM, history, contextLength, config, signal: new AbortController().signal });
    const totalMs = ms(start);
    const summarised = result.ok ? result.summarizedMessages : 0;
    const parts = [plan.head, result.history.filter(isSummaryMessage), plan.carried, plan.tail].map((p) => historyTokens(p)).join('/');
    const calls = result.ok ? result.summaryCalls : 0;
    console.log(
      `${String(contextLength).padStart(7)} ${String(threshold).padStart(11)} ${String(result.tokensBefore).padStart(8)} ${String(result.tokensAfter).padStart(10)}  ` +
        `${String(result.fits).padEnd(5)} ${String(result.prunedToolOutputs).padStart(6)} ${String(summarised).padStart(11)} ${String(calls).padStart(6)} ${parts.padStart(32)} ` +
        `${planMs.toFixed(1).padStart(14)} ${transcriptMs.toFixed(1).padStart(14)} ${totalMs.toFixed(1).padStart(10)}`,
    );
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--turns');
  await runCompressionBench(at === -1 ? 400 : Number(process.argv[at + 1]));
}
