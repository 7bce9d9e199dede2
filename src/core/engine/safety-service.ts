import type { ConfigService } from '../config/config-service.js';
import { errorMessage } from '../errors.js';
import type { ExecutionBackend } from '../exec/backend.js';
import { autoApproves } from '../exec/registry.js';
import type { ChatModel } from '../llm/types.js';
import { ApprovalAuditLog } from '../safety/approvals/audit-log.js';
import { ApprovalPolicyBroker } from '../safety/approvals/policy.js';
import { createModelJudge } from '../safety/approvals/smart-judge.js';
import type { Redactor } from '../safety/secrets/redact.js';
import type { SqliteSessionStore } from '../store/session-store.js';

/** Approval decisions kept in the audit log (about a year of heavy use). */
const AUDIT_LOG_KEEP = 100_000;

/** What keeps the agent's actions in bounds: one approval policy, its audit log, and secret redaction. */
export interface SafetyService {
  /** The one approval policy every command passes; config.yaml changes its mode and allowlist live. */
  approvals: ApprovalPolicyBroker;
  /** Every approval decision, in the encrypted store (`hearth approvals log`). */
  audit: ApprovalAuditLog;
  /** Secret redaction (null when `secrets.redact` is off); surfaces wrap their logs with it. */
  redactor: Redactor | null;
  /** Stops following config.yaml. */
  dispose(): void;
}

export interface SafetyServiceOptions {
  home: string;
  workspace: string;
  userHome: string;
  config: ConfigService;
  store: SqliteSessionStore;
  backend: ExecutionBackend;
  /** Smart mode's reviewer: the configured `approvals.smart_model`, or the chat model. */
  judgeModel: ChatModel;
  redactor: Redactor | null;
  /** Approvals off for this process (hardline commands stay blocked); config.yaml's mode is then not followed. */
  yolo: boolean;
  warn: (message: string) => void;
}

export function createSafetyService(options: SafetyServiceOptions): SafetyService {
  const { home, workspace, userHome, config, backend, redactor, warn } = options;
  const settings = config.current();
  const redact = redactor === null ? undefined : (text: string) => redactor.redact(text);
  const audit = new ApprovalAuditLog(options.store.db, redact);
  audit.prune(AUDIT_LOG_KEEP);
  const approvals = new ApprovalPolicyBroker({
    mode: options.yolo ? 'off' : settings.approvals.mode,
    // Deletes inside the workspace are everyday work; the detector needs to know where it is. A remote host's
    // paths are not this workspace, so over SSH (or in a cloud sandbox) nothing is exempt.
    detectorContext: backend.sharesWorkspace === true ? { workspace, home: userHome, hearthHome: home } : {},
    // File tools write this machine's files whatever the terminal backend is.
    fileContext: { workspace, home: userHome, hearthHome: home },
    sandboxed: autoApproves(settings.terminal),
    timeoutMs: settings.approvals.timeout_s * 1000,
    allowlist: settings.approvals.allowlist,
    judge: createModelJudge(options.judgeModel),
    origins: { subagent: settings.approvals.subagents, cron: settings.approvals.cron },
    selfModification: settings.approvals.self_modification,
    // Through the one read-modify-write, so an edit made while Hearth ran is kept; a failure reaches the record.
    saveAllowlist: async (allowlist) => {
      await config.update((draft) => {
        draft.approvals.allowlist = [...allowlist];
      });
    },
    onDecision: (record) => {
      if (record.persistError) warn(`An "always" approval could not be saved to config.yaml: ${record.persistError}`);
      try {
        audit.record(record);
      } catch (err) {
        // The decision stands (it was made); only its record is missing, and the user is told so.
        warn(`An approval decision could not be written to the audit log: ${errorMessage(err)}`);
      }
    },
  });
  // Settings, `hearth approvals` and a hand edit all land in config.yaml; the live policy follows the file.
  const unsubscribe = config.onChange((next, previous) => {
    if (!options.yolo && next.approvals.mode !== previous.approvals.mode) approvals.setMode(next.approvals.mode);
    if (next.approvals.allowlist.join('\n') !== previous.approvals.allowlist.join('\n')) approvals.setAllowlist(next.approvals.allowlist);
  });
  return { approvals, audit, redactor, dispose: () => unsubscribe() };
}
