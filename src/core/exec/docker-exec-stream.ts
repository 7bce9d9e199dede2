import type { Duplex } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type Dockerode from 'dockerode';
import { HearthError } from '../errors.js';
import { DockerStreamDemuxer } from './docker-demux.js';
import { MarkedStdout, type ShellStatus } from './docker-run-script.js';
import { HeadTailBuffer } from './output-cap.js';

/** After the shell's EXIT-trap line, how long a background job may keep the stream open before we stop reading. */
const PIPE_DRAIN_MS = 200;
/** After the container was removed to stop a command, how long to wait for its stream to notice. */
const FORCED_STREAM_CLOSE_MS = 2000;

export interface CollectParams {
  stream: Duplex;
  marker: string;
  stdin: string | undefined;
  timeoutMs: number;
  signal: AbortSignal;
  outputLimit: number;
  onOutput?: (chunk: string) => void;
  /** Kills the command's process group; false (or a rejection) when it could not. */
  stop: () => Promise<boolean>;
  /** How long `stop` may take to end the stream before `forceStop` is used. */
  stopGiveUpMs: number;
  /** Ends the command by removing its container. */
  forceStop: () => Promise<void>;
}

export interface CollectOutcome {
  /** From the shell's EXIT trap; null when the shell was killed or its stdout was redirected away. */
  status: ShellStatus | null;
  output: string;
  truncated: boolean;
  timedOut: boolean;
  /** We stopped it (timeout or interrupt). */
  stopped: boolean;
  streamError: Error | null;
}

/**
 * Reads one exec's output until the command is over, and stops it on timeout or interrupt. "Over" is
 * the stream closing, or the shell's EXIT-trap line plus a short drain: a background job (`server &`)
 * may hold the stream open long after the command itself has finished.
 */
export function collectExec(params: CollectParams): Promise<CollectOutcome> {
  const { stream, signal } = params;
  const output = new HeadTailBuffer(params.outputLimit);
  const emit = (text: string): void => {
    if (text.length === 0) return;
    output.push(text);
    params.onOutput?.(text);
  };
  const stdout = new MarkedStdout(params.marker, emit);
  const stderr = new StringDecoder('utf8');

  return new Promise<CollectOutcome>((resolve) => {
    let finished = false;
    let timedOut = false;
    let stopping = false;
    let forced = false;
    let streamError: Error | null = null;
    let drainTimer: NodeJS.Timeout | null = null;
    let giveUpTimer: NodeJS.Timeout | null = null;
    let forcedCloseTimer: NodeJS.Timeout | null = null;

    const finish = (): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timeoutTimer);
      for (const timer of [drainTimer, giveUpTimer, forcedCloseTimer]) if (timer !== null) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      stream.removeListener('data', onData);
      stream.destroy();
      stdout.end();
      emit(stderr.end());
      resolve({ status: stdout.status, output: output.toString(), truncated: output.truncated, timedOut, stopped: stopping, streamError });
    };

    const forceStop = (): void => {
      if (forced || finished) return;
      forced = true;
      forcedCloseTimer = setTimeout(finish, FORCED_STREAM_CLOSE_MS);
      params.forceStop().catch((err: unknown) => {
        // Nothing more can be done from here; the command's result still says it was stopped.
        streamError ??= err instanceof Error ? err : new HearthError('backend_failed', String(err));
        finish();
      });
    };

    const stop = (): void => {
      if (stopping || finished) return;
      stopping = true;
      giveUpTimer = setTimeout(forceStop, params.stopGiveUpMs);
      params.stop().then(
        (killed) => {
          if (!killed) forceStop();
        },
        // The kill exec itself could not run (pids limit reached, container gone): remove the container instead.
        () => forceStop(),
      );
    };

    const demux = new DockerStreamDemuxer(
      (chunk) => {
        stdout.push(chunk);
        if (stdout.status !== null && drainTimer === null) drainTimer = setTimeout(finish, PIPE_DRAIN_MS);
      },
      (chunk) => emit(stderr.write(chunk)),
    );
    const onData = (data: Buffer): void => demux.push(data);
    const onAbort = (): void => stop();
    const timeoutTimer = setTimeout(() => {
      timedOut = true;
      stop();
    }, params.timeoutMs);

    stream.on('data', onData);
    stream.once('end', finish);
    stream.once('close', finish);
    stream.once('error', (err: Error) => {
      streamError = err;
      finish();
    });
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) stop();
    if (params.stdin !== undefined) stream.end(params.stdin);
  });
}

/** Waits until a stream has closed, discarding what it carries (the kill exec's output is of no interest). */
export function waitForStreamEnd(stream: Duplex): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => resolve();
    stream.once('end', done);
    stream.once('close', done);
    stream.once('error', done);
    stream.resume();
  });
}

/**
 * The exit status from Docker when the shell's own report is missing. The exec may still be winding
 * down for a moment after its stream closed, so it is polled briefly.
 */
export async function execExitCode(exec: Dockerode.Exec, stopped: boolean): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    let info: Dockerode.ExecInspectInfo;
    try {
      info = await exec.inspect();
    } catch (err) {
      // The container was removed to stop the command: it died of SIGKILL, as bash would report it.
      if (stopped) return 128 + 9;
      throw err;
    }
    if (!info.Running && info.ExitCode !== null) return info.ExitCode;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  if (stopped) return 128 + 9;
  throw new HearthError('backend_failed', 'The command\'s output closed but Docker still reports it running.');
}
