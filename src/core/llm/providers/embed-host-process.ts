/**
 * The engine's handle on one embedding host process: starts it (`child_process.fork` of
 * `model-host/embed-main`), validates what it sends, and reports the process dying. The process
 * plumbing (`HostChild`, exit reports) is the chat model host's, reused as is.
 */
import { embedHostEventSchema, type EmbedHostEvent, type EmbedHostRequest } from '../../../shared/embed-host-protocol.js';
import { forkHostModule, type HostChild, type HostExit, type HostSpawner } from './local-process.js';

/** The embedding host (`model-host/embed-main`), forked like the chat model host. */
export const forkEmbedHostChild: HostSpawner = () => forkHostModule('embed-main');

export class EmbedHostProcess {
  private readonly listeners = new Set<(event: EmbedHostEvent) => void>();
  private readonly exitListeners = new Set<(exit: HostExit) => void>();
  private exitInfo: HostExit | undefined;

  private constructor(private readonly child: HostChild) {
    child.onMessage((raw) => this.dispatch(raw));
    child.onExit((exit) => {
      this.exitInfo = exit;
      for (const listener of [...this.exitListeners]) listener(exit);
    });
  }

  static start(spawn: HostSpawner = forkEmbedHostChild): EmbedHostProcess {
    return new EmbedHostProcess(spawn());
  }

  private dispatch(raw: unknown): void {
    const parsed = embedHostEventSchema.safeParse(raw);
    if (!parsed.success) {
      // A host that speaks a different protocol is a bug, not a user error: fail the request it was for, loudly.
      const requestId = typeof raw === 'object' && raw !== null && 'requestId' in raw && typeof raw.requestId === 'string' ? raw.requestId : undefined;
      const message = `The embedding host sent an invalid message: ${parsed.error.message}`;
      for (const l of [...this.listeners]) l({ type: 'error', ...(requestId ? { requestId } : {}), code: 'invalid_message', message });
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

  send(request: EmbedHostRequest): void {
    if (this.alive) this.child.postMessage(request);
  }

  subscribe(listener: (event: EmbedHostEvent) => void): () => void {
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
    this.send({ type: 'shutdown' });
    const timer = setTimeout(() => this.child.kill(), graceMs);
    await exited;
    clearTimeout(timer);
  }
}
