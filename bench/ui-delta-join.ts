/**
 * Where streamed deltas are joined, without a browser: the real EventHub (engine side) feeding the real chat
 * store (renderer side) through a JSON round trip per message (what the WebSocket and IPC do), with a 60 Hz
 * frame clock driving the store's per-frame batching. A model streams 2,000 tokens/s (a batch every 10 ms,
 * as bench/ui-sse-model.ts paces it) into a thread of 10,000 items. Counted per second of streaming:
 * messages over the transport, store updates (each is one React render of the chat view), and the CPU the
 * whole pipeline used in this process. bench/ui-render.ts measures the same in Chromium, with fps.
 *
 *   node --import tsx bench/ui-delta-join.ts
 *
 * Env: BENCH_JOIN_TOKENS_PER_S (2000), BENCH_JOIN_SECONDS (3), BENCH_JOIN_ITEMS (10000).
 */
import { EventHub } from '../src/core/app/event-hub.js';
import { createChatStore } from '../src/renderer/chat/chat-store.js';
import type { ChatItem } from '../src/renderer/chat/chat-machine.js';
import type { FrameScheduler } from '../src/renderer/chat/frame-batcher.js';
import type { HearthApi, UiEvent } from '../src/shared/contract.js';

const TOKENS_PER_S = Number(process.env.BENCH_JOIN_TOKENS_PER_S ?? 2000);
const SECONDS = Number(process.env.BENCH_JOIN_SECONDS ?? 3);
const ITEMS = Number(process.env.BENCH_JOIN_ITEMS ?? 10_000);
const TICK_MS = 10;

interface Result {
  tokensPerS: number;
  messagesPerS: number;
  rendersPerS: number;
  cpuMsPerS: number;
  chars: number;
}

const noTransport: HearthApi = { invoke: () => Promise.reject(new Error('no calls in this bench')), onEvent: () => () => undefined };

async function run(hubBatchMs: number): Promise<Result> {
  const queue: (() => void)[] = [];
  const frames: FrameScheduler = {
    schedule(flush) {
      queue.push(flush);
      return () => {
        const at = queue.indexOf(flush);
        if (at >= 0) queue.splice(at, 1);
      };
    },
  };
  const vsync = setInterval(() => queue.splice(0).forEach((flush) => flush()), 1000 / 60);
  const store = createChatStore(noTransport, frames);
  const items: ChatItem[] = Array.from({ length: ITEMS }, (_, i) =>
    i % 2 === 0 ? { kind: 'user', key: `u${i}`, text: `question ${i}`, attachments: [] } : { kind: 'assistant', key: `a${i}`, text: `answer ${i} `.repeat(20), reasoning: '', done: true },
  );
  store.setState({ sessionId: 's1', items });
  let messages = 0;
  let renders = 0;
  store.subscribe(() => renders++);
  const hub = new EventHub((err) => {
    throw err;
  }, hubBatchMs);
  hub.on((event) => {
    messages++;
    store.getState().handleEvent(JSON.parse(JSON.stringify(event)) as UiEvent);
  });

  const perTick = (TOKENS_PER_S * TICK_MS) / 1000;
  const ticks = (SECONDS * 1000) / TICK_MS;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (let tick = 0; tick < ticks; tick++) {
    for (let i = 0; i < perTick; i++) hub.emit({ channel: 'agent', sessionId: 's1', event: { type: 'text_delta', delta: 'tok ' } });
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  }
  hub.close();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const cpu = process.cpuUsage(cpuBefore);
  // Per second of wall time: on a loaded machine the 10 ms ticks run late, and the token rate with them.
  const seconds = (performance.now() - started) / 1000;
  clearInterval(vsync);
  const last = store.getState().items.at(-1);
  return {
    tokensPerS: Math.round((ticks * perTick) / seconds),
    messagesPerS: Math.round(messages / seconds),
    rendersPerS: Math.round(renders / seconds),
    cpuMsPerS: Math.round((cpu.user + cpu.system) / 1000 / seconds),
    chars: last?.kind === 'assistant' ? last.text.length : 0,
  };
}

const joined = await run(16);
const perToken = await run(0);
console.log(`delta joining: ${TOKENS_PER_S} tokens/s for ${SECONDS} s into a ${ITEMS}-item thread, 60 Hz frames`);
for (const [label, r] of [['event hub joins per 16 ms (as shipped)', joined], ['event hub off (one message per token)', perToken]] as const) {
  console.log(`  ${label}: ${r.tokensPerS} tokens/s streamed, ${r.messagesPerS} messages/s, ${r.rendersPerS} store updates/s, ${r.cpuMsPerS} ms CPU/s, ${r.chars} chars streamed`);
}
console.log(JSON.stringify({ bench: 'ui-delta-join', tokensPerSecond: TOKENS_PER_S, seconds: SECONDS, items: ITEMS, joined, perToken }));
