// The local OpenAI-compatible API's own cost: the official openai client against a scripted model server
// directly, then through the API (a passed-through id), then through the API as hearth-agent (a whole agent
// turn: session, prompt, store writes). Same process, same scripted server, interleaved rounds.
// Run: node --import tsx bench/openai-api.ts [requests]
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import OpenAI from 'openai';
import { openEngine } from '../src/core/engine.js';
import { startApi } from '../src/core/openai-api/server.js';
import { freshHomeEnv } from '../test/fixtures/cli.js';
import { startScriptedOpenAIServer } from '../test/fixtures/scripted-openai-server.js';

const requests = Number(process.argv[2] ?? 200);
if (!Number.isInteger(requests) || requests < 10) throw new Error(`requests must be an integer of at least 10 (got "${process.argv[2]}")`);

const ANSWER = 'A scripted answer of a few dozen characters, streamed in pieces.';
const model = await startScriptedOpenAIServer(() => ({ text: ANSWER, usage: { input: 50, output: 12 } }), { writeDelayMs: 0, chunkChars: 8 });
const env = freshHomeEnv();
const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-bench-api-')));
mkdirSync(join(workspace, '.user-home'));
writeFileSync(
  join(env.HEARTH_HOME as string, 'config.yaml'),
  `version: 1\nmodel:\n  default: scripted:model\nproviders:\n  scripted: { type: openai, base_url: "${model.url}", context_length: 32768 }\nreview:\n  enabled: false\nuser_model:\n  enabled: false\n`,
);
const engine = await openEngine({ env, workspace, userHome: join(workspace, '.user-home') });
const key = 'hearth-bench-key';
const api = await startApi({ engine, apiKey: key, port: 0, approvals: 'deny' });

const direct = new OpenAI({ baseURL: model.url, apiKey: 'unused', maxRetries: 0 });
const viaApi = new OpenAI({ baseURL: api.url, apiKey: key, maxRetries: 0 });
const messages = [{ role: 'user' as const, content: 'Say something.' }];

type Path = { name: string; run: (stream: boolean) => Promise<void> };
const paths: Path[] = [
  { name: 'direct to the model server', run: (stream) => call(direct, 'model', stream) },
  { name: 'API, passed-through id', run: (stream) => call(viaApi, 'scripted:model', stream) },
  { name: 'API, hearth-agent turn', run: (stream) => call(viaApi, 'hearth-agent', stream) },
];

async function call(client: OpenAI, id: string, stream: boolean): Promise<void> {
  if (!stream) {
    const done = await client.chat.completions.create({ model: id, messages });
    if (done.choices[0]?.message.content !== ANSWER) throw new Error(`${id}: unexpected answer ${JSON.stringify(done.choices[0]?.message.content)}`);
    return;
  }
  let text = '';
  for await (const chunk of await client.chat.completions.create({ model: id, messages, stream: true })) text += chunk.choices[0]?.delta.content ?? '';
  if (text !== ANSWER) throw new Error(`${id}: unexpected streamed answer ${JSON.stringify(text)}`);
}

const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

for (const stream of [false, true]) {
  for (const path of paths) for (let i = 0; i < 10; i += 1) await path.run(stream); // warm-up
  const samples = new Map(paths.map((p) => [p.name, [] as number[]]));
  // Interleaved, so drift on a shared machine hits every path alike.
  for (let i = 0; i < requests; i += 1) {
    for (const path of paths) {
      const t0 = performance.now();
      await path.run(stream);
      samples.get(path.name)!.push(performance.now() - t0);
    }
  }
  console.log(`\n${stream ? 'streaming' : 'non-streaming'}, ${requests} requests per path (ms)`);
  const base = [...samples.get(paths[0]!.name)!].sort((a, b) => a - b);
  for (const path of paths) {
    const sorted = [...samples.get(path.name)!].sort((a, b) => a - b);
    const p50 = quantile(sorted, 0.5);
    const p95 = quantile(sorted, 0.95);
    const overhead = path === paths[0] ? '' : `  overhead p50 +${(p50 - quantile(base, 0.5)).toFixed(2)}, p95 +${(p95 - quantile(base, 0.95)).toFixed(2)}`;
    console.log(`  ${path.name.padEnd(28)} p50 ${p50.toFixed(2).padStart(7)}  p95 ${p95.toFixed(2).padStart(7)}${overhead}`);
  }
}
console.log(`\nsessions stored by hearth-agent turns: ${engine.sessions.store.listSessions({ limit: 100_000 }).length}`);

await api.stop();
await engine.dispose();
await model.close();
