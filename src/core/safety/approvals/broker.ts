/**
 * The approval broker: every command a tool wants to run passes through `check`, whichever surface
 * started the session. Surfaces plug in a `prompt` handler that asks the user; with none attached (or
 * no answer before the timeout) requests fail closed.
 *
 * Not only shell commands: file tools ask before writing where a command would need approval (`kind:
 * 'file_write'`), and the agent changing itself (scheduling jobs, installing skills, editing SOUL.md or the
 * approval settings) asks too (`kind: 'self_modification'`).
 */
export type ApprovalDecision = 'once' | 'session' | 'always' | 'deny';

export type Verdict = 'safe' | 'dangerous' | 'hardline';

export interface Classification {
  verdict: Verdict;
  reasons: string[];
  /**
   * Set when what the action changes lies beyond a workspace checkpoint's reach (a path outside the
   * workspace, a remote branch, processes, services, cloud resources, a database), so no snapshot can undo it.
   * Surfaces say "this cannot be undone" instead of offering /rollback. Absent means: nothing flagged, or
   * only workspace files, which a checkpoint taken before the action restores.
   */
  irreversible?: boolean;
}

export interface ApprovalRequest {
  id: string;
  sessionId: string;
  command: string;
  reasons: string[];
  /** What the user is asked about; surfaces word the question by it ("Run this command?", "Write this file?"). */
  kind: ActionKind;
  /** Epoch ms after which an unanswered request is denied. */
  expiresAt: number;
  /** From the classification: a checkpoint cannot undo this (see Classification.irreversible). */
  irreversible?: boolean;
}

/** Who is behind the session: the user at a surface, a subagent of one, or a scheduled job with nobody watching. */
export type SessionOrigin = 'user' | 'subagent' | 'cron';

/** `message`: the agent writing to a chat it has not written to before (send_message, send_file). */
export type ActionKind = 'command' | 'file_write' | 'self_modification' | 'message';

export interface CheckOptions {
  /** What is checked; `command` (the default) is a shell command, `file_write` a path, `self_modification` a description. */
  kind?: ActionKind;
  /** The command's working directory, so relative paths in it resolve (inside the workspace or not). */
  cwd?: string;
  /** Default `user`. Subagents and cron are denied dangerous actions unless configured otherwise. */
  origin?: SessionOrigin;
}

export interface ApprovalOutcome {
  approved: boolean;
  /**
   * Why: the decision, 'safe', 'yolo', 'sandboxed', 'allowlisted', 'hardline', 'timeout', 'no_surface',
   * 'smart_approved', 'smart_denied', 'origin_denied', 'origin_allowed', 'aborted', 'prompt_failed: …'.
   */
  reason: string;
  classification: Classification;
}

export interface ApprovalBroker {
  check(sessionId: string, command: string, signal: AbortSignal, options?: CheckOptions): Promise<ApprovalOutcome>;
}
