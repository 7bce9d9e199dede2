/**
 * Decode throughput of the local model path vs raw node-llama-cpp, same model, same threads.
 *
 *   node --import tsx bench/local-throughput.ts
 *
 * (a) a `LlamaChatSession` in this process; (b) `LocalModel` (model host child process, Hermes
 * prompt, IPC per token); (c) the whole agent path — `AgentHost` with the default toolset in the
 * prompt, the encrypted store writing every message, events through the host's channel — on the same
 * `LocalModel`. Prints tokens/s of each and the ratios against (a) (target for c/a: ≥ 0.95).
 * Env: BENCH_THREADS (default: defaultLocalThreads()), BENCH_MAX_TOKENS (200), BENCH_REPS (3).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getLlama, LlamaChatSession, LlamaLogLevel } from 'node-llama-cpp';
import { defaultLocalThreads, LocalModel } from '../src/core/local-model/local.js';
import type { ModelEvent } from '../src/core/llm/types.js';
import { writeGguf } from '../test/fixtures/gguf/index.js';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentHost } from '../src/core/agent/host.js';
import type { ChatModel } from '../src/core/llm/types.js';
import { ApprovalPolicyBroker } from '../src/core/safety/approvals/policy.js';
import { openDatabase } from '../src/core/store/database.js';
import { migrateStore } from '../src/core/store/migrations.js';
import { SqliteSessionStore } from '../src/core/store/session-store.js';
import { ToolRegistry } from '../src/core/tools/registry.js';
import { buildSystemPrompt } from '../src/core/agent/prompt.js';

export const BENCH_MODEL_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '../models/bench100m.gguf');
/** The system prompt the agent builds (no tools), so every row decodes after a prompt of the same size. */
export const BENCH_SYSTEM = buildSystemPrompt({
  home: tmpdir(),
  workspace: tmpdir(),
  modelId: 'local:bench100m.gguf',
  sessionId: '00000000-000000-000000',
  toolNames: [],
  startedAt: new Date(0),
});
export const BENCH_PROMPT = 'Write a long story about a lighthouse keeper and the sea.';
/** Context window of every row: the prompt and 200 tokens fit with room to spare. */
const BENCH_CONTEXT = 2048;

export interface Throughput {
  tokens: number;
  seconds: number;
  tokensPerSecond: number;
}

/** The ~98M-parameter model, generated once and cached in models/ (git-ignored). */
export function ensureBenchModel(path = BENCH_MODEL_PATH): string {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    const t0 = performance.now();
    const written = writeGguf(path, { preset: 'bench100m' });
    console.log(`generated ${path}: ${(written.parameterCount / 1e6).toFixed(1)}M params, ${(written.bytes / 2 ** 20).toFixed(0)} MiB in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  return path;
}

/**
 * Decode rate of a ModelEvent stream: tokens after the first one, over the time from the first
 * text delta to `done` (prompt evaluation is excluded on both sides of the comparison).
 */
export async function measureModelEvents(run: () => AsyncIterable<ModelEvent>): Promise<Throughput> {
  let first: number | undefined;
  let end = 0;
  let tokens = 0;
  for await (const event of run()) {
    if (event.type === 'text' && first === undefined) first = performance.now();
    if (event.type === 'usage') tokens = event.usage.outputTokens;
    if (event.type === 'done') end = performance.now();
  }
  const seconds = first === undefined ? 0 : (end - first) / 1000;
  return { tokens, seconds, tokensPerSecond: seconds > 0 ? (tokens - 1) / seconds : 0 };
}

/** One way of decoding the bench prompt, measured a repetition at a time so the rows can be interleaved. */
interface Runner {
  label: string;
  once(rep: number): Promise<Throughput>;
  close(): Promise<void>;
}

/** (a) A `LlamaChatSession` in this process. */
async function rawSessionRunner(modelPath: string, threads: number, maxTokens: number): Promise<Runner> {
  const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error, maxThreads: threads });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ contextSize: BENCH_CONTEXT, threads });
  return {
    label: '(a) raw LlamaChatSession',
    async once() {
      const sequence = context.getSequence();
      const session = new LlamaChatSession({ contextSequence: sequence, systemPrompt: BENCH_SYSTEM });
      let first: number | undefined;
      let tokens = 0;
      await session.prompt(BENCH_PROMPT, {
        maxTokens,
        temperature: 0,
        onToken: (chunk) => {
          first ??= performance.now();
          tokens += chunk.length;
        },
      });
      const seconds = first === undefined ? 0 : (performance.now() - first) / 1000;
      session.dispose();
      sequence.dispose();
      return { tokens, seconds, tokensPerSecond: seconds > 0 ? (tokens - 1) / seconds : 0 };
    },
    async close() {
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}

/** (b) `LocalModel`: the model host child process, Hermes prompt, IPC per token. */
function localModelRunner(modelPath: string, threads: number, maxTokens: number): Runner {
  const local = new LocalModel({ modelPath, threads, gpu: false, contextSize: BENCH_CONTEXT, maxSessions: 1 });
  return {
    label: '(b) LocalModel via model host',
    once: (rep) =>
      measureModelEvents(() =>
        local.stream(
          {
            messages: [{ role: 'system', content: BENCH_SYSTEM }, { role: 'user', content: BENCH_PROMPT }],
            tools: [],
            // A fresh session each repetition, like the raw side: the prompt is evaluated every time.
            sessionKey: `bench-${rep}`,
            maxTokens,
            temperature: 0,
          },
          new AbortController().signal,
        ),
      ),
    close: () => local.dispose(),
  };
}

/**
 * (c) Through the agent: AgentHost → runTurn → LocalModel, every message persisted to a real
 * encrypted store, events through the host's channel. No tools are registered: with this test
 * model's one-character-per-token vocabulary the default toolset's schemas alone are ~6.6k tokens,
 * and decoding after a longer prompt is slower for reasons that are not loop overhead. (a) and (b)
 * get the agent's own system prompt and every row the same context size, so all three decode the
 * same way. The only bench-specific piece caps the answer at `maxTokens`, as (a) and (b) are capped.
 */
function agentLoopRunner(modelPath: string, threads: number, maxTokens: number): Runner {
  const local = new LocalModel({ modelPath, threads, gpu: false, contextSize: BENCH_CONTEXT, maxSessions: 1 });
  const capped: ChatModel = { id: local.id, describe: () => local.describe(), stream: (request, signal) => local.stream({ ...request, maxTokens, temperature: 0 }, signal) };
  const home = mkdtempSync(join(tmpdir(), 'hearth-bench-agent-'));
  const db = openDatabase({ path: join(home, 'state.db'), key: randomBytes(32) });
  migrateStore(db);
  const store = new SqliteSessionStore(db);
  const host = new AgentHost({ store, model: capped, tools: new ToolRegistry([]), approvals: new ApprovalPolicyBroker(), home, workspace: home });
  return {
    label: '(c) agent loop (AgentHost + store)',
    async once() {
      const sessionId = host.startSession({ source: 'cli' });
      let first: number | undefined;
      let end = 0;
      let tokens = 0;
      for await (const event of host.send(sessionId, BENCH_PROMPT)) {
        if (event.type === 'text_delta') first ??= performance.now();
        if (event.type === 'usage') tokens = event.outputTokens;
        if (event.type === 'turn_end') end = performance.now();
      }
      const seconds = first === undefined ? 0 : (end - first) / 1000;
      return { tokens, seconds, tokensPerSecond: seconds > 0 ? (tokens - 1) / seconds : 0 };
    },
    async close() {
      await host.close();
      await local.dispose();
      store.close();
    },
  };
}

function summarize(label: string, runs: Throughput[]): number {
  const rates = runs.map((r) => r.tokensPerSecond).sort((x, y) => x - y);
  const median = rates[Math.floor(rates.length / 2)] ?? 0;
  const mean = rates.reduce((a, b) => a + b, 0) / Math.max(1, rates.length);
  console.log(`${label.padEnd(34)} median ${median.toFixed(1).padStart(5)} tok/s  mean ${mean.toFixed(1).padStart(5)}   runs (s): ${runs.map((r) => r.seconds.toFixed(2)).join(', ')}`);
  return median;
}

/**
 * The rows take turns (a b c, b c a, c a b, …) instead of running one block each: on a shared machine the
 * speed drifts by more than the overhead measured (blocks of the same row differed by 15% between runs),
 * and interleaving spreads that drift over every row alike.
 */
async function main(): Promise<void> {
  const threads = Number(process.env.BENCH_THREADS ?? defaultLocalThreads());
  const maxTokens = Number(process.env.BENCH_MAX_TOKENS ?? 200);
  const reps = Number(process.env.BENCH_REPS ?? 5);
  const modelPath = ensureBenchModel();
  console.log(`local decode throughput — ${modelPath}, threads=${threads}, maxTokens=${maxTokens}, context=${BENCH_CONTEXT}, ${reps} interleaved runs after 1 warm-up each`);
  const runners = [await rawSessionRunner(modelPath, threads, maxTokens), localModelRunner(modelPath, threads, maxTokens), agentLoopRunner(modelPath, threads, maxTokens)];
  const results: Throughput[][] = runners.map(() => []);
  try {
    for (const runner of runners) await runner.once(-1);
    for (let rep = 0; rep < reps; rep++) {
      for (let k = 0; k < runners.length; k++) {
        const index = (rep + k) % runners.length;
        results[index]!.push(await runners[index]!.once(rep));
      }
    }
  } finally {
    for (const runner of runners) await runner.close();
  }
  const [raw, host, agent] = runners.map((runner, i) => summarize(runner.label, results[i]!)) as [number, number, number];
  console.log(`median ratio b/a: ${(host / raw).toFixed(3)}   c/a: ${(agent / raw).toFixed(3)} (target ≥ 0.95)`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
