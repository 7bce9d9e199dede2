/**
 * What both hosts (chat model, embedding) need so a load, unload or shutdown never races the work on
 * the model it replaces: a lock that lifecycle steps take in arrival order, and a register of the
 * requests in flight that an unload can stop and wait for before it disposes anything.
 */

/** Lifecycle steps run one at a time, in arrival order; a failing step is reported and the lock carries on. */
export class LifecycleLock {
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly onStepError: (err: unknown) => void) {}

  run(step: () => Promise<void>): Promise<void> {
    this.tail = this.tail.then(step).catch(this.onStepError);
    return this.tail;
  }

  /**
   * Resolves once every step that arrived so far has run. A request awaits this before touching the
   * model, then marks itself started in the same tick (see `InFlight.start`), so a step that arrives
   * after it sees it as started.
   */
  get idle(): Promise<void> {
    return this.tail;
  }
}

export interface InFlightRequest {
  readonly controller: AbortController;
  /** Past the lifecycle gate and working on the loaded model: an unload must stop it and wait for it. */
  started: boolean;
  /** The model is going away under it: it ends with `not_loaded`, not as if the user had stopped it. */
  unloading: boolean;
}

interface Entry extends InFlightRequest {
  settled: Promise<void>;
  settle: () => void;
}

/** The requests a host has accepted and not yet finished, by request id. */
export class InFlight {
  private readonly entries = new Map<string, Entry>();

  has(requestId: string): boolean {
    return this.entries.has(requestId);
  }

  get size(): number {
    return this.entries.size;
  }

  abort(requestId: string): void {
    this.entries.get(requestId)?.controller.abort();
  }

  /** Register a request; `finish` (call it once, in a `finally`) marks it settled. */
  add(requestId: string): { request: InFlightRequest; finish: () => void } {
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    const entry: Entry = { controller: new AbortController(), started: false, unloading: false, settled, settle };
    this.entries.set(requestId, entry);
    return {
      request: entry,
      finish: () => {
        if (this.entries.get(requestId) === entry) this.entries.delete(requestId);
        entry.settle();
      },
    };
  }

  /** Abort every started request (marking it as stopped by an unload unless the user already aborted it) and wait until each has finished. */
  async stopStarted(): Promise<void> {
    const started = [...this.entries.values()].filter((e) => e.started);
    for (const entry of started) {
      if (!entry.controller.signal.aborted) entry.unloading = true;
      entry.controller.abort();
    }
    await Promise.all(started.map((e) => e.settled));
  }
}
