/**
 * Where shell commands run. The terminal tool only sees this interface, so a Docker, SSH or sandbox
 * backend can replace the local one without the tool or the agent loop changing.
 */
export interface ExecOptions {
  /** Directory the command starts in (the previous command's final directory, usually). */
  cwd: string;
  /** Extra environment variables, layered over the backend's base environment. */
  env?: Record<string, string>;
  /** Text written to the command's stdin; without it stdin is empty (commands never wait for input). */
  stdin?: string;
  /** The whole process group is killed when this elapses. */
  timeoutMs: number;
  /** Interrupt: kills the whole process group, then `run` rejects with HearthError('aborted'). */
  signal: AbortSignal;
  /** Live output (stdout and stderr interleaved as they arrive), for progress display. */
  onOutput?: (chunk: string) => void;
  /** Most characters of output kept; beyond it the head and tail are kept with a note between. */
  outputLimit: number;
  /** The agent session the command belongs to, so a backend can keep one sandbox (container) per session. */
  sessionId?: string;
}

export interface ExecResult {
  /** Exit status; 128 + signal number when the shell died of a signal (as bash reports it). */
  exitCode: number;
  /** stdout and stderr combined, capped to `outputLimit`. */
  output: string;
  timedOut: boolean;
  /** True when output was cut to fit `outputLimit`. */
  truncated: boolean;
  /** The working directory when the command finished, so the next command can start there. */
  cwd: string;
}

export interface ExecutionBackend {
  /** Short name for display and config (`local`, `docker`, …). */
  readonly name: string;
  /**
   * True when commands run in directories of this machine, so the terminal tool can check a directory exists
   * before running there. A container or a remote host checks (and falls back) itself.
   */
  readonly localPaths?: boolean;
  /**
   * True when commands see this machine's workspace at the same path (local, a container with it mounted),
   * so what they change there is what a checkpoint of the workspace can restore.
   */
  readonly sharesWorkspace?: boolean;
  run(command: string, options: ExecOptions): Promise<ExecResult>;
  /** Release containers, connections, temp files. Safe to call twice. */
  dispose?(): Promise<void>;
  /** The session is over: release what the backend kept for it (its container). Safe for unknown ids. */
  endSession?(sessionId: string): Promise<void>;
}
