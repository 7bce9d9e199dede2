import { randomUUID } from 'node:crypto';
import { abortError, errorMessage } from '../../errors.js';
import { askUser, type ApprovalPromptHandler, type AskedApproval } from './ask-user.js';
import type { ActionKind, ApprovalBroker, ApprovalOutcome, ApprovalRequest, CheckOptions, Classification, SessionOrigin } from './broker.js';
import { classifyCommand, classifyFileWrite, type DetectorContext } from './detector.js';
import { REASONS } from './reasons.js';
import type { CommandJudge } from './smart-judge.js';

export type { ApprovalPromptHandler, AskedApproval } from './ask-user.js';

/**
 * What a tool call's check may add to `CheckOptions`: the agent loop passes the id of the call that asks, so the
 * question a surface shows belongs to that call's card.
 */
export type ToolCheckOptions = CheckOptions & { callId?: string };

/**
 * `manual`: dangerous commands ask the user. `smart`: a model judges them first and the user is asked only
 * when it is unsure. `off` (yolo): dangerous commands run; hardline ones never do.
 */
export type ApprovalMode = 'manual' | 'smart' | 'off';

/** One audit record per action checked. */
export interface ApprovalRecord {
  requestId: string | null;
  sessionId: string;
  command: string;
  kind: ActionKind;
  origin: SessionOrigin;
  outcome: ApprovalOutcome;
  /** Set when an "always" answer was granted but could not be saved; the surface must show it. */
  persistError?: string;
  /** What the smart-mode judge said, when it was asked. */
  judged?: string;
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
   * per check, so it can give each session's current directory; a check's own `cwd` wins over both.
   */
  detectorContext?: DetectorContext | ((sessionId: string) => DetectorContext);
  /** Where file tools write (always this machine, whatever the terminal backend); default: `detectorContext`. */
  fileContext?: DetectorContext;
  /**
   * Commands run in a disposable sandbox (a container backend with `auto_approve`): commands that are not
   * hardline run without asking, because they can only harm the sandbox and the mounted workspace. File
   * tools write this machine's files, and self-modification changes Hearth itself, so neither is covered.
   */
  sandboxed?: boolean;
  /** Smart mode's judge; without one smart mode asks the user like manual mode. */
  judge?: CommandJudge;
  /** `approvals.subagents`, `approvals.cron`: what happens to dangerous actions nobody at a surface started. */
  origins?: { subagent: 'deny' | 'ask'; cron: 'deny' | 'allow' };
  /** `approvals.self_modification`: `allow` lets the agent change Hearth's settings, persona, skills and schedule unasked. */
  selfModification?: 'ask' | 'allow';
  now?: () => number;
}

/** Reasons that mean "the agent is changing Hearth itself": never judged by a model, never sandboxed away. */
const SELF_REASONS: ReadonlySet<string> = new Set([REASONS.selfModification, REASONS.scheduleJob]);

/**
 * The approval policy every action passes through. Approvals are remembered per detector reason, as
 * Hermes does per pattern: approving a recursive delete "for the session" approves later recursive
 * deletes in that session, and an action is pre-approved only when every one of its reasons is.
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

  /** How an action would be classified here (workspace, cwd, HEARTH_HOME known), without deciding anything. */
  classify(sessionId: string, command: string, options: CheckOptions = {}): Classification {
    const kind = options.kind ?? 'command';
    if (kind === 'self_modification') return { verdict: 'dangerous', reasons: [REASONS.selfModification] };
    // A sent message cannot be taken back, and who receives it is the whole question.
    if (kind === 'message') return { verdict: 'dangerous', reasons: [REASONS.newRecipient], irreversible: true };
    const base = this.options.detectorContext;
    const commandContext = typeof base === 'function' ? base(sessionId) : base;
    if (kind === 'file_write') return classifyFileWrite(command, this.options.fileContext ?? commandContext);
    const context = { ...commandContext, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) };
    return (this.options.classify ?? classifyCommand)(command, context);
  }

  async check(sessionId: string, command: string, signal: AbortSignal, options: ToolCheckOptions = {}): Promise<ApprovalOutcome> {
    if (signal.aborted) throw abortError(signal);
    const kind = options.kind ?? 'command';
    const origin = options.origin ?? 'user';
    const classification = this.classify(sessionId, command, options);
    let judged: string | undefined;
    const decided = (reason: string, approved: boolean, requestId: string | null = null, persistError?: string): ApprovalOutcome => {
      const outcome = { approved, reason, classification };
      this.options.onDecision?.({
        requestId, sessionId, command, kind, origin, outcome, at: this.now(),
        ...(persistError === undefined ? {} : { persistError }),
        ...(judged === undefined ? {} : { judged }),
      });
      return outcome;
    };
    const { reasons } = classification;
    const changesHearth = reasons.some((r) => SELF_REASONS.has(r));
    if (classification.verdict === 'safe') return decided('safe', true);
    if (classification.verdict === 'hardline') return decided('hardline', false);
    if (changesHearth && reasons.every((r) => SELF_REASONS.has(r)) && this.options.selfModification === 'allow') return decided('self_modification_allowed', true);
    if (this.modeValue === 'off') return decided('yolo', true);
    if (this.options.sandboxed === true && kind === 'command' && !changesHearth) return decided('sandboxed', true);
    if (reasons.every((r) => this.allowlist.has(r))) return decided('allowlisted', true);
    const approvedInSession = this.sessionApprovals.get(sessionId);
    if (approvedInSession !== undefined && reasons.every((r) => approvedInSession.has(r))) return decided('session', true);

    // Nobody started a subagent's or a scheduled job's action at a surface: deny unless configured otherwise.
    if (origin === 'subagent' && (this.options.origins?.subagent ?? 'deny') === 'deny') return decided('origin_denied', false);
    if (origin === 'cron') return (this.options.origins?.cron ?? 'deny') === 'allow' && !changesHearth ? decided('origin_allowed', true) : decided('origin_denied', false);

    if (this.modeValue === 'smart' && this.options.judge !== undefined && !changesHearth) {
      const verdict = await this.options.judge({ command, kind, reasons, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) }, signal);
      judged = `${verdict.decision}: ${verdict.why}`;
      if (verdict.decision === 'approve') return decided('smart_approved', true);
      if (verdict.decision === 'deny') return decided('smart_denied', false);
    }
    return this.askAndRecord(sessionId, command, kind, classification, signal, decided, options);
  }

  private async askAndRecord(
    sessionId: string,
    command: string,
    kind: ActionKind,
    classification: Classification,
    signal: AbortSignal,
    decided: (reason: string, approved: boolean, requestId?: string | null, persistError?: string) => ApprovalOutcome,
    options: ToolCheckOptions,
  ): Promise<ApprovalOutcome> {
    const base: ApprovalRequest = {
      id: randomUUID(),
      sessionId,
      command,
      reasons: classification.reasons,
      kind,
      expiresAt: this.now() + this.timeoutMs,
      // Carried as the detector said it, so the dialog can say "this cannot be undone" instead of pointing at /rollback.
      ...(classification.irreversible === undefined ? {} : { irreversible: classification.irreversible }),
    };
    const request: AskedApproval = {
      ...base,
      ...(options.callId === undefined ? {} : { callId: options.callId }),
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    };
    const handler = this.promptHandler;
    if (handler === null) return decided('no_surface', false, request.id);

    const answer = await askUser(handler, request, this.timeoutMs, signal);
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

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}
