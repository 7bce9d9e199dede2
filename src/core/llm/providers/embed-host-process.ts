/**
 * The engine's handle on one embedding host process: starts it (`child_process.fork` of
 * `model-host/embed-main`), validates what it sends, and reports the process dying. The process
 * plumbing (`HostChild`, exit reports) is the chat model host's, reused as is.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { embedHostEventSchema, type EmbedHostEvent, type EmbedHostRequest } from '../../../shared/embed-host-protocol.js';
import type { HostChild, HostExit, HostSpawner } from './local-process.js';

const STDERR_TAIL_CHARS = 2000;

/** `src/model-host/embed-main.ts` through tsx when Hearth runs from source, `dist/model-host/embed-main.js` when built. */
function embedHostEntry(): { path: string; execArgv: string[] } {
  const fromSource = import.meta.url.endsWith('.ts');
  const path = fileURLToPath(new URL(`../../../model-host/embed-main.${fromSource ? 'ts' : 'js'}`, import.meta.url));
  if (!fromSource) return { path, execArgv: [] };
  // Resolve tsx from this file, not from whatever directory the user happens to run Hearth in.
  const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { path, execArgv: ['--import', tsxLoader] };
}

/** The embedding host as a `child_process.fork` child, its stderr tail kept for crash reports. */
export const forkEmbedHostChild: HostSpawner = () => {
  const entry = embedHostEntry();
  const child: ChildProcess = fork(entry.path, [], { execArgv: entry.execArgv, stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'json' });
  let stderrTail = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
  });
  const exitListeners: ((exit: HostExit) => void)[] = [];
  let exited = false;
  const fireExit = (code: number | null, signal: NodeJS.Signals | null): void => {
    if (exited) return;
    exited = true;
    for (const listener of exitListeners) listener({ code, signal, stderrTail });
  };
  // 'close', not 'exit': it waits for stderr to drain, so llama.cpp's last words (GGML_ASSERT …) are in the tail.
  child.on('close', fireExit);
  // A failure to spawn arrives as 'error', possibly with no 'exit' after it.
  child.on('error', (err) => {
    stderrTail += `\n${err.message}`;
    fireExit(null, null);
  });
  return {
    pid: child.pid,
    postMessage: (message) => {
      if (!exited && child.connected) child.send(message as object);
    },
    onMessage: (listener) => child.on('message', listener),
    onExit: (listener) => exitListeners.push(listener),
    kill: () => child.kill('SIGKILL'),
  };
};

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
