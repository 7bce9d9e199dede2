import { homedir, constants as osConstants } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { Client, ClientChannel } from 'ssh2';
import type { HearthConfig } from '../config/schema.js';
import { HearthError, abortError, errorMessage } from '../errors.js';
import type { ExecOptions, ExecResult, ExecutionBackend } from './backend.js';
import { HeadTailBuffer } from './output-cap.js';
import { describe, openSshConnection } from './ssh-connection.js';
import type { SshTarget } from './ssh-connection.js';
import { ControlLineParser, buildRemoteCommand, killGroupCommand, newMarker } from './ssh-remote-script.js';

export interface SshBackendOptions extends Omit<SshTarget, 'connectTimeoutMs'> {
  /** Where a command starts when the directory it asks for does not exist remotely (default: the login directory). */
  remoteCwd?: string;
  /** Time between SIGTERM and SIGKILL when a command is stopped (default 1 s, as the local backend). */
  killGraceMs?: number;
  connectTimeoutMs?: number;
}

/** After the command reported its end, how long to wait for the channel to close (a background job may hold it open). */
const CHANNEL_DRAIN_MS = 200;
/** After a stopped command's process group is gone, how long to wait for sshd to close its channel. */
const STOPPED_CHANNEL_WAIT_MS = 1000;

/**
 * Runs commands on another machine over one reused SSH connection (re-opened if it dropped). Each
 * command is its own exec channel; `ExecOptions.cwd` and `ExecResult.cwd` are paths on the remote host.
 */
export class SshBackend implements ExecutionBackend {
  readonly name = 'ssh';
  private readonly target: SshTarget;
  private readonly remoteCwd: string | null;
  private readonly killGraceMs: number;
  private connecting: Promise<Client> | null = null;
  private disposed = false;

  constructor(options: SshBackendOptions) {
    this.target = { ...options, connectTimeoutMs: options.connectTimeoutMs ?? 15_000 };
    this.remoteCwd = options.remoteCwd ?? null;
    this.killGraceMs = options.killGraceMs ?? 1000;
  }

  async run(command: string, options: ExecOptions): Promise<ExecResult> {
    if (options.signal.aborted) throw abortError(options.signal);
    const marker = newMarker();
    const remote = buildRemoteCommand(command, marker, {
      cwd: options.cwd,
      fallbackCwd: this.remoteCwd,
      env: options.env ?? {},
      hostLabel: this.target.host,
    });
    const client = await this.connection();
    if (options.signal.aborted) throw abortError(options.signal);
    const channel = await openExec(client, remote, this.target);
    return this.drive(client, channel, new ControlLineParser(marker), options);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const pending = this.connecting;
    this.connecting = null;
    if (pending === null) return;
    try {
      (await pending).end();
    } catch (err) {
      // A connection that never opened has nothing to close; its error was already given to the run that asked for it.
      void err;
    }
  }

  private connection(): Promise<Client> {
    if (this.disposed) return Promise.reject(new HearthError('ssh_connection', 'the SSH backend was disposed'));
    if (this.connecting !== null) return this.connecting;
    const opening: Promise<Client> = openSshConnection(this.target).then(
      (client) => {
        client.once('close', () => {
          if (this.connecting === opening) this.connecting = null;
        });
        // After `ready`, an error always ends in `close` (handled above); runs in flight see their channel close.
        client.on('error', (err) => void err);
        return client;
      },
      (err: unknown) => {
        if (this.connecting === opening) this.connecting = null;
        throw err;
      },
    );
    this.connecting = opening;
    return opening;
  }

  private drive(client: Client, channel: ClientChannel, parser: ControlLineParser, options: ExecOptions): Promise<ExecResult> {
    const { signal } = options;
    const output = new HeadTailBuffer(options.outputLimit);
    const emit = (text: string): void => {
      if (text === '') return;
      output.push(text);
      options.onOutput?.(text);
    };
    const stdout = new StringDecoder('utf8');
    const stderr = new StringDecoder('utf8');
    let exit: { code: number | null; signalName: string | null } | null = null;
    let timedOut = false;
    let stopping: Promise<void> | null = null;
    let drainTimer: NodeJS.Timeout | undefined;

    channel.on('data', (data: Buffer) => {
      emit(parser.push(stdout.write(data)));
      // The command is done; only a background job can still hold the channel open.
      if (parser.end !== null && drainTimer === undefined) drainTimer = setTimeout(() => channel.close(), CHANNEL_DRAIN_MS);
    });
    channel.stderr.on('data', (data: Buffer) => emit(stderr.write(data)));
    channel.on('exit', (code: number | null, signalName?: string) => {
      exit = { code, signalName: signalName ?? null };
    });
    // Without stdin the channel gets EOF at once, so a command that reads input never waits.
    channel.end(options.stdin ?? '');

    let settle: () => void = () => undefined;
    const stop = (): void => {
      if (stopping !== null) return;
      stopping = this.stopRemote(client, channel, parser).then(
        // The group is dead; if sshd still holds the channel open, stop waiting for it rather than hang.
        () => void setTimeout(() => settle(), STOPPED_CHANNEL_WAIT_MS),
        (err: unknown) => {
          emit(`\n[hearth: could not stop the remote command's process group: ${errorMessage(err)}]\n`);
          settle();
        },
      );
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    signal.addEventListener('abort', stop, { once: true });

    return new Promise<ExecResult>((resolve, reject) => {
      let settled = false;
      settle = (): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearTimeout(drainTimer);
        signal.removeEventListener('abort', stop);
        emit(parser.push(stdout.end()));
        emit(parser.flush());
        emit(stderr.end());
        void (stopping ?? Promise.resolve()).then(() => {
          if (signal.aborted) return reject(abortError(signal));
          const finished: { code: number | null; signalName: string | null } | null = exit;
          let exitCode: number;
          if (parser.end !== null && !timedOut) exitCode = parser.end.exitCode;
          else if (finished !== null) exitCode = finished.code ?? 128 + signalNumber(finished.signalName);
          else if (timedOut) exitCode = 128 + signalNumber('KILL');
          else {
            return reject(
              new HearthError('ssh_connection', `The connection to ${describe(this.target)} dropped while the command was running; it may still be running there.`),
            );
          }
          resolve({
            exitCode,
            output: output.toString(),
            timedOut,
            truncated: output.truncated,
            cwd: parser.end !== null && parser.end.cwd !== '' ? parser.end.cwd : options.cwd,
          });
        });
      };
      channel.once('close', settle);
    });
  }

  /**
   * Closing a channel does not stop a remote command (sshd only closes its pipes, and `sleep` never
   * writes), and against OpenSSH 9.2 a `signal` request stopped nothing either (both checked by hand
   * with `sleep 30 | cat`); the request is still sent for servers that honour it. What does stop it:
   * a second exec signals the whole process group the wrapper reported (TERM, then KILL after the grace).
   */
  private async stopRemote(client: Client, channel: ClientChannel, parser: ControlLineParser): Promise<void> {
    try {
      channel.signal('TERM');
    } catch (err) {
      // The channel already closed: the command has ended by itself; the group kill below still runs.
      void err;
    }
    if (parser.pgid === null) await waitFor(() => parser.pgid !== null, 2000);
    try {
      if (parser.pgid !== null) await runQuietly(client, killGroupCommand(parser.pgid, this.killGraceMs), this.target);
    } finally {
      channel.close();
    }
  }
}

export interface CreateSshBackendContext {
  /** The user's home directory, for `~` in identity_file and known_hosts (default: os.homedir()). */
  home?: string;
  /** Environment to read SSH_AUTH_SOCK from (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Passphrase for an encrypted identity_file (e.g. from the keychain). */
  passphrase?: string;
  killGraceMs?: number;
}

/** Builds the backend from `terminal.ssh`; a clear config error when host or user is missing. */
export function createSshBackend(config: HearthConfig['terminal']['ssh'], context: CreateSshBackendContext = {}): SshBackend {
  const missing = (['host', 'user'] as const).filter((key) => config[key] === undefined);
  if (config.host === undefined || config.user === undefined) {
    throw new HearthError(
      'config_invalid',
      `terminal.backend is "ssh" but terminal.ssh.${missing.join(' and terminal.ssh.')} ${missing.length > 1 ? 'are' : 'is'} not set: add them to config.yaml (terminal: { ssh: { host: build.example.com, user: me } }) or set terminal.backend to local.`,
      { details: { key: `terminal.ssh.${missing[0] ?? 'host'}` } },
    );
  }
  const home = context.home ?? homedir();
  const expand = (path: string): string => (path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path);
  const agentSocket = (context.env ?? process.env).SSH_AUTH_SOCK;
  return new SshBackend({
    host: config.host,
    port: config.port,
    user: config.user,
    knownHostsFile: expand(config.known_hosts),
    ...(config.identity_file === undefined ? {} : { identityFile: expand(config.identity_file) }),
    ...(agentSocket === undefined ? {} : { agentSocket }),
    ...(context.passphrase === undefined ? {} : { passphrase: context.passphrase }),
    ...(config.cwd === undefined ? {} : { remoteCwd: config.cwd }),
    ...(context.killGraceMs === undefined ? {} : { killGraceMs: context.killGraceMs }),
  });
}

function openExec(client: Client, command: string, target: SshTarget): Promise<ClientChannel> {
  return new Promise((resolve, reject) => {
    client.exec(command, (err, channel) => {
      if (err) reject(new HearthError('ssh_connection', `${describe(target)} refused to start a command: ${err.message}`, { cause: err }));
      else resolve(channel);
    });
  });
}

/** Runs a helper command to completion, ignoring its output (the kill script prints nothing and always exits 0). */
async function runQuietly(client: Client, command: string, target: SshTarget): Promise<void> {
  const channel = await openExec(client, command, target);
  channel.end();
  channel.resume();
  channel.stderr.resume();
  await new Promise<void>((resolve) => channel.once('close', () => resolve()));
}

function waitFor(condition: () => boolean, limitMs: number): Promise<void> {
  return new Promise((resolve) => {
    const started = Date.now();
    const poll = (): void => {
      if (condition() || Date.now() - started >= limitMs) resolve();
      else setTimeout(poll, 20);
    };
    poll();
  });
}

function signalNumber(name: string | null): number {
  if (name === null) return 0;
  const key = (name.startsWith('SIG') ? name : `SIG${name}`) as NodeJS.Signals;
  return osConstants.signals[key] ?? 0;
}
