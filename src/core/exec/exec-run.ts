import { StringDecoder } from 'node:string_decoder';
import { MarkedStdout, type ShellStatus } from './docker-run-script.js';
import { HeadTailBuffer } from './output-cap.js';

/** After the shell's EXIT-trap line, how long a background job may keep the output open before we stop reading. */
const PIPE_DRAIN_MS = 200;
/** After the sandbox was removed to stop a command, how long to wait for its output to notice. */
const FORCED_CLOSE_MS = 2000;

export interface ExecRunParams {
  marker: string;
  timeoutMs: number;
  signal: AbortSignal;
  outputLimit: number;
  onOutput?: (chunk: string) => void;
  /** Kills the command's process group from a second exec; false (or a rejection) when it could not. */
  stop: () => Promise<boolean>;
  /** How long `stop` may take to end the output before `forceStop` is used. */
  stopGiveUpMs: number;
  /** Ends the command by removing its sandbox (container). */
  forceStop: () => Promise<void>;
}

export interface ExecOutcome {
  /** From the shell's EXIT trap; null when the shell was killed or its stdout was redirected away. */
  status: ShellStatus | null;
  output: string;
  truncated: boolean;
  timedOut: boolean;
  /** We stopped it (timeout or interrupt). */
  stopped: boolean;
  /** The transport failed (the stream or RPC broke); null when the output ended normally or we stopped reading. */
  streamError: unknown;
}

/**
 * One command running in a sandbox exec, whatever carries its output (a Docker stream, Modal's streaming RPCs):
 * collects stdout through the cwd marker and stderr into one capped output, and stops the command on timeout or
 * interrupt — the kill script first, the whole sandbox when that fails or takes too long. The run is over when
 * the transport says its output ended, or a short drain after the shell's EXIT-trap line: a background job
 * (`server &`) may hold the output open long after the command itself finished.
 */
export class ExecRun {
  private finished = false;
  private timedOut = false;
  private stopping = false;
  private forced = false;
  private streamError: unknown = null;
  private readonly timers: NodeJS.Timeout[] = [];
  private drainStarted = false;
  private readonly output: HeadTailBuffer;
  private readonly stdoutText: MarkedStdout;
  private readonly stderrText = new StringDecoder('utf8');
  private readonly onAbort = (): void => this.stop();

  /** `release` ends the transport (destroy the stream, cancel the readers); `done` receives the outcome, once. */
  constructor(
    private readonly params: ExecRunParams,
    private readonly release: () => void,
    private readonly done: (outcome: ExecOutcome) => void,
  ) {
    this.output = new HeadTailBuffer(params.outputLimit);
    this.stdoutText = new MarkedStdout(params.marker, (text) => this.emit(text));
    this.timers.push(
      setTimeout(() => {
        this.timedOut = true;
        this.stop();
      }, params.timeoutMs),
    );
    params.signal.addEventListener('abort', this.onAbort, { once: true });
    if (params.signal.aborted) this.stop();
  }

  /** True once a stop was asked for: errors from the transport after that are the stop's doing. */
  get isStopping(): boolean {
    return this.stopping;
  }

  stdout(chunk: Buffer): void {
    this.stdoutText.push(chunk);
    if (this.stdoutText.status !== null && !this.drainStarted) {
      this.drainStarted = true;
      this.timers.push(setTimeout(() => this.finish(), PIPE_DRAIN_MS));
    }
  }

  stderr(chunk: Buffer): void {
    this.emit(this.stderrText.write(chunk));
  }

  /** The transport broke; the first error is kept for the caller to report. */
  fail(err: unknown): void {
    this.streamError ??= err;
  }

  finish(): void {
    if (this.finished) return;
    this.finished = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.params.signal.removeEventListener('abort', this.onAbort);
    this.release();
    this.stdoutText.end();
    this.emit(this.stderrText.end());
    this.done({
      status: this.stdoutText.status,
      output: this.output.toString(),
      truncated: this.output.truncated,
      timedOut: this.timedOut,
      stopped: this.stopping,
      streamError: this.streamError,
    });
  }

  private emit(text: string): void {
    if (text.length === 0) return;
    this.output.push(text);
    this.params.onOutput?.(text);
  }

  private stop(): void {
    if (this.stopping || this.finished) return;
    this.stopping = true;
    this.timers.push(setTimeout(() => this.forceStop(), this.params.stopGiveUpMs));
    this.params.stop().then(
      (killed) => {
        if (!killed) this.forceStop();
      },
      // The kill exec itself could not run (pids limit reached, sandbox gone): remove the sandbox instead.
      () => this.forceStop(),
    );
  }

  private forceStop(): void {
    if (this.forced || this.finished) return;
    this.forced = true;
    this.timers.push(setTimeout(() => this.finish(), FORCED_CLOSE_MS));
    this.params.forceStop().then(
      () => this.finish(),
      (err: unknown) => {
        // Nothing more can be done from here; the result still says the command was stopped.
        this.fail(err);
        this.finish();
      },
    );
  }
}
