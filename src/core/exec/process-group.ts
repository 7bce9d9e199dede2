import { spawn, type ChildProcess } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import { abortError } from '../errors.js';
import type { ExecOptions } from './backend.js';

/** After the process exits, how long to wait for its pipes to drain before giving up on them (a background job may hold them open). */
const PIPE_DRAIN_MS = 200;

export interface GroupSpawn {
  file: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Time between SIGTERM and SIGKILL when the group is stopped. */
  killGraceMs: number;
  onStdout(chunk: Buffer): void;
  onStderr(chunk: Buffer): void;
  /** The error to reject with when the program cannot start at all (not found, not executable). */
  spawnError(err: Error): Error;
}

export interface GroupExit {
  /** The exit status; 128 + signal number when it died of a signal (as bash reports it). */
  exitCode: number;
  timedOut: boolean;
}

/**
 * Runs a program as the leader of a new process group (`detached`) and waits for it. A timeout or an interrupt
 * signals the whole group — SIGTERM, then SIGKILL after the grace period — reaching grandchildren (`sleep` in a
 * pipeline, a compiler's workers) that a plain `child.kill()` would orphan. Resolves once the pipes drained;
 * rejects with `abortError` when the interrupt fired. Used by the local and the Apptainer backends.
 */
export function runProcessGroup(run: GroupSpawn, options: Pick<ExecOptions, 'stdin' | 'timeoutMs' | 'signal'>): Promise<GroupExit> {
  const { signal } = options;
  const child = spawn(run.file, run.args, {
    cwd: run.cwd,
    env: run.env,
    detached: true,
    stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', run.onStdout);
  child.stderr?.on('data', run.onStderr);
  if (options.stdin !== undefined && child.stdin) {
    // EPIPE here only means the command exited without reading all of its input; its exit status says the rest.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin);
  }

  return new Promise<GroupExit>((resolve, reject) => {
    let timedOut = false;
    let stopped = false;
    const stopGroup = (): void => {
      if (stopped || child.pid === undefined) return;
      stopped = true;
      const pid = child.pid;
      signalGroup(pid, 'SIGTERM');
      // Not unref'd: a process that ignores SIGTERM must still die even if nothing else keeps Node alive.
      setTimeout(() => signalGroup(pid, 'SIGKILL'), run.killGraceMs);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stopGroup();
    }, options.timeoutMs);
    signal.addEventListener('abort', stopGroup, { once: true });
    const cleanup = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', stopGroup);
    };
    child.once('error', (err) => {
      cleanup();
      reject(run.spawnError(err));
    });
    child.once('exit', (code, exitSignal) => {
      cleanup();
      void drainPipes(child).then(() => {
        if (signal.aborted) reject(abortError(signal));
        else resolve({ exitCode: code ?? 128 + (exitSignal ? (osConstants.signals[exitSignal] ?? 0) : 0), timedOut });
      });
    });
  });
}

function signalGroup(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig);
  } catch (err) {
    // ESRCH: every process of the group has already exited, which is the goal.
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

function drainPipes(child: ChildProcess): Promise<void> {
  const open = [child.stdout, child.stderr].filter((s) => s !== null && !s.closed);
  return new Promise((done) => {
    let pending = open.length;
    if (pending === 0) return done();
    const timer = setTimeout(() => {
      // A background job (`server &`) still holds the pipe: stop reading rather than wait for it to exit.
      for (const s of open) s?.destroy();
      done();
    }, PIPE_DRAIN_MS);
    for (const s of open) {
      s?.once('close', () => {
        pending -= 1;
        if (pending === 0) {
          clearTimeout(timer);
          done();
        }
      });
    }
  });
}
