import type { Daytona, Sandbox } from '@daytonaio/sdk';
import type { HearthConfig } from '../config/schema.js';
import { HearthError, abortError, errorMessage, isHearthError } from '../errors.js';
import { apiKeyAccount, getSecret } from '../safety/secrets/keychain.js';
import type { ExecOptions, ExecResult, ExecutionBackend } from './backend.js';
import { daytonaError, missingKeyError } from './daytona-errors.js';
import { daytonaCommand, newRunIds } from './daytona-run-script.js';
import { MarkedStdout, killScript } from './docker-run-script.js';
import { SessionSandboxes } from './session-sandboxes.js';
import { HeadTailBuffer } from './output-cap.js';

type DaytonaSection = HearthConfig['terminal']['daytona'];

export interface DaytonaBackendContext {
  env: NodeJS.ProcessEnv;
  /** Reads the keychain (default: the OS keychain); tests pass their own. */
  readSecret?: (account: string) => string | null;
  /** Time between SIGTERM and SIGKILL when a command is stopped (default 1 s, as the other backends). */
  killGraceMs?: number;
}

/** Commands that name no session share one sandbox. */
const DEFAULT_SESSION = 'default';
/** Seconds Daytona may take to create and start a sandbox. */
const CREATE_TIMEOUT_S = 120;
/**
 * The daemon kills a command itself after the request's timeout; ours fires first (and keeps the sandbox's
 * state), theirs is the backstop when this process is gone.
 */
const SERVER_TIMEOUT_MARGIN_S = 30;

/**
 * Runs commands in one Daytona cloud sandbox per Hearth session, created on the session's first command
 * through the official SDK (loaded on first use: importing it costs over a second). Each command is one
 * `process.executeCommand` (`POST /process/execute` on the sandbox's toolbox); the answer comes when the
 * command ends, so output reaches `onOutput` in one piece, not live.
 *
 * Stopping a command: the API cannot cancel an execute, so the script records its process-group id and a
 * second execute kills the group (TERM, then KILL), which ends the first request.
 */
export class DaytonaBackend implements ExecutionBackend {
  readonly name = 'daytona';
  private client: Promise<Daytona> | null = null;
  private readonly sandboxes = new SessionSandboxes<Sandbox>((sessionId) => this.createSandbox(sessionId));
  private readonly killGraceMs: number;
  private readonly readSecret: (account: string) => string | null;

  constructor(
    private readonly config: DaytonaSection,
    private readonly ctx: DaytonaBackendContext,
  ) {
    this.killGraceMs = ctx.killGraceMs ?? 1000;
    this.readSecret = ctx.readSecret ?? getSecret;
  }

  async run(command: string, options: ExecOptions): Promise<ExecResult> {
    const { signal } = options;
    if (signal.aborted) throw abortError(signal);
    const sandbox = await this.sandboxes.get(options.sessionId ?? DEFAULT_SESSION);
    if (signal.aborted) throw abortError(signal);
    const ids = newRunIds();
    const text = daytonaCommand({ command, cwd: options.cwd, env: options.env ?? {}, ...(options.stdin === undefined ? {} : { stdin: options.stdin }), ...ids }, ids.stdinFile);
    const serverTimeoutS = Math.ceil(options.timeoutMs / 1000) + SERVER_TIMEOUT_MARGIN_S;
    const execution = sandbox.process.executeCommand(text, undefined, undefined, serverTimeoutS);

    let timedOut = false;
    let stopping: Promise<void> | null = null;
    const stop = (): Promise<void> => {
      stopping ??= sandbox.process.executeCommand(killScript(ids.pidFile, this.killGraceMs), undefined, undefined, 30).then(
        () => undefined,
        (err: unknown) => {
          throw daytonaError(err, 'stop the command', this.config.api_url);
        },
      );
      return stopping;
    };
    const timer = setTimeout(() => {
      timedOut = true;
      // The killed command's own request then returns. A kill that fails leaves the command to the server-side
      // timeout (SERVER_TIMEOUT_MARGIN_S later), when its request returns all the same; the result says timed out.
      stop().catch((err: unknown) => void err);
    }, options.timeoutMs);
    const aborted = new Promise<never>((_, reject) => {
      const onAbort = (): void => {
        stop().then(
          () => reject(abortError(signal)),
          (err: unknown) => reject(new HearthError('aborted', `Interrupted, but the command may still be running in the sandbox: ${errorMessage(err)}`)),
        );
      };
      signal.addEventListener('abort', onAbort, { once: true });
      void execution.finally(() => signal.removeEventListener('abort', onAbort)).catch((err: unknown) => void err);
    });
    // Whichever wins, the other must not surface later as an unhandled rejection.
    aborted.catch((err: unknown) => void err);

    let response: Awaited<typeof execution>;
    try {
      response = await Promise.race([execution, aborted]);
    } catch (err) {
      if (signal.aborted) throw abortError(signal);
      throw daytonaError(err, 'run the command', this.config.api_url);
    } finally {
      clearTimeout(timer);
    }
    // The kill ends the command's own request, which can answer before the kill's does: an interrupt still rejects.
    if (signal.aborted) {
      await (stopping ?? Promise.resolve()).catch((err: unknown) => void err);
      throw abortError(signal);
    }
    return toResult(response.result, response.exitCode, ids.marker, timedOut, options);
  }

  /** Deletes the session's sandbox. Unknown ids (and sandboxes already gone) are fine. */
  async endSession(sessionId: string): Promise<void> {
    const sandbox = await this.sandboxes.take(sessionId);
    if (sandbox !== null) await this.deleteSandbox(sandbox);
  }

  /** Deletes every sandbox this backend created. Safe to call twice. */
  async dispose(): Promise<void> {
    await Promise.all((await this.sandboxes.takeAll()).map((sandbox) => this.deleteSandbox(sandbox)));
    const client = this.client;
    this.client = null;
    // A client that never opened (no key) has nothing to close; its error already reached the command that asked.
    if (client !== null) await (await client.catch(() => null))?.[Symbol.asyncDispose]();
  }

  private async createSandbox(sessionId: string): Promise<Sandbox> {
    const client = await this.connect();
    try {
      return await client.create(
        {
          ...(this.config.snapshot === undefined ? {} : { snapshot: this.config.snapshot }),
          labels: { hearth: 'true', session: sessionId },
          autoStopInterval: this.config.auto_stop_minutes,
          networkBlockAll: !this.config.network,
        },
        { timeout: CREATE_TIMEOUT_S },
      );
    } catch (err) {
      throw daytonaError(err, 'create the sandbox', this.config.api_url);
    }
  }

  private async deleteSandbox(sandbox: Sandbox): Promise<void> {
    try {
      await sandbox.delete();
    } catch (err) {
      // Already deleted (by hand, or by Daytona's auto-delete): the state we wanted.
      if ((err as { statusCode?: number }).statusCode !== 404) throw daytonaError(err, `delete sandbox ${sandbox.id}`, this.config.api_url);
    }
  }

  private connect(): Promise<Daytona> {
    this.client ??= (async () => {
      const apiKey = this.apiKey();
      const { Daytona: Client } = await import('@daytonaio/sdk');
      // Polling instead of the SDK's event socket: we wait on one create per session, not worth a long-lived connection.
      return new Client({ apiKey, apiUrl: this.config.api_url, ...(this.config.target === undefined ? {} : { target: this.config.target }), useDeprecatedPolling: true });
    })();
    this.client.catch((err: unknown) => {
      // Reported to the command that asked; forgetting it lets a key added later be picked up.
      void err;
      this.client = null;
    });
    return this.client;
  }

  private apiKey(): string {
    const fromEnv = this.ctx.env.DAYTONA_API_KEY?.trim();
    if (fromEnv) return fromEnv;
    let keychainProblem: string | null = null;
    try {
      const stored = this.readSecret(apiKeyAccount('daytona'))?.trim();
      if (stored) return stored;
    } catch (err) {
      if (!isHearthError(err, 'keychain_unavailable')) throw err;
      keychainProblem = err.message;
    }
    throw missingKeyError(this.config.api_url, keychainProblem);
  }
}

export function createDaytonaBackend(config: DaytonaSection, ctx: DaytonaBackendContext): DaytonaBackend {
  return new DaytonaBackend(config, ctx);
}

function toResult(raw: string, apiExitCode: number | undefined, marker: string, timedOut: boolean, options: ExecOptions): ExecResult {
  const output = new HeadTailBuffer(options.outputLimit);
  const stdout = new MarkedStdout(marker, (text) => output.push(text));
  stdout.push(Buffer.from(raw, 'utf8'));
  stdout.end();
  const text = output.toString();
  if (text.length > 0) options.onOutput?.(text);
  const status = stdout.status;
  return {
    // Without the trap line the shell was killed before it could report; the daemon's code is all there is.
    exitCode: status !== null && !timedOut ? status.exitCode : (apiExitCode ?? -1),
    output: text,
    timedOut,
    truncated: output.truncated,
    cwd: status !== null && status.cwd !== '' ? status.cwd : options.cwd,
  };
}
