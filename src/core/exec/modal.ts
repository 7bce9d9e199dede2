import { randomUUID } from 'node:crypto';
import type { App, ContainerProcess, ModalClient, Sandbox } from 'modal';
import type { HearthConfig } from '../config/schema.js';
import { HearthError, abortError } from '../errors.js';
import type { ExecOptions, ExecResult, ExecutionBackend } from './backend.js';
import { wrapCommand } from './docker-run-script.js';
import { killScript } from './docker-run-script.js';
import { SessionSandboxes } from './session-sandboxes.js';
import { modalServerUrl, newModalClient } from './modal-client.js';
import { resolveModalCredentials } from './modal-credentials.js';
import { isGone, modalError, type ModalErrorContext } from './modal-errors.js';
import { collectModalExec } from './modal-exec-stream.js';

export type ModalSandboxConfig = HearthConfig['terminal']['modal'];

export interface ModalBackendOptions {
  /** Environment for the token (MODAL_TOKEN_ID/SECRET) and the API address (MODAL_SERVER_URL, MODAL_ENVIRONMENT). */
  env: NodeJS.ProcessEnv;
  /** Reads a keychain account (default: the OS keychain); used when the environment has no token. */
  readSecret?: (account: string) => string | null;
  /** Time between SIGTERM and SIGKILL when a command is stopped (default 1 s, as the local backend). */
  killGraceMs?: number;
}

/** Commands that name no session share one sandbox. */
const DEFAULT_SESSION = 'default';
/** Where a command starts when its cwd does not exist in the sandbox (Modal sandboxes run as root). */
const FALLBACK_CWD = '/root';
/** After SIGKILL, how long the killed command's streams may take to close before the sandbox is terminated. */
const STOP_GIVE_UP_MS = 3000;
/** Modal's own per-exec timeout, a backstop past ours in case this process dies mid-command (whole seconds). */
const SERVER_TIMEOUT_SLACK_S = 30;

interface SessionSandbox {
  sessionId: string;
  sandbox: Sandbox;
  context: ModalErrorContext;
}

/**
 * Runs commands in one Modal sandbox per session (created on the session's first command from
 * `terminal.modal.image`), each command an exec of `/bin/sh -c` through the official SDK. The cwd and
 * exit status come back on stdout after a per-run marker (the same script as the docker backend).
 *
 * Stopping a command: SDK 0.11.1 has no way to signal an exec, so the shell writes its pid to /tmp and a
 * second exec kills its process group, TERM then KILL. When that does not end the command, the sandbox is
 * terminated and the session's next command gets a fresh one.
 */
export class ModalBackend implements ExecutionBackend {
  readonly name = 'modal';
  private readonly env: NodeJS.ProcessEnv;
  private readonly readSecret: ((account: string) => string | null) | undefined;
  private readonly killGraceMs: number;
  private readonly sandboxes = new SessionSandboxes<SessionSandbox>((sessionId) => this.createSandbox(sessionId));
  /** Every sandbox this backend created and has not terminated, for dispose(). */
  private readonly created = new Map<string, SessionSandbox>();
  private connecting: Promise<{ client: ModalClient; app: App; context: ModalErrorContext }> | null = null;

  constructor(
    private readonly config: ModalSandboxConfig,
    options: ModalBackendOptions,
  ) {
    this.env = options.env;
    this.readSecret = options.readSecret;
    this.killGraceMs = options.killGraceMs ?? 1000;
  }

  async run(command: string, options: ExecOptions): Promise<ExecResult> {
    const { signal } = options;
    if (signal.aborted) throw abortError(signal);
    const session = await this.sandboxes.get(options.sessionId ?? DEFAULT_SESSION);
    const { context } = session;
    if (signal.aborted) throw abortError(signal);

    const runId = randomUUID();
    const pidFile = `/tmp/.hearth-run-${runId}.pid`;
    const marker = `__hearth_done_${runId}__`;
    const script = wrapCommand({ command, cwd: options.cwd, fallbackCwd: FALLBACK_CWD, marker, pidFile });
    let exec: ContainerProcess<Uint8Array>;
    try {
      exec = await session.sandbox.exec(['/bin/sh', '-c', script], {
        mode: 'binary',
        ...(options.env && Object.keys(options.env).length > 0 ? { env: options.env } : {}),
        timeoutMs: (Math.ceil(options.timeoutMs / 1000) + SERVER_TIMEOUT_SLACK_S) * 1000,
      });
    } catch (err) {
      throw await this.explainFailure(session, err, 'start the command');
    }
    // Without stdin the command reads EOF at once, so it never waits for input.
    const stdinWritten = writeStdin(exec, options.stdin);

    const outcome = await collectModalExec({
      stdout: exec.stdout,
      stderr: exec.stderr,
      marker,
      timeoutMs: options.timeoutMs,
      signal,
      outputLimit: options.outputLimit,
      ...(options.onOutput ? { onOutput: options.onOutput } : {}),
      stop: () => this.stopCommand(session, pidFile),
      stopGiveUpMs: this.killGraceMs + STOP_GIVE_UP_MS,
      forceStop: () => this.discard(session),
    });
    const stdinError = await stdinWritten;

    if (signal.aborted) throw abortError(signal);
    if (outcome.status === null && !outcome.stopped) {
      // No EXIT-trap line and we did not stop it: the command redirected its stdout away (`exec >file`),
      // or the sandbox died under it. Only the second is an error.
      await this.assertRunning(session);
      if (outcome.streamError !== null) throw modalError(outcome.streamError, 'read the command output', context);
      if (stdinError !== null) throw modalError(stdinError, 'write the command input', context);
    }
    const exitCode = outcome.status?.exitCode ?? (outcome.stopped ? 128 + 9 : await this.exitCode(session, exec));
    return { exitCode, output: outcome.output, timedOut: outcome.timedOut, truncated: outcome.truncated, cwd: outcome.status?.cwd || options.cwd };
  }

  /** Terminates the session's sandbox (its /tmp and background processes go with it). */
  async endSession(sessionId: string): Promise<void> {
    const session = await this.sandboxes.take(sessionId);
    if (session !== null) await this.terminate(session);
  }

  /** Terminates every sandbox this backend created. Safe to call twice. */
  async dispose(): Promise<void> {
    // Creations still in flight would otherwise finish after dispose and leak their sandbox.
    await this.sandboxes.takeAll();
    await Promise.all([...this.created.values()].map((session) => this.terminate(session)));
    const pending = this.connecting;
    this.connecting = null;
    // A connection that never opened has no client to close; its error already reached the run that asked for it.
    if (pending !== null) (await pending.catch(() => null))?.client.close();
  }

  private async createSandbox(sessionId: string): Promise<SessionSandbox> {
    const { client, app, context } = await this.connection();
    let sandbox: Sandbox;
    try {
      sandbox = await client.sandboxes.create(app, client.images.fromRegistry(this.config.image), {
        timeoutMs: this.config.sandbox_timeout_s * 1000,
        ...(this.config.cpus === undefined ? {} : { cpu: this.config.cpus }),
        ...(this.config.memory_mb === undefined ? {} : { memoryMiB: this.config.memory_mb }),
        blockNetwork: !this.config.network,
      });
    } catch (err) {
      throw modalError(err, `create a sandbox from image ${this.config.image}`, context);
    }
    const session = { sessionId, sandbox, context };
    this.created.set(sandbox.sandboxId, session);
    return session;
  }

  /** Once per backend (retried after a failure): the token, the client, and the app sandboxes belong to. */
  private connection(): Promise<{ client: ModalClient; app: App; context: ModalErrorContext }> {
    if (this.connecting !== null) return this.connecting;
    const connecting = (async () => {
      const credentials = resolveModalCredentials(this.env, this.readSecret);
      const context: ModalErrorContext = { serverUrl: modalServerUrl(this.env), credentialSource: credentials.source };
      const client = await newModalClient(credentials, this.env);
      try {
        return { client, app: await client.apps.fromName(this.config.app_name, { createIfMissing: true }), context };
      } catch (err) {
        client.close();
        throw modalError(err, `open the Modal app "${this.config.app_name}"`, context);
      }
    })();
    this.connecting = connecting;
    connecting.catch((err: unknown) => {
      // The run that asked receives the error; forgetting it lets the next command try again (a fixed token, a network back).
      void err;
      if (this.connecting === connecting) this.connecting = null;
    });
    return connecting;
  }

  /** TERM then KILL to the command's process group, from a second exec. False when that could not be done. */
  private async stopCommand(session: SessionSandbox, pidFile: string): Promise<boolean> {
    const killer = await session.sandbox.exec(['/bin/sh', '-c', killScript(pidFile, this.killGraceMs)], { stdout: 'ignore', stderr: 'ignore' });
    return (await killer.wait()) === 0;
  }

  /** The last resort when a command cannot be killed: the sandbox goes, the next command gets a new one. */
  private async discard(session: SessionSandbox): Promise<void> {
    await this.sandboxes.forget(session.sessionId, session);
    await this.terminate(session);
  }

  private async terminate({ sandbox, context }: SessionSandbox): Promise<void> {
    this.created.delete(sandbox.sandboxId);
    try {
      await sandbox.terminate();
    } catch (err) {
      // Already gone (Modal's timeout, terminated by hand): that is the state we wanted.
      if (!isGone(err)) throw modalError(err, `terminate sandbox ${sandbox.sandboxId}`, context);
    }
  }

  /** Throws backend_failed (and forgets the sandbox) when the session's sandbox is no longer running. */
  private async assertRunning(session: SessionSandbox): Promise<void> {
    const { context } = session;
    let exitCode: number | null;
    try {
      exitCode = await session.sandbox.poll();
    } catch (err) {
      if (!isGone(err)) throw modalError(err, 'check the sandbox', context);
      exitCode = -1;
    }
    if (exitCode === null) return;
    await this.discard(session);
    throw new HearthError(
      'backend_failed',
      `The Modal sandbox for this session stopped (${exitCode === 124 ? 'it reached terminal.modal.sandbox_timeout_s' : exitCode === -1 ? 'it no longer exists' : `exit ${exitCode}`}). ` +
        'The next command starts a fresh sandbox; files, /tmp and background processes of the old one are gone.',
      { details: { sandboxExitCode: exitCode } },
    );
  }

  /** The exit status from Modal when the shell's own report is missing (its stdout was redirected away). */
  private async exitCode(session: SessionSandbox, exec: ContainerProcess<Uint8Array>): Promise<number> {
    try {
      return await exec.wait();
    } catch (err) {
      throw await this.explainFailure(session, err, 'read the exit status');
    }
  }

  private async explainFailure(session: SessionSandbox, err: unknown, doing: string): Promise<HearthError> {
    if (isGone(err)) {
      try {
        await this.assertRunning(session);
      } catch (died) {
        return died instanceof HearthError ? died : modalError(died, doing, session.context);
      }
    }
    return modalError(err, doing, session.context);
  }
}

export function createModalBackend(config: ModalSandboxConfig, ctx: { env: NodeJS.ProcessEnv }): ModalBackend {
  return new ModalBackend(config, { env: ctx.env });
}

/** Sends stdin (if any) and EOF. Resolves to the error instead of rejecting: the run decides whether it matters. */
async function writeStdin(exec: ContainerProcess<Uint8Array>, stdin: string | undefined): Promise<unknown> {
  try {
    if (stdin !== undefined && stdin.length > 0) await exec.stdin.writeBytes(Buffer.from(stdin, 'utf8'));
    await exec.stdin.close();
    return null;
  } catch (err) {
    return err;
  }
}
