/**
 * One queue per key (a chat's session): jobs with the same key run one after another in the order they were
 * added; jobs with different keys run side by side. A failing job is reported through `onError` and does not stop
 * the ones behind it.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, { tail: Promise<void>; waiting: number }>();

  constructor(private readonly onError: (key: string, err: unknown) => void) {}

  push(key: string, job: () => Promise<void>): Promise<void> {
    const entry = this.tails.get(key) ?? { tail: Promise.resolve(), waiting: 0 };
    entry.waiting += 1;
    const run = entry.tail.then(async () => {
      try {
        await job();
      } catch (err) {
        this.onError(key, err);
      } finally {
        entry.waiting -= 1;
        if (entry.waiting === 0 && this.tails.get(key) === entry) this.tails.delete(key);
      }
    });
    entry.tail = run;
    this.tails.set(key, entry);
    return run;
  }

  /** Jobs not yet finished under `key`, the running one included. */
  size(key: string): number {
    return this.tails.get(key)?.waiting ?? 0;
  }

  /** Resolves when every job queued so far has finished. */
  async idle(): Promise<void> {
    while (this.tails.size > 0) await Promise.all([...this.tails.values()].map((e) => e.tail));
  }
}
