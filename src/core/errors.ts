/**
 * Typed errors. Every failure that reaches a user carries a stable `code` a surface can branch on
 * and a message that says what to do about it (STYLE.md: "errors carry meaning").
 */
export type HearthErrorCode =
  // configuration and home
  | 'config_invalid'
  | 'config_io'
  // store and secrets
  | 'keychain_unavailable'
  | 'db_key_invalid'
  | 'db_wrong_key'
  | 'db_io'
  // models
  | 'model_connection'
  | 'model_http'
  | 'model_auth'
  | 'model_rate_limited'
  | 'model_timeout'
  | 'model_bad_response'
  | 'model_load_failed'
  /** The conversation no longer fits the model's context window. */
  | 'model_context_overflow'
  | 'model_host_crashed'
  | 'model_not_configured'
  | 'all_models_failed'
  // model manager (downloads, model files)
  /** A model source that is not an `hf:` URI, an http(s) URL or a local .gguf path, or that names no file. */
  | 'model_source_invalid'
  /** No download with that id. */
  | 'download_not_found'
  /** The file is already being downloaded or already exists, or the download is not in a state that allows the action. */
  | 'download_conflict'
  /** A transfer or its verification failed (network, HTTP status, disk space, checksum, not a GGUF file). */
  | 'download_failed'
  // agent
  | 'aborted'
  | 'tool_input_invalid'
  | 'unknown_tool'
  | 'session_not_found'
  // learning loop (curated memory, content scanning)
  /** A memory write would exceed the target's character budget; nothing was written. */
  | 'memory_full'
  /** `old_text` matched no memory entry. */
  | 'memory_no_match'
  /** `old_text` matched several memory entries; it must identify one. */
  | 'memory_ambiguous_match'
  /** The agent tried to replace or remove an entry the user wrote, confirmed or marked as a rule; it goes to the user as a pending change. */
  | 'memory_protected'
  /** No memory change (an agent removal or replacement) with that id. */
  | 'memory_change_not_found'
  /** A memory change cannot be undone: already undone, or the entry changed again since. */
  | 'memory_undo_conflict'
  /** The injection scanner refused the text (prompt injection, exfiltration, invisible Unicode). */
  | 'content_unsafe'
  // skills (skill_manage, curator)
  /** No skill (or archived skill) with that name. */
  | 'skill_not_found'
  /** The SKILL.md or the request fails validation; each problem is listed. Nothing was written. */
  | 'skill_invalid'
  /** The skill already exists or nearly duplicates another one; patch that one instead. */
  | 'skill_conflict'
  /** The change is not allowed: read-only (project) or user-owned skill, or a path outside the skill's allowed folders. */
  | 'skill_forbidden'
  // remote execution (ssh backend)
  /** The SSH server cannot be reached, or the connection dropped. */
  | 'ssh_connection'
  /** The server refused the configured key (identity_file or agent), or the key cannot be used as configured. */
  | 'ssh_auth'
  /** The host is not in known_hosts; never trusted silently: the message shows its fingerprint and how to add it. */
  | 'ssh_host_unknown'
  /** The host presented a key different from the one in known_hosts: possibly a man-in-the-middle. */
  | 'ssh_host_key_changed'
  /** The host presented a key marked @revoked in known_hosts. */
  | 'ssh_host_key_revoked'
  // execution backends (docker, ssh, …)
  /** The backend cannot be reached or set up: Docker daemon down, image missing, host unreachable. */
  | 'backend_unavailable'
  /** The execution environment failed under a command: the container died, the connection dropped. */
  | 'backend_failed'
  /** A sandbox service (Modal, Daytona) refused the credentials; the message says where to put them. */
  | 'backend_auth'
  // checkpoints
  /** No checkpoint with that number for this project. */
  | 'checkpoint_not_found'
  /** The shadow store could not snapshot, diff or restore (git missing, disk full, project too large). */
  | 'checkpoint_failed'
  | 'usage';

export class HearthError extends Error {
  readonly code: HearthErrorCode;
  /** Optional machine-readable details (HTTP status, config key, …). Never secrets. */
  readonly details: Record<string, unknown> | undefined;

  constructor(code: HearthErrorCode, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HearthError';
    this.code = code;
    this.details = options?.details;
  }
}

export function isHearthError(err: unknown, code?: HearthErrorCode): err is HearthError {
  return err instanceof HearthError && (code === undefined || err.code === code);
}

/** The error thrown when an AbortSignal fires; one shape everywhere so callers can test for it. */
export function abortError(signal?: AbortSignal): HearthError {
  const reason = signal?.reason instanceof Error ? signal.reason.message : 'interrupted';
  return new HearthError('aborted', `Interrupted: ${reason}`);
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
