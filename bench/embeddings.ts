/**
 * The semantic search path: embedding throughput and query latency.
 *
 *   node --import tsx bench/embeddings.ts
 *
 * (1) texts/s embedding chat-sized messages: raw node-llama-cpp embedding context in this process vs
 *     `LocalEmbedder` (embedding host child process, IPC, normalisation), same model and threads.
 * (2) `EmbeddingIndex.query` latency over N stored vectors in a real encrypted store: total, and the
 *     part spent embedding the query vs scanning the stored vectors (brute force).
 * Model: the generated ~98M-parameter llama GGUF (768 dimensions, the size of common embedding
 * models); random weights, so the numbers are cost, not quality.
 * Env: BENCH_THREADS (default: defaultLocalThreads()), BENCH_TEXTS (30), BENCH_VECTORS (10000; a
 * comma list for several sizes), BENCH_QUERIES (10).
 */
import { getLlama, LlamaLogLevel } from 'node-llama-cpp';
import { createLocalEmbedder, type LocalEmbedder } from '../src/core/local-model/local-embedder.js';
import { defaultLocalThreads } from '../src/core/local-model/local.js';
import { EmbeddingIndex } from '../src/core/search/embedding-index.js';
import { encodeVector } from '../src/core/search/vectors.js';
import type { Embedder } from '../src/core/llm/embedder.js';
import type { NewMessage } from '../src/core/store/types.js';
import { seededRandom } from '../src/core/seeded-random.js';
import { createTempStore } from '../test/fixtures/temp-store.js';
import { ensureBenchModel } from './local-throughput.js';

const WORDS = 'the deploy docs staging database moved Frankfurt release prefer short answers build failed runner arm64 test flaky rotation Monday repository pnpm remember never push Friday invoice customer schedule meeting notes config model memory skill session'.split(' ');

/** Chat-sized messages (15–60 words), deterministic. */
function messages(count: number, seed: number): string[] {
  const rand = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const length = 15 + Math.floor(rand() * 45);
    return Array.from({ length }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
  });
}

async function rawTextsPerSecond(modelPath: string, threads: number, texts: string[]): Promise<number> {
  const llama = await getLlama({ build: 'never', gpu: false, maxThreads: threads, logLevel: LlamaLogLevel.warn });
  const model = await llama.loadModel({ modelPath, gpuLayers: 0 });
  const context = await model.createEmbeddingContext({ contextSize: 512, batchSize: 512, threads });
  try {
    await context.getEmbeddingFor('warm up');
    const t0 = performance.now();
    for (const text of texts) await context.getEmbeddingFor(text);
    return texts.length / ((performance.now() - t0) / 1000);
  } finally {
    await context.dispose();
    await model.dispose();
    await llama.dispose();
  }
}

async function hostTextsPerSecond(embedder: LocalEmbedder, texts: string[]): Promise<number> {
  await embedder.embed(['warm up']);
  const t0 = performance.now();
  await embedder.embed(texts);
  return texts.length / ((performance.now() - t0) / 1000);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Fill a fresh store with `count` messages and random unit vectors (scan cost does not depend on the values). */
async function queryLatency(embedder: LocalEmbedder, count: number, queries: number): Promise<void> {
  const temp = createTempStore('hearth-bench-embed-');
  try {
    const store = temp.open();
    const dimensions = await embedder.dimensions();
    const rand = seededRandom(7);
    const session = store.createSession({ source: 'cli', model: 'bench' });
    // Rows go in under the index's own key (the embedder id plus its dimensions), as indexPending would write them.
    const key = await new EmbeddingIndex(store.db, embedder).storageKey();
    const fillStart = performance.now();
    const insert = store.db.prepare('INSERT INTO message_embeddings (message_id, model, vector) VALUES (?, ?, ?)');
    const texts = messages(count, 11);
    for (let start = 0; start < count; start += 1000) {
      const batch: NewMessage[] = texts.slice(start, start + 1000).map((content) => ({ role: 'user', content }));
      const stored = store.appendMessages(session.id, batch);
      store.db.transaction(() => {
        for (const m of stored) {
          const v = new Float32Array(dimensions).map(() => rand() * 2 - 1);
          const norm = Math.hypot(...v);
          insert.run(m.id, key, encodeVector(v.map((x) => x / norm)));
        }
      })();
    }
    const fillSeconds = (performance.now() - fillStart) / 1000;

    // The scan alone: the query's vector is computed first and memoised, so `query` times only the scan.
    const memo = new Map<string, Float32Array>();
    const memoised: Embedder = {
      id: embedder.id,
      dimensions: () => embedder.dimensions(),
      embed: (queryTexts) => Promise.resolve(queryTexts.map((t) => memo.get(t) as Float32Array)),
      dispose: () => Promise.resolve(),
    };
    const index = new EmbeddingIndex(store.db, memoised);
    const embeds: number[] = [];
    const scans: number[] = [];
    for (const q of messages(queries, 99)) {
      const t0 = performance.now();
      const [vector] = await embedder.embed([q]);
      const t1 = performance.now();
      memo.set(q, vector as Float32Array);
      const hits = await index.query(q, 50);
      const t2 = performance.now();
      if (hits.length !== 50) throw new Error(`expected 50 hits, got ${hits.length}`);
      embeds.push(t1 - t0);
      scans.push(t2 - t1);
    }
    scans.sort((a, b) => a - b);
    embeds.sort((a, b) => a - b);
    console.log(
      `${String(count).padStart(7)} vectors × ${dimensions}: scan p50 ${percentile(scans, 50).toFixed(1)} ms, p95 ${percentile(scans, 95).toFixed(1)} ms; ` +
        `embedding the query p50 ${percentile(embeds, 50).toFixed(1)} ms (filled in ${fillSeconds.toFixed(1)} s)`,
    );
  } finally {
    temp.cleanup();
  }
}

async function main(): Promise<void> {
  const threads = Number(process.env.BENCH_THREADS ?? defaultLocalThreads());
  const textCount = Number(process.env.BENCH_TEXTS ?? 30);
  const sizes = (process.env.BENCH_VECTORS ?? '10000').split(',').map(Number);
  const queries = Number(process.env.BENCH_QUERIES ?? 10);
  const modelPath = ensureBenchModel();
  const texts = messages(textCount, 1);
  console.log(`embeddings — ${modelPath}, threads=${threads}, ${textCount} chat-sized texts`);

  const embedder = createLocalEmbedder({ modelPath, threads });
  try {
    const startT0 = performance.now();
    await embedder.dimensions();
    console.log(`embedding host start + model load: ${((performance.now() - startT0) / 1000).toFixed(2)} s`);
    const host = await hostTextsPerSecond(embedder, texts);
    const raw = await rawTextsPerSecond(modelPath, threads, texts);
    console.log(`(a) raw embedding context, in process  ${raw.toFixed(1).padStart(7)} texts/s`);
    console.log(`(b) LocalEmbedder via embedding host    ${host.toFixed(1).padStart(7)} texts/s   ratio b/a ${(host / raw).toFixed(3)}`);
    for (const size of sizes) await queryLatency(embedder, size, queries);
  } finally {
    await embedder.dispose();
  }
}

await main();
