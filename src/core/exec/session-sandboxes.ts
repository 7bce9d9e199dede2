/**
 * One sandbox (container, cloud sandbox) per agent session, created on the session's first command and shared
 * by its later ones. Concurrent first commands share one creation; a creation that fails is forgotten, so the
 * next command retries instead of inheriting the error forever.
 */
export class SessionSandboxes<T> {
  private readonly pending = new Map<string, Promise<T>>();

  constructor(private readonly create: (sessionId: string) => Promise<T>) {}

  get(sessionId: string): Promise<T> {
    const existing = this.pending.get(sessionId);
    if (existing !== undefined) return existing;
    const created = this.create(sessionId);
    this.pending.set(sessionId, created);
    created.catch((err: unknown) => {
      // The caller receives this error from `created` itself; here we only forget the failed attempt so the next command retries.
      void err;
      if (this.pending.get(sessionId) === created) this.pending.delete(sessionId);
    });
    return created;
  }

  /**
   * Removes the session's sandbox from the map and returns it for the caller to tear down; null when the session
   * has none, or its creation failed (that error already reached the command that asked for it).
   */
  async take(sessionId: string): Promise<T | null> {
    const created = this.pending.get(sessionId);
    if (created === undefined) return null;
    this.pending.delete(sessionId);
    return created.catch(() => null);
  }

  /** Forgets `sandbox` if it is still the session's (it was discarded), so the next command creates a new one. */
  async forget(sessionId: string, sandbox: T): Promise<void> {
    const current = this.pending.get(sessionId);
    // A failed creation is not this sandbox, so its error (already reported to its caller) does not matter here.
    if (current !== undefined && (await current.catch(() => null)) === sandbox) this.pending.delete(sessionId);
  }

  /** Waits for creations in flight (they would otherwise finish later and leak) and empties the map; returns what was created. */
  async takeAll(): Promise<T[]> {
    const all = [...this.pending.values()];
    this.pending.clear();
    const settled = await Promise.allSettled(all);
    return settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  }
}
