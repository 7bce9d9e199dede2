/**
 * Measurements taken inside the page, timed by the page's own clock (`performance.now()`), so nothing of the
 * CDP round trip leaks into them. They are plain JavaScript strings: a transpiled function could carry
 * helpers (esbuild's `__name`) that do not exist in the page.
 *
 * Every probe collects animation frame timestamps (one per frame the browser produced) and long tasks
 * (> 50 ms of main-thread work, from PerformanceObserver); `summarizeFrames` turns them into numbers.
 */

export interface FrameLog {
  /** requestAnimationFrame timestamps, ms. */
  frames: number[];
  longTasks: { start: number; duration: number }[];
}

export interface OpenTiming extends FrameLog {
  clickedAt: number;
  /** The first moment thread rows were in the DOM (a MutationObserver callback right after React's commit). */
  rowsAt: number;
  /** After the frame holding those rows was rendered: a task posted from that frame's rAF callback. */
  paintedAt: number;
  /** The first frame from which the list sat at its end with an unchanged height until the probe stopped. */
  settledAt: number | null;
}

const collectors = `
  const frames = [];
  const longTasks = [];
  const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration }); });
  observer.observe({ type: 'longtask', buffered: false });
  const afterPaint = (fn) => requestAnimationFrame(() => { const ch = new MessageChannel(); ch.port1.onmessage = () => fn(performance.now()); ch.port2.postMessage(0); });
`;

/** Clicks "open" on a session in the Sessions view and times it to the first painted frame of its thread. */
export function openProbe(sessionId: string, settleFrames = 90): string {
  return `(async () => {
    ${collectors}
    const button = document.querySelector('[data-testid=session-item][data-session-id=${JSON.stringify(sessionId)}] [data-testid=session-open]');
    if (!button) throw new Error('no open button for the session');
    const rowsShown = () => document.querySelector('[data-testid=message-list] .message-row');
    return await new Promise((resolve) => {
      let rowsAt = null;
      let paintedAt = null;
      const samples = [];
      const mutations = new MutationObserver(() => {
        if (rowsAt !== null || !rowsShown()) return;
        rowsAt = performance.now();
        mutations.disconnect();
        afterPaint((t) => { paintedAt = t; });
        const sample = (now) => {
          frames.push(now);
          const list = document.querySelector('[data-testid=message-list]');
          samples.push({ now, atEnd: list.scrollHeight - list.scrollTop - list.clientHeight < 2, height: list.scrollHeight });
          if (frames.length < ${settleFrames}) return requestAnimationFrame(sample);
          observer.disconnect();
          let settledAt = null;
          for (let i = samples.length - 1; i >= 1; i--) {
            const s = samples[i];
            if (!s.atEnd || s.height !== samples[samples.length - 1].height) break;
            settledAt = s.now;
          }
          resolve({ clickedAt, rowsAt, paintedAt, settledAt, frames, longTasks });
        };
        requestAnimationFrame(sample);
      });
      mutations.observe(document.body, { childList: true, subtree: true });
      const clickedAt = performance.now();
      button.click();
    });
  })()`;
}

/** Frames of the page doing nothing: the baseline every frame rate here is compared with. */
export function idleProbe(durationMs: number): string {
  return `(async () => {
    ${collectors}
    const start = performance.now();
    await new Promise((resolve) => {
      const step = (now) => { frames.push(now); if (now - start < ${durationMs}) requestAnimationFrame(step); else resolve(); };
      requestAnimationFrame(step);
    });
    observer.disconnect();
    return { frames, longTasks };
  })()`;
}

/**
 * Scrolls the thread the way a trackpad flick does: `step` pixels up every frame from the end for half the
 * time, then a jump to the top (the far end of 10,000 rows at once), then `step` pixels down per frame.
 */
export function scrollProbe(durationMs: number, step: number): string {
  return `(async () => {
    ${collectors}
    const list = document.querySelector('[data-testid=message-list]');
    const start = performance.now();
    let jumped = false;
    let travelled = 0;
    await new Promise((resolve) => {
      const step = (now) => {
        frames.push(now);
        const before = list.scrollTop;
        if (now - start < ${durationMs / 2}) list.scrollTop -= ${step};
        else if (!jumped) { jumped = true; list.scrollTop = 0; }
        else list.scrollTop += ${step};
        travelled += Math.abs(list.scrollTop - before);
        if (now - start < ${durationMs}) requestAnimationFrame(step); else resolve();
      };
      requestAnimationFrame(step);
    });
    observer.disconnect();
    return { frames, longTasks, travelled, rowsInDom: list.querySelectorAll('.message-row').length };
  })()`;
}

/**
 * Sends the composer's text and records frames until the turn is over (the chat is idle again with an
 * answer shown). The streaming window is from the first streamed text on screen to the end of the turn.
 */
export function streamProbe(timeoutMs: number): string {
  return `(async () => {
    ${collectors}
    const view = document.querySelector('[data-testid=chat-view]');
    const answer = () => document.querySelector('[data-testid=message][data-role=assistant]');
    let firstTextAt = null;
    let endedAt = null;
    let left = false;
    const sentAt = performance.now();
    document.querySelector('[data-testid=send]').click();
    await new Promise((resolve, reject) => {
      const step = (now) => {
        frames.push(now);
        if (view.dataset.phase !== 'idle') left = true;
        if (firstTextAt === null && (answer()?.textContent ?? '').length > 0) firstTextAt = now;
        if (left && view.dataset.phase === 'idle') { endedAt = now; return resolve(); }
        if (now - sentAt > ${timeoutMs}) return reject(new Error('the streamed turn did not end in time (phase ' + view.dataset.phase + ')'));
        requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
    observer.disconnect();
    const text = answer()?.textContent ?? '';
    return { frames, longTasks, sentAt, firstTextAt, endedAt, answerChars: text.length, codeBlocks: answer()?.querySelectorAll('pre code').length ?? 0 };
  })()`;
}

export interface FrameSummary {
  fps: number;
  frames: number;
  /** Frame intervals over 20 ms: a vsync (16.7 ms) passed with no new frame. */
  slowFrames: number;
  /** Vsyncs without a frame, counted from each interval's length (a 50 ms gap misses two). */
  missedVsyncs: number;
  p95IntervalMs: number;
  maxIntervalMs: number;
  longTasks: number;
  longTaskMs: number;
}

/** Frame statistics over [from, to] (page clock); everything when no window is given. */
export function summarizeFrames(log: FrameLog, from = -Infinity, to = Infinity): FrameSummary {
  const frames = log.frames.filter((t) => t >= from && t <= to);
  const intervals = frames.slice(1).map((t, i) => t - (frames[i] as number));
  const sorted = [...intervals].sort((a, b) => a - b);
  const span = frames.length > 1 ? (frames[frames.length - 1] as number) - (frames[0] as number) : 0;
  const tasks = log.longTasks.filter((t) => t.start + t.duration >= from && t.start <= to);
  return {
    fps: span > 0 ? (intervals.length / span) * 1000 : 0,
    frames: frames.length,
    slowFrames: intervals.filter((d) => d > 20).length,
    missedVsyncs: intervals.reduce((n, d) => n + Math.max(0, Math.round(d / (1000 / 60)) - 1), 0),
    p95IntervalMs: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0,
    maxIntervalMs: sorted[sorted.length - 1] ?? 0,
    longTasks: tasks.length,
    longTaskMs: tasks.reduce((n, t) => n + t.duration, 0),
  };
}
