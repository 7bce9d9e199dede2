/**
 * KV reuse over a 10-turn session through `LocalModel`: prompt tokens per turn vs tokens actually
 * evaluated. Target: evaluated stays flat (≈ the new turns), while the prompt grows with history.
 *
 *   node --import tsx bench/kv-reuse.ts
 *
 * Uses the ~98M bench model (cached in models/) with the default toolset-sized system prompt.
 * Env: BENCH_THREADS (default: defaultLocalThreads()), BENCH_TURNS (10).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultLocalThreads, LocalModel } from '../src/core/local-model/local.js';
import type { ChatMessage, ToolSchema, Usage } from '../src/core/llm/types.js';
import { ensureBenchModel } from './local-throughput.js';

/** Tool schemas shaped like the first toolset, so the fixed prompt has a realistic size. */
const TOOLS: ToolSchema[] = [
  { name: 'read_file', description: 'Read a text file, paged, with line numbers.', parameters: { type: 'object', properties: { path: { type: 'string' }, offset: { type: 'number' }, limit: { type: 'number' } }, required: ['path'] } },
  { name: 'write_file', description: 'Write a file, replacing its content.', parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] } },
  { name: 'terminal', description: 'Run a shell command.', parameters: { type: 'object', properties: { command: { type: 'string' }, timeout: { type: 'number' } }, required: ['command'] } },
];

async function main(): Promise<void> {
  const threads = Number(process.env.BENCH_THREADS ?? defaultLocalThreads());
  const turns = Number(process.env.BENCH_TURNS ?? 10);
  const model = new LocalModel({ modelPath: ensureBenchModel(), threads, gpu: false, contextSize: 4096, maxSessions: 1 });
  const messages: ChatMessage[] = [{ role: 'system', content: 'You are Hearth, a helpful local assistant.' }];
  console.log(`KV reuse over ${turns} turns — threads=${threads}`);
  console.log('turn  inputTokens  Δinput  evaluatedInputTokens  outputTokens  turn ms');
  let previousInput = 0;
  try {
    for (let turn = 1; turn <= turns; turn++) {
      messages.push({ role: 'user', content: `Question number ${turn}: what should I look at next in the project?` });
      let reply = '';
      let usage: Usage | undefined;
      const t0 = performance.now();
      for await (const event of model.stream({ messages, tools: TOOLS, toolChoice: 'none', sessionKey: 'kv-bench', maxTokens: 24, temperature: 0 }, new AbortController().signal)) {
        if (event.type === 'text') reply += event.delta;
        if (event.type === 'usage') usage = event.usage;
      }
      const ms = performance.now() - t0;
      messages.push({ role: 'assistant', content: reply });
      if (!usage) throw new Error(`turn ${turn}: no usage reported`);
      const delta = usage.inputTokens - previousInput;
      previousInput = usage.inputTokens;
      console.log(
        `${String(turn).padStart(4)}  ${String(usage.inputTokens).padStart(11)}  ${String(delta).padStart(6)}  ${String(usage.evaluatedInputTokens).padStart(20)}  ${String(usage.outputTokens).padStart(12)}  ${ms.toFixed(0).padStart(7)}`,
      );
    }
  } finally {
    await model.dispose();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
