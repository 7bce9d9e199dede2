import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { constants as osConstants } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { HearthConfig } from '../config/schema.js';
import { HearthError, abortError } from '../errors.js';
import type { ExecOptions, ExecResult, ExecutionBackend } from './backend.js';
import { MarkedStdout } from './docker-run-script.js';
import { HeadTailBuffer } from './output-cap.js';
import {
  containerScript, resolveSingularityBinary, singularityExecArgs, startDirectory, type SingularityBinaryChoice,
} from './singularity-command.js';
import { commandEnvironment } from './subprocess-env.js';

export interface SingularityBackendOptions {
  /** A .sif file or an image URI the CLI understands. */
  image: string;
  binary: SingularityBinaryChoice;
  network: boolean;
  /** Host directory bound into every container at the same path. */
  workspace: string;
  /** The engine's environment: PATH to find the CLI, and the source of the variables commands may see. */
  env: NodeJS.ProcessEnv;
  /** Names from `terminal.env_passthrough` that commands may see besides the safe set. */
  passthrough?: readonly string[];
  /** Time between SIGTERM and SIGKILL when a command is stopped (default 1 s, as the local backend). */
  killGraceMs?: number;
}

/** After the CLI exits, how long its pipes may stay open (a background job holding them) before we stop reading. */
const PIPE_DRAIN_MS = 200;
/**
 * The container's own PATH and HOME apply: the host's PATH names host directories, and HOME is not bound
 * (`--no-home`). PWD would contradict `--pwd`.
 */
const HOST_ONLY_VARIABLES = new Set(['PATH', 'HOME', 'PWD']);

/**
 * Runs each command as one `apptainer exec` (or `singularity exec`) of the configured image: a fresh,
 * contained process tree per command, with only the workspace bound. Nothing lives between commands
 * except the workspace's files and the working directory, which an EXIT trap reports after a marker.
 *
 * The CLI is spawned `detached`, leading its own process group: a timeout or interrupt signals the
 * group (the CLI forwards signals into the container, and its PID namespace dies with it).
 */
export class SingularityBackend implements ExecutionBackend {
  readonly name = 'singularity';
  readonly sharesWorkspace = true;
  private readonly workspace: string;
  private readonly killGraceMs: number;
  /** What the CLI process itself gets: the safe set, never Hearth's keys (nor APPTAINERENV_* injections). */
  private readonly cliEnv: Record<string, string>;
  private binary: string | null = null;

  constructor(private readonly options: SingularityBackendOptions) {
    this.workspace = resolve(options.workspace);
    this.killGraceMs = options.killGraceMs ?? 1000;
    this.cliEnv = commandEnvironment(options.env, options.passthrough ?? []);
  }

  async run(command: string, options: ExecOptions): Promise<ExecResult> {
    if (options.signal.aborted) throw abortError(options.signal);
    if (!isAbsolute(options.cwd)) throw new HearthError('tool_input_invalid', `working directory must be absolute: ${options.cwd}`);
    this.binary ??= resolveSingularityBinary(this.options.binary, this.options.env.PATH);
    const marker = `HEARTH-END-${randomUUID()}:`;
    const args = singularityExecArgs({
      image: this.options.image,
      workspace: this.workspace,
      pwd: startDirectory(options.cwd, this.workspace),
      network: this.options.network,
      env: this.commandEnv(options.env),
      script: containerScript(command, options.cwd, this.workspace, marker),
    });
    return this.spawnAndWait(this.binary, args, marker, options);
  }

  /** Each command is its own process tree; nothing outlives it. */
  async dispose(): Promise<void> {}

  private commandEnv(extra: Record<string, string> | undefined): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.cliEnv)) if (!HOST_ONLY_VARIABLES.has(name)) env[name] = value;
    // Pagers would wait forever for a keypress nobody can give.
    return { ...env, PAGER: 'cat', GIT_PAGER: 'cat', ...extra };
  }

  private spawnAndWait(binary: string, args: string[], marker: string, options: ExecOptions): Promise<ExecResult> {
    const { signal } = options;
    const child = spawn(binary, args, {
      cwd: this.workspace,
      env: this.cliEnv,
      detached: true,
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const output = new HeadTailBuffer(options.outputLimit);
    const emit = (text: string): void => {
      output.push(text);
      options.onOutput?.(text);
    };
    const stdout = new MarkedStdout(marker, emit);
    const stderr = new StringDecoder('utf8');
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = stderr.write(chunk);
      if (text.length > 0) emit(text);
    });
    if (options.stdin !== undefined && child.stdin) {
      // EPIPE here only means the command exited without reading all of its input; its exit status says the rest.
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.stdin);
    }

    return new Promise<ExecResult>((resolvePromise, reject) => {
      let timedOut = false;
      let stopped = false;
      const stopGroup = (): void => {
        if (stopped || child.pid === undefined) return;
        stopped = true;
        const pid = child.pid;
        signalGroup(pid, 'SIGTERM');
        // Not unref'd: a process that ignores SIGTERM must still die even if nothing else keeps Node alive.
        setTimeout(() => signalGroup(pid, 'SIGKILL'), this.killGraceMs);
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
        reject(new HearthError('backend_unavailable', `could not start ${binary}: ${err.message}`, { cause: err }));
      });
      child.once('exit', (code, exitSignal) => {
        cleanup();
        void drainPipes(child.stdout, child.stderr).then(() => {
          stdout.end();
          const rest = stderr.end();
          if (rest.length > 0) emit(rest);
          if (signal.aborted) return reject(abortError(signal));
          const status = stdout.status;
          const processCode = code ?? 128 + (exitSignal ? (osConstants.signals[exitSignal] ?? 0) : 0);
          resolvePromise({
            // Without the trap line the shell never finished (killed) or the CLI failed before it ran; its own status says which.
            exitCode: status !== null && !timedOut ? status.exitCode : processCode,
            output: output.toString(),
            timedOut,
            truncated: output.truncated,
            cwd: status !== null && status.cwd !== '' ? status.cwd : options.cwd,
          });
        });
      });
    });
  }
}

/** Builds the backend from `terminal.singularity`; a config error naming the key when no image is set. */
export function createSingularityBackend(
  config: HearthConfig['terminal']['singularity'],
  ctx: { workspace: string; env: NodeJS.ProcessEnv; passthrough?: readonly string[]; killGraceMs?: number },
): SingularityBackend {
  if (config.image === undefined) {
    throw new HearthError(
      'config_invalid',
      'terminal.backend is "singularity" but terminal.singularity.image is not set: add it to config.yaml ' +
        '(terminal: { singularity: { image: docker://debian:bookworm-slim } }, or the path of a .sif file) or set terminal.backend to local.',
      { details: { key: 'terminal.singularity.image' } },
    );
  }
  return new SingularityBackend({
    image: config.image,
    binary: config.binary,
    network: config.network,
    workspace: ctx.workspace,
    env: ctx.env,
    ...(ctx.passthrough === undefined ? {} : { passthrough: ctx.passthrough }),
    ...(ctx.killGraceMs === undefined ? {} : { killGraceMs: ctx.killGraceMs }),
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

function drainPipes(...streams: (NodeJS.ReadableStream & { destroy?: () => void } | null)[]): Promise<void> {
  const open = streams.filter((s): s is NodeJS.ReadableStream & { destroy?: () => void } => s !== null && !(s as { closed?: boolean }).closed);
  return new Promise((done) => {
    let pending = open.length;
    if (pending === 0) return done();
    const timer = setTimeout(() => {
      // A background job (`server &`) still holds the pipe: stop reading rather than wait for it to exit.
      for (const s of open) s.destroy?.();
      done();
    }, PIPE_DRAIN_MS);
    for (const s of open) {
      s.once('close', () => {
        pending -= 1;
        if (pending === 0) {
          clearTimeout(timer);
          done();
        }
      });
    }
  });
}
