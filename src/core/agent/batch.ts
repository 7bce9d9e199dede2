import type { ToolContext } from '../tools/define.js';
import { pathsOverlap } from '../tools/tool-paths.js';
import type { PreparedCall } from './execute-call.js';

export const MAX_PARALLEL_CALLS = 8;

/**
 * Whether the calls of one response may run concurrently (PARITY §1): only if every runnable call's
 * tool is parallel-safe, none is `clarify` (it waits on a human), and no two calls touch overlapping
 * paths (the same file, or a directory and something inside it). Calls that already failed
 * validation do not run, so they cannot conflict with anything.
 */
export function canRunInParallel(calls: readonly PreparedCall[], ctx: Pick<ToolContext, 'workspace' | 'state'>): boolean {
  const runnable = calls.filter((c) => c.tool !== undefined);
  if (runnable.length < 2) return false;
  if (runnable.some((c) => c.tool?.name === 'clarify' || c.tool?.parallelSafe !== true)) return false;
  const pathsPerCall = runnable.map((c) => c.tool?.paths?.(c.input, ctx) ?? []);
  for (let i = 0; i < pathsPerCall.length; i += 1) {
    for (let j = i + 1; j < pathsPerCall.length; j += 1) {
      if ((pathsPerCall[i] ?? []).some((a) => (pathsPerCall[j] ?? []).some((b) => pathsOverlap(a, b)))) return false;
    }
  }
  return true;
}

/**
 * Runs `calls` (concurrently up to `maxConcurrency`, or one at a time) and hands each result to
 * `deliver` strictly in the original call order, whatever order they finish in: the tool messages of
 * a response must follow its tool calls in order, and each is persisted the moment it can be.
 */
export async function runInOrder<R>(
  count: number,
  parallel: boolean,
  maxConcurrency: number,
  run: (index: number) => Promise<R>,
  deliver: (index: number, result: R) => Promise<void>,
): Promise<void> {
  if (!parallel) {
    for (let i = 0; i < count; i += 1) await deliver(i, await run(i));
    return;
  }
  const results = new Map<number, R>();
  let nextToDeliver = 0;
  let nextToStart = 0;
  // Delivery is chained so `deliver` never runs twice at once and order holds even if it is slow.
  let delivering: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => {
    delivering = delivering.then(async () => {
      while (results.has(nextToDeliver)) {
        const result = results.get(nextToDeliver) as R;
        results.delete(nextToDeliver);
        await deliver(nextToDeliver, result);
        nextToDeliver += 1;
      }
    });
    return delivering;
  };
  const worker = async (): Promise<void> => {
    while (nextToStart < count) {
      const index = nextToStart;
      nextToStart += 1;
      results.set(index, await run(index));
      await flush();
    }
  };
  await Promise.all(Array.from({ length: Math.min(maxConcurrency, count) }, () => worker()));
  await flush();
}
