/**
 * The engine's handle on one model host process: starts it (`child_process.fork`), validates what
 * it sends, routes events to the request they belong to, and turns the process dying into an
 * error on whatever was waiting for it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { hostEventSchema, type HostEvent, type HostRequest } from '../../shared/model-host-protocol.js';
import { HostProcess } from './host-process.js';

export interface HostExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Last lines the host wrote to stderr (llama.cpp prints its GGML_ASSERT there before aborting). */
  stderrTail: string;
}

const STDERR_TAIL_CHARS = 2000;

/** A host entry module in `src/model-host/`: the chat model host, or the embedding host. */
export type HostModule = 'main' | 'embed-main';

/** `src/model-host/<module>.ts` run through tsx when Hearth runs from source, `dist/model-host/<module>.js` when built. */
function hostEntry(module: HostModule): { path: string; execArgv: string[] } {
  const fromSource = import.meta.url.endsWith('.ts');
  const path = fileURLToPath(new URL(`../../model-host/${module}.${fromSource ? 'ts' : 'js'}`, import.meta.url));
  if (!fromSource) return { path, execArgv: [] };
  // Resolve tsx from this file, not from whatever directory the user happens to run Hearth in.
  const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { path, execArgv: ['--import', tsxLoader] };
}

export function describeExit(exit: HostExit): string {
  const how = exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
  const tail = exit.stderrTail.trim().split('\n').slice(-3).join(' | ');
  return tail === '' ? how : `${how}; it said: ${tail}`;
}

/**
 * A started host process, whatever started it. `forkHostChild` is the CLI's; the desktop shell
 * supplies one built on Electron's `utilityProcess` (same postMessage/on('message') shape).
 */
export interface HostChild {
  readonly pid: number | undefined;
  postMessage(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called once, however the process ended (exit, signal, failure to spawn). */
  onExit(listener: (exit: HostExit) => void): void;
  kill(): void;
}

export type HostSpawner = () => HostChild;

/** A host module as a `child_process.fork` child, its stderr tail kept for crash reports. */
export function forkHostModule(module: HostModule): HostChild {
  const entry = hostEntry(module);
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
}

/** The chat model host (`model-host/main`). */
export const forkHostChild: HostSpawner = () => forkHostModule('main');

export class ModelHostProcess extends HostProcess<HostEvent, HostRequest> {
  static start(spawn: HostSpawner = forkHostChild): ModelHostProcess {
    return new ModelHostProcess(spawn(), hostEventSchema, 'model host');
  }
}
