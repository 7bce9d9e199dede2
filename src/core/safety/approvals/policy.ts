import { randomUUID } from 'node:crypto';
import { abortError, errorMessage } from '../../errors.js';
import type { ApprovalBroker, ApprovalDecision, ApprovalOutcome, ApprovalRequest, Classification } from './broker.js';
import { classifyCommand, type DetectorContext } from './detector.js';

/**
 * `manual`: dangerous commands ask the user. `smart`: a model judges them first and the user is asked only
 * when it is unsure. `off` (yolo): dangerous commands run; hardline ones never do.
 */
export type ApprovalMode = 'manual' | 'smart' | 'off';

/**
 * Asks the user. `signal` fires when the broker stops waiting (timeout or interrupt) so the surface can
 * withdraw its question.
 */
export type ApprovalPromptHandler = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalDecision>;

/** One audit record per command checked. */
export interface ApprovalRecord {
  requestId: string | null;
  sessionId: string;
  command: string;
  outcome: ApprovalOutcome;
  /** Set when an "always" answer was granted but could not be saved; the surface must show it. */
  persistError?: string;
  at: number;
}

export interface ApprovalPolicyOptions {
  mode?: ApprovalMode;
  /** How long a question waits for an answer before it is denied (default 60 s, fail closed). */
  timeoutMs?: number;
  /** Reasons the user approved "always", loaded from config. */
  allowlist?: readonly string[];
  /** Persists the allowlist after an "always" answer (config.yaml `approvals.allowlist`). */
  saveAllowlist?: (allowlist: string[]) => void | Promise<void>;
  onDecision?: (record: ApprovalRecord) => void;
  classify?: (command: string, context?: DetectorContext) => Classification;
  /**
   * Where commands run, so recursive deletes inside the workspace need no approval. A function is asked
   * per check, so it can give each session's current directory; without a `cwd` relative paths count as
   * outside the workspace.
   */
  detectorContext?: DetectorContext | ((sessionId: string) => DetectorContext);
  /**
   * Commands run in a disposable sandbox (the docker backend with `auto_approve`): what is not hardline runs
   * without asking, because it can only harm the container and the mounted workspace.
   */
  sandboxed?: boolean;
  now?: () => number;
}

/**
 * The approval policy every command passes through. Approvals are remembered per detector reason, as
 * Hermes does per pattern: approving a recursive delete "for the session" approves later recursive
 * deletes in that session, and a command is pre-approved only when every one of its reasons is.
 */
export class ApprovalPolicyBroker implements ApprovalBroker {
  private modeValue: ApprovalMode;
  private readonly timeoutMs: number;
  private readonly allowlist: Set<string>;
  private readonly sessionApprovals = new Map<string, Set<string>>();
  private promptHandler: ApprovalPromptHandler | null = null;
  private readonly options: ApprovalPolicyOptions;

  constructor(options: ApprovalPolicyOptions = {}) {
    this.options = options;
    this.modeValue = options.mode ?? 'manual';
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.allowlist = new Set(options.allowlist ?? []);
  }

  get mode(): ApprovalMode {
    return this.modeValue;
  }

  setMode(mode: ApprovalMode): void {
    this.modeValue = mode;
  }

  /** A surface attaches the function that asks its user; `null` detaches (requests then fail closed). */
  setPromptHandler(handler: ApprovalPromptHandler | null): void {
    this.promptHandler = handler;
  }

  /** Drops a session's "for this session" approvals (the session ended). */
  forgetSession(sessionId: string): void {
    this.sessionApprovals.delete(sessionId);
  }

  /** Replaces the "always" reasons (the user edited the allowlist in settings). */
  setAllowlist(entries: readonly string[]): void {
    this.allowlist.clear();
    for (const entry of entries) this.allowlist.add(entry);
  }

  allowlistEntries(): string[] {
    return [...this.allowlist];
  }

  async check(sessionId: string, command: string, signal: AbortSignal): Promise<ApprovalOutcome> {
    if (signal.aborted) throw abortError(signal);
    const context = this.options.detectorContext;
    const classification = (this.options.classify ?? classifyCommand)(command, typeof context === 'function' ? context(sessionId) : context);
    const decided = (reason: string, approved: boolean, requestId: string | null = null, persistError?: string): ApprovalOutcome => {
      const outcome = { approved, reason, classification };
      this.record({ requestId, sessionId, command, outcome, ...(persistError === undefined ? {} : { persistError }), at: this.now() });
      return outcome;
    };
    if (classification.verdict === 'safe') return decided('safe', true);
    if (classification.verdict === 'hardline') return decided('hardline', false);
    if (this.modeValue === 'off') return decided('yolo', true);
    if (this.options.sandboxed === true) return decided('sandboxed', true);
    if (classification.reasons.every((r) => this.allowlist.has(r))) return decided('allowlisted', true);
    const approvedInSession = this.sessionApprovals.get(sessionId);
    if (approvedInSession !== undefined && classification.reasons.every((r) => approvedInSession.has(r))) return decided('session', true);

    const request: ApprovalRequest = { id: randomUUID(), sessionId, command, reasons: classification.reasons, kind: 'command', expiresAt: this.now() + this.timeoutMs };
    const handler = this.promptHandler;
    if (handler === null) return decided('no_surface', false, request.id);

    const answer = await this.ask(handler, request, signal);
    if (answer.kind === 'aborted') {
      decided('aborted', false, request.id);
      throw abortError(signal);
    }
    if (answer.kind === 'timeout') return decided('timeout', false, request.id);
    if (answer.kind === 'failed') return decided(`prompt_failed: ${answer.message}`, false, request.id);

    const decision = answer.decision;
    if (decision === 'deny') return decided('deny', false, request.id);
    if (decision === 'session' || decision === 'always') {
      const set = this.sessionApprovals.get(sessionId) ?? new Set<string>();
      for (const r of classification.reasons) set.add(r);
      this.sessionApprovals.set(sessionId, set);
    }
    if (decision === 'always') {
      for (const r of classification.reasons) this.allowlist.add(r);
      try {
        await this.options.saveAllowlist?.([...this.allowlist]);
      } catch (err) {
        // The user's answer still stands for this session; the audit record carries the failure to the surface.
        return decided('always', true, request.id, `the approval could not be saved: ${errorMessage(err)}`);
      }
    }
    return decided(decision, true, request.id);
  }

  private ask(
    handler: ApprovalPromptHandler,
    request: ApprovalRequest,
    signal: AbortSignal,
  ): Promise<AskResult> {
    const giveUp = new AbortController();
    return new Promise((resolve) => {
      const finish = (result: AskResult): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        if (result.kind !== 'answer') giveUp.abort(new Error(result.kind));
        resolve(result);
      };
      const timer = setTimeout(() => finish({ kind: 'timeout' }), this.timeoutMs);
      const onAbort = (): void => finish({ kind: 'aborted' });
      signal.addEventListener('abort', onAbort, { once: true });
      handler(request, giveUp.signal).then(
        (decision) => finish(isDecision(decision) ? { kind: 'answer', decision } : { kind: 'failed', message: `not a decision: ${String(decision)}` }),
        (err: unknown) => finish({ kind: 'failed', message: errorMessage(err) }),
      );
    });
  }

  private record(record: ApprovalRecord): void {
    this.options.onDecision?.(record);
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

type AskResult = { kind: 'answer'; decision: ApprovalDecision } | { kind: 'timeout' } | { kind: 'aborted' } | { kind: 'failed'; message: string };

function isDecision(value: unknown): value is ApprovalDecision {
  return value === 'once' || value === 'session' || value === 'always' || value === 'deny';
}
