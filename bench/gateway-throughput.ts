// Gateway throughput: 100 chats × 10 messages through the gateway (real engine, encrypted store file, scripted
// OpenAI-compatible model over HTTP, an in-process adapter), checking every message is answered once and in order
// per chat. Per-message time through the gateway is set against the same turns run straight on the AgentHost in the
// same process (the model's and the engine's own time), so the difference is what the gateway adds.
// Run: node --import tsx bench/gateway-throughput.ts [chats] [messages]
import { performance } from 'node:perf_hooks';
import { dm, lastUserText, startGatewayHarness } from '../test/fixtures/gateway/harness.js';
import type { ChatOp } from '../test/fixtures/gateway/test-adapter.js';

const chats = Number(process.argv[2] ?? 100);
const perChat = Number(process.argv[3] ?? 10);
if (!Number.isInteger(chats) || chats < 1 || !Number.isInteger(perChat) || perChat < 1) throw new Error('usage: gateway-throughput.ts [chats] [messages per chat]');

const users = Array.from({ length: chats }, (_, i) => `u${i}`);
const allowed = `  telegram:\n    allowed_users: [${users.map((u) => JSON.stringify(u)).join(', ')}]\n`;
// Telegram's limits, but edits every 50 ms: the scripted answers are short and end before a 1 s edit would fire.
const h = await startGatewayHarness((request) => ({ text: `echo:${lastUserText(request)}` }), {
  gatewayConfig: allowed,
  limits: { maxMessageChars: 4096, canEdit: true, minEditIntervalMs: 50, hasButtons: true },
});

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const ms = (x: number): string => `${x.toFixed(1)} ms`;

try {
  // Baseline: the same turns straight on the host, chats side by side, each chat's turns one after another. Run
  // before and after the gateway phase (after a warm-up), so start-up costs and drift fall on neither side alone.
  const { host } = h.engine.sessions;
  const directRun = async (label: string, count: number, turns: number): Promise<{ times: number[]; wall: number }> => {
    const times: number[] = [];
    const start = performance.now();
    await Promise.all(
      Array.from({ length: count }, async (_, c) => {
        const sessionId = host.startSession({ source: 'gateway' });
        for (let n = 0; n < turns; n++) {
          const started = performance.now();
          for await (const event of host.send(sessionId, `${label}-${c}-${n}`)) void event;
          times.push(performance.now() - started);
        }
      }),
    );
    return { times, wall: performance.now() - start };
  };
  await directRun('warmup', Math.min(chats, 10), 3);
  const before = await directRun('direct-a', chats, perChat);
  // Through the gateway: every message delivered at once; a chat's answers must come back in order.
  const finished = new Map<string, number[]>();
  const delivered = new Map<string, number>();
  const adapter = h.adapter;
  const record = adapter.ops.push.bind(adapter.ops);
  adapter.ops.push = (...ops: ChatOp[]): number => {
    for (const op of ops) if (op.op === 'send' || op.op === 'edit') (finished.get(op.chatId) ?? finished.set(op.chatId, []).get(op.chatId)!).push(performance.now());
    return record(...ops);
  };
  const gatewayStart = performance.now();
  for (const user of users) {
    delivered.set(`chat-${user}`, performance.now());
    for (let n = 0; n < perChat; n++) await adapter.deliver(dm(user, `${user}-m${n}`));
  }
  await h.gateway.idle();
  const gatewayWall = performance.now() - gatewayStart;
  const after = await directRun('direct-b', chats, perChat);
  const direct = [...before.times, ...after.times];
  const directWall = (before.wall + after.wall) / 2;

  // Checks: all answered, once, in order per chat.
  let problems = 0;
  for (const user of users) {
    const shown = adapter.shown(`chat-${user}`).map((m) => m.text);
    const expected = Array.from({ length: perChat }, (_, n) => `echo:${user}-m${n}`);
    if (JSON.stringify(shown) !== JSON.stringify(expected)) {
      problems += 1;
      if (problems <= 3) console.log(`chat-${user}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(shown)}`);
    }
  }
  // Per message through the gateway: from the chat's previous answer (or its delivery) to this answer's last write.
  const service: number[] = [];
  for (const user of users) {
    const chatId = `chat-${user}`;
    const sends = adapter.ops.filter((o) => o.chatId === chatId && (o.op === 'send' || o.op === 'edit'));
    const times = finished.get(chatId) ?? [];
    let previous = delivered.get(chatId) ?? gatewayStart;
    // The last write of each answer: a send is followed by its edits; the next send starts the next answer.
    const ends: number[] = [];
    sends.forEach((op, i) => {
      const next = sends[i + 1];
      if (next === undefined || next.op === 'send') ends.push(times[i] ?? Number.NaN);
    });
    for (const end of ends) {
      service.push(end - previous);
      previous = end;
    }
  }
  const messages = chats * perChat;
  console.log(`gateway throughput: ${chats} chats × ${perChat} messages = ${messages} messages`);
  console.log(`  answered in order, once each: ${problems === 0 ? 'yes' : `NO (${problems} chats wrong)`}; model requests through the gateway ${h.server.requests.filter((r) => /^u\d+-m\d+/.test(lastUserText(r))).length} (${messages} expected)`);
  console.log(`  direct on AgentHost (mean of the runs before and after): wall ${ms(directWall)}, per turn p50 ${ms(percentile(direct, 50))}, p95 ${ms(percentile(direct, 95))}`);
  console.log(`  through the gateway: wall ${ms(gatewayWall)} (${(messages / (gatewayWall / 1000)).toFixed(0)} messages/s), per message p50 ${ms(percentile(service, 50))}, p95 ${ms(percentile(service, 95))}`);
  console.log(`  gateway overhead per message: p50 ${ms(percentile(service, 50) - percentile(direct, 50))}, p95 ${ms(percentile(service, 95) - percentile(direct, 95))} (ratio p50 ${(percentile(service, 50) / percentile(direct, 50)).toFixed(2)}×)`);
  if (h.warnings.length > 0) console.log(`  warnings: ${h.warnings.length} (first: ${h.warnings[0] ?? ''})`);
  process.exitCode = problems === 0 ? 0 : 1;
} finally {
  await h.close();
}
