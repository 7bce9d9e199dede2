/**
 * The three measurements of the UI benchmark, each driving the page through its real controls and timing
 * it with the probes in ui-page-probes.ts. Each returns the medians of its runs.
 */
import type { Browser, CDPSession, Page } from 'playwright-core';
import { idleProbe, openProbe, scrollProbe, streamProbe, summarizeFrames, type FrameLog, type FrameSummary, type OpenTiming } from './ui-page-probes.js';

export const median = (values: number[]): number => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? NaN : sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const PRECISE = new Set(['rendererCores', 'chromiumCores']);

/** Medians of each field over the runs. */
function medians<T extends object>(rows: T[]): T {
  const first = rows[0];
  if (!first) throw new Error('no runs to summarise');
  return Object.fromEntries(Object.keys(first).map((key) => [key, round(median(rows.map((r) => (r as Record<string, number>)[key] as number)), PRECISE.has(key) ? 3 : 1)])) as T;
}

/**
 * CPU time the browser's processes spent over a stretch (CDP SystemInfo.getProcessInfo), in cores: the
 * renderer (the page's main thread, raster workers) and all of Chromium. Unlike a frame rate it is CPU time,
 * not wall time, so it barely moves when other processes compete for the CPU: it compares two builds on a
 * loaded machine.
 */
export class CpuMeter {
  private constructor(private readonly cdp: CDPSession) {}

  static async attach(browser: Browser): Promise<CpuMeter> {
    return new CpuMeter(await browser.newBrowserCDPSession());
  }

  async measure<T>(work: () => Promise<T>): Promise<{ result: T; rendererCores: number; chromiumCores: number }> {
    const read = async () => {
      const { processInfo } = (await this.cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; cpuTime: number }[] };
      const renderer = processInfo.filter((p) => p.type === 'renderer').reduce((n, p) => n + p.cpuTime, 0);
      return { renderer, all: processInfo.reduce((n, p) => n + p.cpuTime, 0), at: performance.now() };
    };
    const before = await read();
    const result = await work();
    const after = await read();
    const wall = (after.at - before.at) / 1000;
    return { result, rendererCores: (after.renderer - before.renderer) / wall, chromiumCores: (after.all - before.all) / wall };
  }
}

async function openOnce(page: Page, sessionId: string): Promise<OpenTiming> {
  await page.getByTestId('nav-sessions').click();
  await page.locator(`[data-testid=session-item][data-session-id="${sessionId}"] [data-testid=session-open]`).waitFor();
  const timing = (await page.evaluate(openProbe(sessionId))) as OpenTiming;
  await page.waitForTimeout(300); // the previous run's leftover work (GC, idle callbacks) must not land in the next
  return timing;
}

export interface OpenResult {
  firstPaintMs: number;
  rowsInDomMs: number;
  settledAtEndMs: number;
}

/**
 * Opens each session `runs` times, alternating, after one uncounted warm-up each; same page throughout.
 * The last session of the list is left open.
 */
export async function measureOpen(page: Page, sessionIds: string[], runs: number): Promise<OpenResult[]> {
  for (const id of sessionIds) await openOnce(page, id);
  const timings = sessionIds.map((): OpenTiming[] => []);
  for (let run = 0; run < runs; run++) {
    for (const [i, id] of sessionIds.entries()) timings[i]?.push(await openOnce(page, id));
  }
  if (runs === 0) return [];
  return timings.map((list) =>
    medians(list.map((t) => ({ firstPaintMs: t.paintedAt - t.clickedAt, rowsInDomMs: t.rowsAt - t.clickedAt, settledAtEndMs: (t.settledAt ?? NaN) - t.clickedAt }))),
  );
}

export type ScrollResult = FrameSummary & { idleFps: number; travelledPx: number; rowsInDom: number; rendererCores: number; chromiumCores: number };

/** Scrolls the open thread from its end; before each run, 1.5 s of the same page idle is the baseline. */
export async function measureScroll(page: Page, meter: CpuMeter, runs: number, seconds = 4, pxPerFrame = 150): Promise<ScrollResult> {
  const rows: ScrollResult[] = [];
  for (let run = 0; run < runs; run++) {
    await page.evaluate(`(() => { const l = document.querySelector('[data-testid=message-list]'); l.scrollTop = l.scrollHeight; })()`);
    await page.waitForTimeout(300);
    const idle = summarizeFrames((await page.evaluate(idleProbe(1500))) as FrameLog);
    const { result, rendererCores, chromiumCores } = await meter.measure(async () => (await page.evaluate(scrollProbe(seconds * 1000, pxPerFrame))) as FrameLog & { travelled: number; rowsInDom: number });
    rows.push({ ...summarizeFrames(result), idleFps: idle.fps, travelledPx: result.travelled, rowsInDom: result.rowsInDom, rendererCores, chromiumCores });
  }
  return medians(rows);
}

export type StreamResult = FrameSummary & { idleFps: number; seconds: number; answerChars: number; codeBlocks: number; rendererCores: number; chromiumCores: number };

/**
 * A new chat per run, a message sent, the answer streamed by the paced model. Frames are counted from the
 * first streamed text on screen to the end of the turn; 1.5 s of the idle chat just before is the baseline.
 */
export async function measureStream(page: Page, meter: CpuMeter, runs: number, timeoutMs: number): Promise<StreamResult> {
  const rows: StreamResult[] = [];
  for (let run = 0; run < runs; run++) {
    await page.getByTestId('nav-chat').click();
    await page.getByTestId('new-chat').click();
    await page.getByTestId('composer-input').fill('Explain the build pipeline, with code.');
    const idle = summarizeFrames((await page.evaluate(idleProbe(1500))) as FrameLog);
    // CPU is counted over the whole probe (send → turn end), a little more than the frames counted.
    const { result, rendererCores, chromiumCores } = await meter.measure(
      async () => (await page.evaluate(streamProbe(timeoutMs))) as FrameLog & { firstTextAt: number | null; endedAt: number; answerChars: number; codeBlocks: number },
    );
    const from = result.firstTextAt ?? result.endedAt;
    rows.push({ ...summarizeFrames(result, from, result.endedAt), idleFps: idle.fps, seconds: (result.endedAt - from) / 1000, answerChars: result.answerChars, codeBlocks: result.codeBlocks, rendererCores, chromiumCores });
  }
  return medians(rows);
}
