/**
 * The model host (and embedding host) as an Electron `utilityProcess` instead of `child_process.fork`:
 * `fork` from main needs ELECTRON_RUN_AS_NODE, which the RunAsNode fuse turns off, and a utility process
 * is Chromium's supported way to run a Node child. This adapter gives the engine the same `HostChild` it
 * gets from `forkHostModule`: messages both ways, one exit report with the stderr tail (llama.cpp's
 * GGML_ASSERT text), and kill. The host side already speaks `process.parentPort` (process-transport.ts).
 */
import { fileURLToPath } from 'node:url';
import type { HostChild, HostExit, HostModule, HostSpawner } from '../core/local-model/local-process.js';

/** The part of Electron's `UtilityProcess` the adapter uses. */
export interface UtilityProcessLike {
  readonly pid: number | undefined;
  readonly stderr: NodeJS.ReadableStream | null;
  postMessage(message: unknown): void;
  kill(): boolean;
  on(event: 'spawn', listener: () => void): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  on(event: 'error', listener: (type: string, location: string, report: string) => void): unknown;
}

export type ForkUtilityProcess = (modulePath: string, args: string[], options: { stdio: ['ignore', 'ignore', 'pipe']; serviceName: string }) => UtilityProcessLike;

const STDERR_TAIL_CHARS = 2000;
/** After 'exit', how long to wait for the rest of stderr (the crash message) before reporting. */
const STDERR_DRAIN_MS = 500;

/**
 * Wraps a started utility process. Messages posted before it has spawned are queued and sent on 'spawn'
 * (the engine posts `load` straight away); after exit they are dropped, as with a dead forked child.
 */
export function utilityHostChild(proc: UtilityProcessLike): HostChild {
  let spawned = false;
  let exited = false;
  let stderrTail = '';
  let stderrEnded = proc.stderr === null;
  const queue: unknown[] = [];
  const exitListeners: ((exit: HostExit) => void)[] = [];

  proc.stderr?.setEncoding('utf8');
  proc.stderr?.on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
  });
  const afterStderr = new Promise<void>((resolve) => {
    if (stderrEnded) return resolve();
    proc.stderr?.on('end', () => {
      stderrEnded = true;
      resolve();
    });
    proc.stderr?.on('close', resolve);
  });

  const fireExit = (code: number | null): void => {
    if (exited) return;
    exited = true;
    queue.length = 0;
    // 'exit' can overtake the last stderr bytes; wait briefly so the report carries llama.cpp's last words.
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, STDERR_DRAIN_MS).unref?.());
    void Promise.race([afterStderr, timeout]).then(() => {
      for (const listener of exitListeners) listener({ code, signal: null, stderrTail });
    });
  };

  proc.on('spawn', () => {
    spawned = true;
    for (const message of queue.splice(0)) proc.postMessage(message);
  });
  proc.on('exit', (code) => fireExit(code));
  // A V8 fatal error: its location goes into the report; 'exit' follows and reports once.
  proc.on('error', (type, location) => {
    stderrTail = `${stderrTail}\n${type} at ${location}`.slice(-STDERR_TAIL_CHARS);
  });

  return {
    get pid() {
      return proc.pid;
    },
    postMessage: (message) => {
      if (exited) return;
      if (spawned) proc.postMessage(message);
      else queue.push(message);
    },
    onMessage: (listener) => {
      proc.on('message', listener);
    },
    onExit: (listener) => {
      exitListeners.push(listener);
    },
    kill: () => {
      if (!exited) proc.kill();
    },
  };
}

/** `dist/model-host/<module>.js` next to `dist/main/` (the desktop app always runs built code). */
export function builtHostModulePath(module: HostModule, mainModuleUrl: string = import.meta.url): string {
  return fileURLToPath(new URL(`../model-host/${module}.js`, mainModuleUrl));
}

/** A `HostSpawner` that starts the host module as a utility process. */
export function utilityHostSpawner(fork: ForkUtilityProcess, module: HostModule, modulePath = builtHostModulePath(module)): HostSpawner {
  const serviceName = module === 'main' ? 'Hearth model host' : 'Hearth embedding host';
  return () => utilityHostChild(fork(modulePath, [], { stdio: ['ignore', 'ignore', 'pipe'], serviceName }));
}
