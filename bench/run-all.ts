/**
 * `npm run bench`: every benchmark, one after another, each printing its own numbers and ratios.
 * Nothing is asserted (STYLE.md: benchmarks are not tests).
 *
 *   npm run bench                          # all, store at 100k and 1M messages (the 1M build takes minutes)
 *   BENCH_STORE_SIZES=100000 npm run bench # a quicker store run
 *   BENCH_UI=1 npm run bench               # also the desktop UI in Chromium (needs `npx vite build` first)
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runPromptOverheadBench } from './prompt-overhead.js';

const here = dirname(fileURLToPath(import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

function runScript(title: string, file: string, args: string[] = []): void {
  console.log(`\n## ${title}`);
  const result = spawnSync(process.execPath, ['--import', tsx, join(here, file), ...args], { stdio: 'inherit' });
  if (result.status !== 0) console.log(`(${file} exited with ${result.status ?? result.signal}; see its output above)`);
}

await runPromptOverheadBench();
runScript('Loop overhead: decode tokens/s, raw node-llama-cpp vs model host vs agent loop', 'local-throughput.ts');
runScript('KV reuse: prompt tokens evaluated per turn over a 10-turn session', 'kv-reuse.ts');
runScript('Store: insert throughput and session search latency', 'store.ts', ['--sizes', process.env.BENCH_STORE_SIZES ?? '100000,1000000']);
runScript('Skills: catalog cost with 0, 20 and 200 skills', 'skills-prompt.ts');
runScript('Skills: retrieval top-1/top-5 over 200 generated skills', 'skills-retrieval.ts');
runScript('Compression: tokens before/after and planning time', 'compression.ts');
runScript('Session search: LoCoMo evidence recall@k', 'locomo.ts', [process.env.LOCOMO_DIR ?? join(here, '..', '..', 'shared', 'benchmarks', 'locomo')]);
runScript('Embeddings: throughput and query latency', 'embeddings.ts');
runScript('Approvals: detector precision/recall on the corpus and commands/s', 'approvals-detector.ts');
runScript('Injection scanning: precision/recall on the corpus and MB/s', 'injection-scan.ts');
runScript('Docker backend: exec round trip vs raw dockerode (starts its own dockerd; needs root)', 'docker-exec.ts');
// Last and opt-in: it needs the built renderer and Debian's Chromium, and its frame rates suffer from
// anything else running, so it is best run on its own.
if (process.env.BENCH_UI === '1') runScript('Desktop UI in Chromium: open a 10,000-message session, scroll it, stream 2,000 tokens/s', 'ui-render.ts');
