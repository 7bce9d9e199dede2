import type { z } from 'zod';
import type { HostChild, HostExit } from './local-process.js';

/** What every host protocol can say about a message it could not parse. */
interface InvalidMessageEvent {
  type: 'error';
  requestId?: string;
  code: 'invalid_message';
  message: string;
}

/**
 * The engine's handle on one host process (chat model host or embedding host): validates what it
 * sends against the protocol's zod schema, fans events out to subscribers, and reports the process
 * dying once. The protocols differ; this plumbing does not.
 */
export class HostProcess<Event extends { type: string }, Request extends { type: string }> {
  private readonly listeners = new Set<(event: Event) => void>();
  private readonly exitListeners = new Set<(exit: HostExit) => void>();
  private exitInfo: HostExit | undefined;

  protected constructor(
    private readonly child: HostChild,
    private readonly events: z.ZodType<Event>,
    /** "model host", "embedding host": names the process in errors. */
    private readonly label: string,
  ) {
    child.onMessage((raw) => this.dispatch(raw));
    child.onExit((exit) => {
      this.exitInfo = exit;
      for (const listener of [...this.exitListeners]) listener(exit);
    });
  }

  private dispatch(raw: unknown): void {
    const parsed = this.events.safeParse(raw);
    if (!parsed.success) {
      // A host that speaks a different protocol is a bug, not a user error: make it loud in the stream it was for.
      const requestId = typeof raw === 'object' && raw !== null && 'requestId' in raw && typeof raw.requestId === 'string' ? raw.requestId : undefined;
      const invalid: InvalidMessageEvent = { type: 'error', ...(requestId ? { requestId } : {}), code: 'invalid_message', message: `The ${this.label} sent an invalid message: ${parsed.error.message}` };
      // Both protocols declare this error event; the cast only restates that.
      for (const l of [...this.listeners]) l(invalid as unknown as Event);
      return;
    }
    for (const listener of [...this.listeners]) listener(parsed.data);
  }

  get alive(): boolean {
    return this.exitInfo === undefined;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  send(request: Request): void {
    if (this.alive) this.child.postMessage(request);
  }

  /** Send a message that is not checked against the protocol (tests use this to prove the host survives junk). */
  sendRaw(message: unknown): void {
    if (this.alive) this.child.postMessage(message);
  }

  subscribe(listener: (event: Event) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called once when the process exits; immediately if it already has. */
  onExit(listener: (exit: HostExit) => void): () => void {
    if (this.exitInfo) {
      listener(this.exitInfo);
      return () => undefined;
    }
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  /** Kill the process outright (tests use it to simulate a native crash). */
  kill(): void {
    this.child.kill();
  }

  /** Ask the host to shut down; kill it if it has not gone within `graceMs`. */
  async stop(graceMs = 3000): Promise<void> {
    if (!this.alive) return;
    const exited = new Promise<void>((resolve) => this.onExit(() => resolve()));
    this.child.postMessage({ type: 'shutdown' });
    const timer = setTimeout(() => this.child.kill(), graceMs);
    await exited;
    clearTimeout(timer);
  }
}
