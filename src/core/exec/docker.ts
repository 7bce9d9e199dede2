import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import Dockerode from 'dockerode';
import { HearthError, abortError } from '../errors.js';
import type { ExecOptions, ExecResult, ExecutionBackend } from './backend.js';
import { containerSpec, type DockerSandboxConfig } from './docker-container-spec.js';
import {
  daemonUnreachableError, describeDaemonAddress, imageMissingError, isDaemonUnreachable, isNotFound, isNotRunning, toHearthError,
} from './docker-errors.js';
import { collectExec, execExitCode, waitForStreamEnd } from './docker-exec-stream.js';
import { killScript, wrapCommand } from './docker-run-script.js';
import { SessionSandboxes } from './session-sandboxes.js';
import { ownerLabel, removeStaleContainers } from './docker-stale.js';

export type { DockerSandboxConfig } from './docker-container-spec.js';

export interface DockerBackendOptions {
  /** Host directory mounted read-write into every container, at the same absolute path. */
  workspace: string;
  /** Client to use (default: from DOCKER_HOST or the standard socket). */
  docker?: Dockerode;
  /** Owner label written on containers (default `<hostname>:<this pid>`); crash recovery compares it. */
  owner?: string;
  /** Time between SIGTERM and SIGKILL when a command is stopped (default 1 s, as the local backend). */
  killGraceMs?: number;
}

/** Commands that name no session share one container. */
const DEFAULT_SESSION = 'default';
/** After SIGKILL, how long the killed command's stream may take to close before the container is replaced. */
const STOP_GIVE_UP_MS = 3000;

interface SessionContainer {
  sessionId: string;
  id: string;
  container: Dockerode.Container;
}

/**
 * Runs commands in one long-lived container per session (created on the session's first command),
 * each command as a `docker exec` of `/bin/sh -c`. The workspace is mounted at its host path, so the
 * paths the model sees in the container are the ones the file tools and the terminal tool's cwd use.
 *
 * Stopping a command: the API cannot kill an exec, so every command's shell writes its pid (it leads
 * its own process group) to /tmp, and a second exec kills that group — TERM, then KILL — which keeps
 * the container, its /tmp and any background servers. Only when that fails (the pids limit is
 * exhausted by a fork bomb, the kill exec cannot start) is the container removed; the next command
 * gets a fresh one.
 */
export class DockerBackend implements ExecutionBackend {
  readonly name = 'docker';
  readonly sharesWorkspace = true;
  private readonly docker: Dockerode;
  private readonly workspace: string;
  private readonly owner: string;
  private readonly killGraceMs: number;
  private readonly containers = new SessionSandboxes<SessionContainer>((sessionId) => this.createContainer(sessionId));
  /** Every container this backend created and has not removed, for dispose(). */
  private readonly created = new Map<string, Dockerode.Container>();
  private ready: Promise<number> | null = null;

  constructor(
    private readonly config: DockerSandboxConfig,
    options: DockerBackendOptions,
  ) {
    this.docker = options.docker ?? new Dockerode();
    this.workspace = resolve(options.workspace);
    this.owner = options.owner ?? ownerLabel();
    this.killGraceMs = options.killGraceMs ?? 1000;
  }

  async run(command: string, options: ExecOptions): Promise<ExecResult> {
    const { signal } = options;
    if (signal.aborted) throw abortError(signal);
    if (!isAbsolute(options.cwd)) throw new HearthError('tool_input_invalid', `working directory must be absolute: ${options.cwd}`);
    const session = await this.containers.get(options.sessionId ?? DEFAULT_SESSION);
    if (signal.aborted) throw abortError(signal);

    const runId = randomUUID();
    const pidFile = `/tmp/.hearth-run-${runId}.pid`;
    const marker = `__hearth_done_${runId}__`;
    const script = wrapCommand({ command, cwd: options.cwd, fallbackCwd: this.workspace, marker, pidFile });
    const withStdin = options.stdin !== undefined;
    let exec: Dockerode.Exec;
    let stream: Duplex;
    try {
      exec = await session.container.exec({
        Cmd: ['/bin/sh', '-c', script],
        AttachStdin: withStdin,
        AttachStdout: true,
        AttachStderr: true,
        Env: Object.entries(options.env ?? {}).map(([key, value]) => `${key}=${value}`),
      });
      stream = (await exec.start({ hijack: true, stdin: withStdin })) as Duplex;
    } catch (err) {
      throw await this.explainExecFailure(session, err, 'start the command');
    }

    const outcome = await collectExec({
      stream,
      marker,
      stdin: options.stdin,
      timeoutMs: options.timeoutMs,
      signal,
      outputLimit: options.outputLimit,
      ...(options.onOutput ? { onOutput: options.onOutput } : {}),
      stop: () => this.stopCommand(session, pidFile),
      stopGiveUpMs: this.killGraceMs + STOP_GIVE_UP_MS,
      forceStop: () => this.discard(session),
    });

    if (outcome.status === null && !outcome.stopped && outcome.streamError === null) {
      // No EXIT-trap line and we did not stop it: either the command redirected its stdout away
      // (`exec >file`) or the container died under it. Only the second is an error.
      await this.assertRunning(session);
    }
    if (signal.aborted) throw abortError(signal);
    if (outcome.streamError !== null && !outcome.stopped && outcome.status === null) {
      await this.assertRunning(session);
      throw toHearthError(outcome.streamError, 'read the command output', this.address());
    }
    const exitCode = outcome.status?.exitCode ?? (await execExitCode(exec, outcome.stopped));
    return {
      exitCode,
      output: outcome.output,
      timedOut: outcome.timedOut,
      truncated: outcome.truncated,
      cwd: outcome.status?.cwd || options.cwd,
    };
  }

  /** Removes the session's container (its /tmp and background processes go with it). */
  async endSession(sessionId: string): Promise<void> {
    const session = await this.containers.take(sessionId);
    if (session !== null) await this.removeContainer(session.id);
  }

  /** Removes every container this backend created. Safe to call twice. */
  async dispose(): Promise<void> {
    // Creations still in flight would otherwise finish after dispose and leak their container.
    await this.containers.takeAll();
    await Promise.all([...this.created.keys()].map((id) => this.removeContainer(id)));
  }

  /** Crash recovery, also run before the first container is created: see docker-stale.ts. */
  removeStaleContainers(): Promise<number> {
    return removeStaleContainers(this.docker);
  }

  private async createContainer(sessionId: string): Promise<SessionContainer> {
    const daemonCpus = await this.ensureReady();
    assertWorkspace(this.workspace);
    let container: Dockerode.Container;
    try {
      container = await this.docker.createContainer(
        containerSpec({ config: this.config, workspace: this.workspace, sessionId, owner: this.owner, daemonCpus }),
      );
    } catch (err) {
      if (isNotFound(err)) throw imageMissingError(err, this.config.image);
      throw toHearthError(err, 'create the sandbox container', this.address());
    }
    this.created.set(container.id, container);
    try {
      await container.start();
    } catch (err) {
      await this.removeContainer(container.id);
      throw toHearthError(err, `start the sandbox container (image ${this.config.image})`, this.address());
    }
    return { sessionId, id: container.id, container };
  }

  /** Once per backend: the daemon answers, leftovers of crashed runs are gone, and we know its CPU count. */
  private ensureReady(): Promise<number> {
    this.ready ??= (async () => {
      try {
        await this.docker.ping();
        await this.removeStaleContainers();
        const info = (await this.docker.info()) as { NCPU?: number };
        return info.NCPU ?? this.config.cpus;
      } catch (err) {
        this.ready = null;
        if (isDaemonUnreachable(err)) throw daemonUnreachableError(err, this.address());
        throw toHearthError(err, 'prepare the sandbox', this.address());
      }
    })();
    return this.ready;
  }

  /** TERM then KILL to the command's process group, from a second exec. False when that could not be done. */
  private async stopCommand(session: SessionContainer, pidFile: string): Promise<boolean> {
    const exec = await session.container.exec({
      Cmd: ['/bin/sh', '-c', killScript(pidFile, this.killGraceMs)],
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = (await exec.start({ hijack: true, stdin: false })) as Duplex;
    await waitForStreamEnd(stream);
    return (await exec.inspect()).ExitCode === 0;
  }

  /** The last resort when a command cannot be killed: the container goes, the next command gets a new one. */
  private async discard(session: SessionContainer): Promise<void> {
    await this.containers.forget(session.sessionId, session);
    await this.removeContainer(session.id);
  }

  private async removeContainer(id: string): Promise<void> {
    try {
      await this.docker.getContainer(id).remove({ force: true, v: true });
    } catch (err) {
      // Already gone (removed by a concurrent discard, or by hand): that is the state we wanted.
      if (!isNotFound(err)) throw toHearthError(err, `remove container ${id.slice(0, 12)}`, this.address());
    }
    this.created.delete(id);
  }

  /** Throws a clear error (and forgets the container) when the session's container is no longer running. */
  private async assertRunning(session: SessionContainer): Promise<void> {
    let state: Dockerode.ContainerInspectInfo['State'] | null = null;
    try {
      state = (await session.container.inspect()).State;
    } catch (err) {
      if (!isNotFound(err)) throw toHearthError(err, 'inspect the sandbox container', this.address());
    }
    if (state?.Running) return;
    await this.discard(session);
    throw containerDiedError(state);
  }

  private async explainExecFailure(session: SessionContainer, err: unknown, doing: string): Promise<HearthError> {
    if (isNotRunning(err) || isNotFound(err)) {
      try {
        await this.assertRunning(session);
      } catch (died) {
        return died as HearthError;
      }
    }
    return toHearthError(err, doing, this.address());
  }

  private address(): string {
    return describeDaemonAddress(this.docker.modem as { socketPath?: unknown; host?: unknown; port?: unknown });
  }
}

export function createDockerBackend(config: DockerSandboxConfig, options: { workspace: string; docker?: Dockerode }): DockerBackend {
  return new DockerBackend(config, options);
}

function containerDiedError(state: Dockerode.ContainerInspectInfo['State'] | null): HearthError {
  const why =
    state === null ? 'it was removed' : state.OOMKilled ? `it ran out of memory (exit ${state.ExitCode})` : `it exited with ${state.ExitCode}`;
  return new HearthError(
    'backend_failed',
    `The sandbox container for this session stopped: ${why}. The next command starts a fresh container; files in the ` +
      'workspace are kept, /tmp and background processes are not.',
    { details: { oomKilled: state?.OOMKilled ?? false, exitCode: state?.ExitCode ?? null } },
  );
}

function assertWorkspace(workspace: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(workspace).isDirectory();
  } catch (err) {
    throw new HearthError('backend_unavailable', `The workspace ${workspace} does not exist, so it cannot be mounted into the sandbox.`, { cause: err });
  }
  if (!isDirectory) throw new HearthError('backend_unavailable', `The workspace ${workspace} is not a directory, so it cannot be mounted into the sandbox.`);
}
