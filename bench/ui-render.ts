/**
 * The desktop UI in real Chromium against the real `hearth serve` stack (engine, encrypted store, web server,
 * a paced OpenAI-compatible model over SSE). Targets from issue 4: open < 1 s, ≥ 55 fps.
 *
 *   open    a 10,000-message session from the Sessions view: click → the first frame showing its rows has
 *           been rendered (baseline: a 100-message session, same page)
 *   scroll  fling through that thread: 150 px per frame up from the end, a jump to the top, down again
 *           (baseline: the same page idle)
 *   stream  a real chat turn: the model streams 2,000 tokens/s (one SSE chunk per token, a batch every
 *           10 ms) of markdown with code for 5 s (baseline: the chat idle just before). Run twice: as
 *           `hearth serve` sends it (deltas joined per 16 ms by the app service's event hub), and with one
 *           WebSocket frame per token (joining off), which shows what the joining is worth.
 *
 *   npx vite build && node --import tsx bench/ui-render.ts
 *
 * Env: BENCH_UI_RUNS (5), BENCH_UI_ONLY (open,scroll,stream), BENCH_UI_MESSAGES (10000),
 * BENCH_UI_TOKENS_PER_S (2000), BENCH_UI_STREAM_S (5), HEARTH_RENDERER_DIR (dist/renderer), HEARTH_CHROMIUM.
 */
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { launchBenchChromium } from './ui-chromium.js';
import { startHearthUnderTest } from './ui-hearth-server.js';
import { CpuMeter, measureOpen, measureScroll, measureStream, median, round, type OpenResult, type ScrollResult, type StreamResult } from './ui-phases.js';
import { streamedAnswer } from './ui-session-corpus.js';

const RUNS = Number(process.env.BENCH_UI_RUNS ?? 5);
const ONLY = new Set((process.env.BENCH_UI_ONLY ?? 'open,scroll,stream').split(','));
const MESSAGES = Number(process.env.BENCH_UI_MESSAGES ?? 10_000);
const TOKENS_PER_S = Number(process.env.BENCH_UI_TOKENS_PER_S ?? 2000);
const STREAM_S = Number(process.env.BENCH_UI_STREAM_S ?? 5);
const CHARS_PER_TOKEN = 4;
const RENDERER_DIR = process.env.HEARTH_RENDERER_DIR ?? fileURLToPath(new URL('../dist/renderer', import.meta.url));
const TARGET = { openMs: 1000, fps: 55 };
const BIG = 'Benchmark: long thread';
const SMALL = 'Benchmark: short thread';

function printOpen(label: string, r: OpenResult): void {
  console.log(`  ${label}: first paint ${r.firstPaintMs} ms (rows in DOM ${r.rowsInDomMs} ms, settled at the end ${r.settledAtEndMs} ms)`);
}

function printFrames(label: string, r: ScrollResult | StreamResult): void {
  console.log(
    `  ${label}: ${r.fps} fps (idle ${r.idleFps} → ${round(r.fps / r.idleFps, 3)}), ${r.slowFrames} of ${r.frames} frames > 20 ms, ` +
      `${r.missedVsyncs} missed vsyncs, p95 ${r.p95IntervalMs} ms, max ${r.maxIntervalMs} ms, long tasks ${r.longTasks} (${r.longTaskMs} ms); ` +
      `CPU: renderer ${r.rendererCores} cores, all of Chromium ${r.chromiumCores} cores`,
  );
}

async function main(): Promise<void> {
  const hearth = await startHearthUnderTest({
    rendererDir: RENDERER_DIR,
    sessions: [
      { title: SMALL, messages: 100 },
      { title: BIG, messages: MESSAGES },
    ],
    model: { answer: streamedAnswer(TOKENS_PER_S * STREAM_S * CHARS_PER_TOKEN), maxTokens: TOKENS_PER_S * STREAM_S, tokensPerSecond: TOKENS_PER_S, charsPerToken: CHARS_PER_TOKEN, tickMs: 10 },
  });
  const browser = await launchBenchChromium();
  const problems: string[] = [];
  const results: Record<string, unknown> = {};
  try {
    console.log(`UI benchmark: ${cpus().length} CPU cores (${cpus()[0]?.model ?? 'unknown'}, load average ${loadavg()[0]?.toFixed(1)} at start, shared with whatever else runs), headless Chromium ${browser.version()}, software rendering, no CPU throttling`);
    console.log(`store seeded with ${MESSAGES} + 100 messages in ${hearth.seedSeconds.toFixed(1)} s; ${RUNS} runs of each, medians\n`);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(String(e)));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`HTTP ${r.status()} ${new URL(r.url()).pathname}`);
    });
    const meter = await CpuMeter.attach(browser);
    await page.goto(hearth.url);
    await page.getByTestId('nav-sessions').waitFor();
    const bigId = hearth.sessions.get(BIG) as string;
    const smallId = hearth.sessions.get(SMALL) as string;

    if (ONLY.has('open') || ONLY.has('scroll')) {
      const [small, big] = await measureOpen(page, [smallId, bigId], ONLY.has('open') ? RUNS : 0);
      if (ONLY.has('open') && big && small) {
        console.log('open: click on the session in the Sessions view → the frame holding its first rows has been rendered');
        printOpen(`${MESSAGES} messages`, big);
        printOpen('100 messages', small);
        console.log(`  long/short: ${round(big.firstPaintMs / small.firstPaintMs, 2)}×`);
        results.open = { big, small, pass: big.firstPaintMs < TARGET.openMs };
      }
    }
    if (ONLY.has('scroll')) {
      // measureOpen ends on the long thread (the last one opened), which is what is scrolled.
      const scroll = await measureScroll(page, meter, RUNS);
      console.log(`scroll: ${MESSAGES}-message thread, 150 px per frame for 4 s with a jump to the top (${scroll.travelledPx} px, ${scroll.rowsInDom} rows in the DOM)`);
      printFrames('scroll', scroll);
      results.scroll = { ...scroll, pass: scroll.fps >= TARGET.fps };
    }
    if (ONLY.has('stream')) {
      console.log(`stream: ${TOKENS_PER_S} tokens/s for ${STREAM_S} s into a new chat`);
      const timeoutMs = STREAM_S * 1000 * 6;
      const shipped = await measureStream(page, meter, RUNS, timeoutMs);
      const served = hearth.model.streams.map((s) => ({ tokens: s.tokens, seconds: ((s.endedAt ?? NaN) - s.startedAt) / 1000 }));
      console.log(`  the model sent ${median(served.map((s) => s.tokens))} tokens in ${round(median(served.map((s) => s.seconds)), 2)} s; ${shipped.answerChars} chars and ${shipped.codeBlocks} code blocks on screen`);
      printFrames('deltas joined per 16 ms (as shipped)', shipped);
      await page.goto(hearth.perTokenUrl);
      await page.getByTestId('nav-sessions').waitFor();
      const perToken = await measureStream(page, meter, RUNS, timeoutMs);
      printFrames('one WebSocket frame per token (joining off)', perToken);
      console.log(`  shipped/per-token fps: ${round(shipped.fps / perToken.fps, 2)}×`);
      results.stream = { ...shipped, pass: shipped.fps >= TARGET.fps, perToken: { ...perToken, pass: perToken.fps >= TARGET.fps } };
    }
    if (problems.length > 0) console.log(`page errors/warnings (${problems.length}): ${[...new Set(problems)].slice(0, 5).join(' | ')}`);
    console.log(JSON.stringify({ bench: 'ui-render', cpuCores: cpus().length, runs: RUNS, messages: MESSAGES, tokensPerSecond: TOKENS_PER_S, targets: TARGET, ...results, pageProblems: problems.length }));
  } finally {
    await browser.close();
    await hearth.close();
  }
}

await main();
