import { StringDecoder } from 'node:string_decoder';
import { MarkedStdout, type ShellStatus } from './docker-run-script.js';
import { HeadTailBuffer } from './output-cap.js';

/** After the shell's EXIT-trap line, how long a background job may keep stdout open before we stop reading. */
const PIPE_DRAIN_MS = 200;
/** After the sandbox was terminated to stop a command, how long to wait for its streams to notice. */
const FORCED_STREAM_CLOSE_MS = 2000;

export interface ModalCollectParams {
  stdout: ReadableStream<Uint8Array>;
  stderr: ReadableStream<Uint8Array>;
  marker: string;
  timeoutMs: number;
  signal: AbortSignal;
  outputLimit: number;
  onOutput?: (chunk: string) => void;
  /** Kills the command's process group from a second exec; false (or a rejection) when it could not. */
  stop: () => Promise<boolean>;
  /** How long `stop` may take to end the streams before `forceStop` is used. */
  stopGiveUpMs: number;
  /** Ends the command by terminating its sandbox. */
  forceStop: () => Promise<void>;
}

export interface ModalCollectOutcome {
  /** From the shell's EXIT trap; null when the shell was killed or its stdout was redirected away. */
  status: ShellStatus | null;
  output: string;
  truncated: boolean;
  timedOut: boolean;
  /** We stopped it (timeout or interrupt). */
  stopped: boolean;
  /** A stream failed (the RPC broke); null when both ended normally or we stopped reading. */
  streamError: unknown;
}

/**
 * Reads one exec's stdout and stderr (each its own streaming RPC) until the command is over, and stops
 * it on timeout or interrupt. "Over" is both streams ending, or the shell's EXIT-trap line plus a short
 * drain: a background job (`server &`) may hold stdout open long after the command itself finished.
 */
export function collectModalExec(params: ModalCollectParams): Promise<ModalCollectOutcome> {
  const { signal } = params;
  const output = new HeadTailBuffer(params.outputLimit);
  const emit = (text: string): void => {
    if (text.length === 0) return;
    output.push(text);
    params.onOutput?.(text);
  };
  const stdout = new MarkedStdout(params.marker, emit);
  const stderr = new StringDecoder('utf8');
  const readers = [params.stdout.getReader(), params.stderr.getReader()] as const;

  return new Promise<ModalCollectOutcome>((resolve) => {
    let finished = false;
    let timedOut = false;
    let stopping = false;
    let forced = false;
    let streamError: unknown = null;
    let open = 2;
    const timers: NodeJS.Timeout[] = [];
    let drainTimer: NodeJS.Timeout | null = null;

    const finish = (): void => {
      if (finished) return;
      finished = true;
      for (const timer of [timeoutTimer, drainTimer, ...timers]) if (timer !== null) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      for (const reader of readers) {
        // Cancelling ends the SDK's streaming RPC; a reader that already ended has nothing to cancel.
        reader.cancel().catch((err: unknown) => void err);
      }
      stdout.end();
      emit(stderr.end());
      resolve({ status: stdout.status, output: output.toString(), truncated: output.truncated, timedOut, stopped: stopping, streamError });
    };

    const forceStop = (): void => {
      if (forced || finished) return;
      forced = true;
      timers.push(setTimeout(finish, FORCED_STREAM_CLOSE_MS));
      params.forceStop().then(finish, (err: unknown) => {
        // Nothing more can be done from here; the result still says the command was stopped.
        streamError ??= err;
        finish();
      });
    };

    const stop = (): void => {
      if (stopping || finished) return;
      stopping = true;
      timers.push(setTimeout(forceStop, params.stopGiveUpMs));
      params.stop().then(
        (killed) => {
          if (!killed) forceStop();
        },
        // The kill exec could not run (the sandbox is overloaded or gone): terminate the sandbox instead.
        () => forceStop(),
      );
    };

    const pump = async (reader: ReadableStreamDefaultReader<Uint8Array>, take: (chunk: Buffer) => void): Promise<void> => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done || finished) break;
          take(Buffer.from(value));
        }
      } catch (err) {
        if (!finished && !stopping) streamError ??= err;
      }
      open -= 1;
      if (open === 0) finish();
    };

    const onAbort = (): void => stop();
    const timeoutTimer = setTimeout(() => {
      timedOut = true;
      stop();
    }, params.timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) stop();

    void pump(readers[0], (chunk) => {
      stdout.push(chunk);
      if (stdout.status !== null && drainTimer === null) drainTimer = setTimeout(finish, PIPE_DRAIN_MS);
    });
    void pump(readers[1], (chunk) => emit(stderr.write(chunk)));
  });
}
