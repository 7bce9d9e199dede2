/** Reconnect timing shared by the WhatsApp and Signal adapters. */

/** Exponential backoff with jitter (half to full delay), so many gateways do not reconnect in step. */
export function backoffDelay(attempt: number, retry: { baseMs?: number; maxMs?: number } = {}): number {
  const base = retry.baseMs ?? 1000;
  const cap = retry.maxMs ?? 60_000;
  const full = Math.min(cap, base * 2 ** Math.min(attempt - 1, 30));
  return Math.round(full / 2 + Math.random() * (full / 2));
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

