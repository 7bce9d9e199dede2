import { randomUUID } from 'node:crypto';
import { isAbsolute, resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { HearthConfig } from '../config/schema.js';
import { HearthError, abortError } from '../errors.js';
import type { ExecOptions, ExecResult, ExecutionBackend } from './backend.js';
import { MarkedStdout } from './docker-run-script.js';
import { HeadTailBuffer } from './output-cap.js';
import { runProcessGroup } from './process-group.js';
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

  private async spawnAndWait(binary: string, args: string[], marker: string, options: ExecOptions): Promise<ExecResult> {
    const output = new HeadTailBuffer(options.outputLimit);
    const emit = (text: string): void => {
      if (text.length === 0) return;
      output.push(text);
      options.onOutput?.(text);
    };
    const stdout = new MarkedStdout(marker, emit);
    const stderr = new StringDecoder('utf8');
    const exit = await runProcessGroup(
      {
        file: binary,
        args,
        cwd: this.workspace,
        env: this.cliEnv,
        killGraceMs: this.killGraceMs,
        onStdout: (chunk) => stdout.push(chunk),
        onStderr: (chunk) => emit(stderr.write(chunk)),
        spawnError: (err) => new HearthError('backend_unavailable', `could not start ${binary}: ${err.message}`, { cause: err }),
      },
      options,
    );
    stdout.end();
    emit(stderr.end());
    const status = stdout.status;
    return {
      // Without the trap line the shell never finished (killed) or the CLI failed before it ran; its own status says which.
      exitCode: status !== null && !exit.timedOut ? status.exitCode : exit.exitCode,
      output: output.toString(),
      timedOut: exit.timedOut,
      truncated: output.truncated,
      cwd: status !== null && status.cwd !== '' ? status.cwd : options.cwd,
    };
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

