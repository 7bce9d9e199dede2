import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { constants as osConstants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { HearthError, abortError } from '../errors.js';
import type { ExecOptions, ExecResult, ExecutionBackend } from './backend.js';
import { HeadTailBuffer } from './output-cap.js';

export interface LocalBackendOptions {
  /** Environment every command starts from (default: this process's). */
  baseEnv?: NodeJS.ProcessEnv;
  /** Time between SIGTERM and SIGKILL when a command is stopped (default 1 s, as Hermes does). */
  killGraceMs?: number;
}

/** After bash exits, how long to wait for its pipes to drain before giving up on them (a background job may hold them open). */
const PIPE_DRAIN_MS = 200;

/**
 * Runs each command as its own `bash -c` on this machine. The shell is spawned `detached`, so it
 * leads a new process group: a timeout or an interrupt signals the whole group, reaching grandchildren
 * (`sleep` inside a pipeline, a compiler's workers) that a plain `child.kill()` would orphan.
 */
export class LocalBackend implements ExecutionBackend {
  readonly name = 'local';
  readonly localPaths = true;
  readonly sharesWorkspace = true;
  private readonly baseEnv: NodeJS.ProcessEnv;
  private readonly killGraceMs: number;
  private tempDir: string | null = null;

  constructor(options: LocalBackendOptions = {}) {
    this.baseEnv = options.baseEnv ?? process.env;
    this.killGraceMs = options.killGraceMs ?? 1000;
  }

  async run(command: string, options: ExecOptions): Promise<ExecResult> {
    if (options.signal.aborted) throw abortError(options.signal);
    assertDirectory(options.cwd);
    // The final directory is written by an EXIT trap to a file, so it survives `exit 3` and never
    // mixes with the command's own output.
    const cwdFile = join(this.ensureTempDir(), `${randomUUID()}.cwd`);
    const script = `trap ${shellQuote(`builtin pwd > ${shellQuote(cwdFile)}`)} EXIT\n${command}`;
    try {
      return await this.spawnAndWait(script, cwdFile, options);
    } finally {
      rmSync(cwdFile, { force: true });
    }
  }

  async dispose(): Promise<void> {
    if (this.tempDir !== null) rmSync(this.tempDir, { recursive: true, force: true });
    this.tempDir = null;
  }

  private spawnAndWait(script: string, cwdFile: string, options: ExecOptions): Promise<ExecResult> {
    const { signal } = options;
    const child = spawn('bash', ['-c', script], {
      cwd: options.cwd,
      // Pagers would wait forever for a keypress nobody can give.
      env: { ...this.baseEnv, PAGER: 'cat', GIT_PAGER: 'cat', ...options.env },
      detached: true,
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const output = new HeadTailBuffer(options.outputLimit);
    const onData = (chunk: string): void => {
      output.push(chunk);
      options.onOutput?.(chunk);
    };
    child.stdout?.setEncoding('utf8').on('data', onData);
    child.stderr?.setEncoding('utf8').on('data', onData);
    if (options.stdin !== undefined && child.stdin) {
      // EPIPE here only means the command exited without reading all of its input; its exit status says the rest.
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.stdin);
    }

    return new Promise<ExecResult>((resolve, reject) => {
      let timedOut = false;
      let stopped = false;
      const stopGroup = (): void => {
        if (stopped || child.pid === undefined) return;
        stopped = true;
        signalGroup(child.pid, 'SIGTERM');
        const pid = child.pid;
        // Not unref'd: a process that ignores SIGTERM must still die even if nothing else keeps Node alive.
        setTimeout(() => signalGroup(pid, 'SIGKILL'), this.killGraceMs);
      };
      const timer = setTimeout(() => {
        timedOut = true;
        stopGroup();
      }, options.timeoutMs);
      const onAbort = (): void => stopGroup();
      signal.addEventListener('abort', onAbort, { once: true });

      const cleanup = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      child.once('error', (err) => {
        cleanup();
        reject(new Error(`could not start bash: ${err.message}`, { cause: err }));
      });
      child.once('exit', (code, exitSignal) => {
        cleanup();
        void waitForPipes(child.stdout, child.stderr).then(() => {
          if (signal.aborted) {
            reject(abortError(signal));
            return;
          }
          resolve({
            exitCode: code ?? 128 + (exitSignal ? (osConstants.signals[exitSignal] ?? 0) : 0),
            output: output.toString(),
            timedOut,
            truncated: output.truncated,
            cwd: readFinalCwd(cwdFile) ?? options.cwd,
          });
        });
      });
    });
  }

  private ensureTempDir(): string {
    this.tempDir ??= mkdtempSync(join(tmpdir(), 'hearth-exec-'));
    return this.tempDir;
  }
}

function assertDirectory(cwd: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(cwd).isDirectory();
  } catch (err) {
    throw new HearthError('tool_input_invalid', `working directory does not exist: ${cwd}`, { cause: err });
  }
  if (!isDirectory) throw new HearthError('tool_input_invalid', `working directory is not a directory: ${cwd}`);
}

function signalGroup(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig);
  } catch (err) {
    // ESRCH: every process of the group has already exited, which is the goal.
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

function waitForPipes(...streams: (NodeJS.ReadableStream & { destroy?: () => void } | null)[]): Promise<void> {
  const open = streams.filter((s): s is NodeJS.ReadableStream & { destroy?: () => void } => s !== null);
  return new Promise((resolve) => {
    let pending = open.length;
    if (pending === 0) resolve();
    const timer = setTimeout(() => {
      // A background job (`server &`) still holds the pipe: stop reading rather than wait for it to exit.
      for (const s of open) s.destroy?.();
      resolve();
    }, PIPE_DRAIN_MS);
    for (const s of open) {
      s.once('close', () => {
        pending -= 1;
        if (pending === 0) {
          clearTimeout(timer);
          resolve();
        }
      });
    }
  });
}

function readFinalCwd(file: string): string | null {
  try {
    const dir = readFileSync(file, 'utf8').trim();
    return dir.length > 0 ? dir : null;
  } catch (err) {
    // No file: the shell was killed before its EXIT trap ran (timeout, SIGKILL); the caller keeps the old cwd.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Single-quote for bash: the only character that needs care inside '...' is ' itself. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
