import { homedir } from 'node:os';
import { AgentHost } from './agent/host.js';
import { CheckpointManager } from './checkpoints/manager.js';
import { CheckpointStore } from './checkpoints/store.js';
import { ensureHome, resolveHome } from './config/home.js';
import { loadConfig, saveConfig } from './config/load.js';
import type { HearthConfig } from './config/schema.js';
import { errorMessage } from './errors.js';
import type { ExecutionBackend } from './exec/backend.js';
import { autoApproves, createBackend } from './exec/registry.js';
import { createLearning, type LearningComponents } from './learning/components.js';
import { createModelChain, type ModelContext, type ModelOverrides } from './llm/registry.js';
import { SwitchableModel } from './llm/switchable-model.js';
import type { HostSpawner } from './llm/providers/local-process.js';
import type { ChatModel } from './llm/types.js';
import { ApprovalAuditLog } from './safety/approvals/audit-log.js';
import { ApprovalPolicyBroker } from './safety/approvals/policy.js';
import { createModelJudge } from './safety/approvals/smart-judge.js';
import { createInjectionJudge } from './safety/injection/judge.js';
import { getSecret } from './safety/secrets/keychain.js';
import { redactorFromEnvironment, type Redactor } from './safety/secrets/redact.js';
import { openStore } from './store/open-store.js';
import type { SqliteSessionStore } from './store/session-store.js';
import { createToolset, type ToolRegistry } from './tools/registry.js';

/** Approval decisions kept in the audit log (about a year of heavy use). */
const AUDIT_LOG_KEEP = 100_000;

export interface EngineOptions {
  env: NodeJS.ProcessEnv;
  /** Where relative paths resolve and commands start (the CLI's cwd). */
  workspace: string;
  overrides?: ModelOverrides;
  /** Approvals off for this process (hardline commands stay blocked). */
  yolo?: boolean;
  /** Problems that do not stop start-up: unknown config keys, a keychain that cannot be read for API keys. */
  onWarning?: (message: string) => void;
  onLoadProgress?: (progress: number) => void;
  /** The user's home directory, for `~/.agents/skills` and `~/.claude/skills` (default: os.homedir()). */
  userHome?: string;
  /** How the model and embedding host processes start: Electron passes `utilityProcess` spawners (default: fork). */
  hostSpawners?: { model?: HostSpawner; embed?: HostSpawner };
}

export interface Engine {
  /**
   * Rebuilds the model chain from config.yaml and the keychain as they are now (the user chose a model,
   * downloaded one, or saved a key). Model flags given at start (`--model`…) no longer apply after this.
   */
  reloadModel(): Promise<void>;
  /** Called after each `reloadModel`; returns the unsubscribe. */
  onModelChange(listener: () => void): () => void;
  /** Listen to the local model's load progress (0…1) from now on; returns the unsubscribe. */
  onModelLoadProgress(listener: (progress: number) => void): () => void;
  home: string;
  config: HearthConfig;
  store: SqliteSessionStore;
  /** The one approval policy every command passes; settings change its mode and allowlist live. */
  approvals: ApprovalPolicyBroker;
  /** Every approval decision, in the encrypted store (`hearth approvals log`). */
  audit: ApprovalAuditLog;
  /** Where relative paths resolve and commands start. */
  workspace: string;
  /** The shadow-git checkpoint store (null when `checkpoints.enabled` is off). */
  checkpoints: CheckpointStore | null;
  /** Secret redaction (null when `secrets.redact` is off); surfaces wrap their logs with it. */
  redactor: Redactor | null;
  model: ChatModel;
  /** The tools new sessions are offered: the toolset minus `tools.disabled`. */
  readonly tools: ToolRegistry;
  /** The whole toolset, switched-off tools included (what settings lists). */
  toolset: ToolRegistry;
  /** Switches tools off for sessions started from now on (settings' tool toggles). */
  setDisabledTools(disabled: readonly string[]): void;
  host: AgentHost;
  /** Memory, skills, user model, session search, staged writes, and the loop that schedules reviews. */
  learning: LearningComponents;
  close(): Promise<void>;
}

/**
 * Builds the engine every surface runs on, from HEARTH_HOME: config → model (with fallbacks) →
 * encrypted store → tools → approval policy → AgentHost. One place, so the CLI, the desktop app and
 * the web server cannot drift apart in how they wire it.
 */
export async function openEngine(options: EngineOptions): Promise<Engine> {
  const home = resolveHome(options.env);
  ensureHome(home);
  const loaded = loadConfig(home);
  const config = loaded.config;
  const userHome = options.userHome ?? homedir();
  // Secrets Hearth knows (API keys in its environment, keys read from the keychain below) and common key
  // formats never reach the model, the transcript or the log in clear. `secrets.redact: false` turns it off.
  const redactor = config.secrets.redact ? redactorFromEnvironment(options.env) : null;
  const redact = redactor === null ? undefined : (text: string) => redactor.redact(text);
  const warn = (message: string): void => (options.onWarning ?? (() => undefined))(redact?.(message) ?? message);
  loaded.warnings.forEach(warn);

  let keychainWarned = false;
  // Surfaces that exist only after the engine (the app service) still see the model load: they subscribe here.
  const loadListeners = new Set<(progress: number) => void>();
  const modelListeners = new Set<() => void>();
  const modelContext = (current: HearthConfig, overrides: ModelOverrides | undefined): ModelContext => ({
    home,
    config: current,
    env: options.env,
    ...(overrides ? { overrides } : {}),
    onLoadProgress: (progress) => {
      options.onLoadProgress?.(progress);
      for (const listener of loadListeners) listener(progress);
    },
    ...(options.hostSpawners?.model ? { spawnHost: options.hostSpawners.model } : {}),
    getSecret: (account, lookup) => {
      try {
        const secret = getSecret(account);
        if (secret !== null) redactor?.addSecret(secret, `keychain:${account}`);
        return secret;
      } catch (err) {
        // Said once, and only where a key is needed (a server on this machine works without one), with the fix.
        if (!keychainWarned && lookup?.optional !== true) {
          const provider = account.replace(/^provider:/, '');
          warn(`The API key for "${provider}" could not be read from the OS keychain (${errorMessage(err)}). Set the provider's api_key_env variable in config.yaml and export it, or unlock the keychain.`);
          keychainWarned = true;
        }
        return null;
      }
    },
  });
  const model = new SwitchableModel(createModelChain(modelContext(config, options.overrides)));
  // Smart mode's judge: the configured reviewer model, or the chat model itself. Built even in manual mode,
  // because settings can switch to smart while Hearth runs; a bad `approvals.smart_model` fails here, at start.
  let judgeModel: ChatModel = model;
  // `security.injection_judge`: a second opinion on memory and skill writes the injection scanner is unsure of.
  let injectionJudgeModel: ChatModel | null = null;
  try {
    if (config.approvals.smart_model !== undefined) judgeModel = createModelChain(modelContext(config, { model: config.approvals.smart_model }));
    if (config.security.injection_judge !== undefined) injectionJudgeModel = createModelChain(modelContext(config, { model: config.security.injection_judge }));
  } catch (err) {
    await model.dispose?.();
    if (judgeModel !== model) await judgeModel.dispose?.();
    throw err;
  }

  let store: SqliteSessionStore;
  let toolset: ToolRegistry;
  let backend: ExecutionBackend;
  let learning: LearningComponents;
  try {
    store = openStore(home, { env: options.env, ...(redact === undefined ? {} : { redact }) });
    try {
      learning = createLearning({
        home,
        workspace: options.workspace,
        config,
        store,
        model,
        onWarning: warn,
        ...(injectionJudgeModel === null ? {} : { injectionJudge: createInjectionJudge(injectionJudgeModel) }),
        ...(options.userHome === undefined ? {} : { userHome: options.userHome }),
        ...(options.hostSpawners?.embed ? { spawnEmbedHost: options.hostSpawners.embed } : {}),
      });
      backend = createBackend(config.terminal, { workspace: options.workspace, userHome, env: options.env });
      toolset = createToolset(config.agent.toolset, {
        backend,
        terminal: { outputLimit: config.terminal.output_limit_chars, defaultTimeoutSeconds: config.terminal.timeout_s },
        extra: learning.tools,
      });
    } catch (err) {
      store.close();
      throw err;
    }
  } catch (err) {
    await model.dispose?.();
    if (judgeModel !== model) await judgeModel.dispose?.();
    await injectionJudgeModel?.dispose?.();
    throw err;
  }
  for (const skipped of learning.skills.library().skipped) warn(`Skill not loaded: ${skipped.path}: ${skipped.reason}`);
  try {
    for (const archived of learning.curateIfDue()) {
      warn(`Archived the skill '${archived.name}' (created by Hearth, unused for ${archived.idleDays} days). Restore it with \`hearth skills restore ${archived.archivedName}\`.`);
    }
  } catch (err) {
    // Housekeeping must not stop a session from starting; say what went wrong and carry on.
    warn(`The skill curator could not run: ${errorMessage(err)}`);
  }
  const audit = new ApprovalAuditLog(store.db, redact);
  audit.prune(AUDIT_LOG_KEEP);
  const approvals = new ApprovalPolicyBroker({
    mode: options.yolo ? 'off' : config.approvals.mode,
    // Deletes inside the workspace are everyday work; the detector needs to know where it is. A remote host's
    // paths are not this workspace, so over SSH (or in a cloud sandbox) nothing is exempt.
    detectorContext: backend.sharesWorkspace === true ? { workspace: options.workspace, home: userHome, hearthHome: home } : {},
    // File tools write this machine's files whatever the terminal backend is.
    fileContext: { workspace: options.workspace, home: userHome, hearthHome: home },
    sandboxed: autoApproves(config.terminal),
    timeoutMs: config.approvals.timeout_s * 1000,
    allowlist: config.approvals.allowlist,
    judge: createModelJudge(judgeModel),
    origins: { subagent: config.approvals.subagents, cron: config.approvals.cron },
    selfModification: config.approvals.self_modification,
    saveAllowlist: (allowlist) => {
      // Re-read so an edit made while Hearth ran is not overwritten.
      const current = loadConfig(home).config;
      saveConfig(home, { ...current, approvals: { ...current.approvals, allowlist } });
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
  let tools = withoutDisabled(toolset, config.tools.disabled, warn);
  const checkpoints = config.checkpoints.enabled ? new CheckpointStore({ home, settings: config.checkpoints }) : null;
  const host = new AgentHost({
    store,
    model,
    tools,
    approvals,
    home,
    workspace: options.workspace,
    maxIterations: config.agent.max_iterations,
    learning: learning.loop,
    compression: config.compression,
    // The approval dialog promises /rollback for a destructive command only when the snapshot sees what it changes.
    commandsShareWorkspace: backend.sharesWorkspace === true,
    ...(redactor === null ? {} : { redactor }),
    ...(checkpoints === null ? {} : { checkpoints: new CheckpointManager(checkpoints) }),
  });

  return {
    approvals,
    audit,
    workspace: options.workspace,
    checkpoints,
    redactor,
    async reloadModel() {
      await model.swap(createModelChain(modelContext(loadConfig(home).config, undefined)));
      for (const listener of modelListeners) listener();
    },
    onModelChange(listener) {
      modelListeners.add(listener);
      return () => modelListeners.delete(listener);
    },
    onModelLoadProgress(listener) {
      loadListeners.add(listener);
      return () => loadListeners.delete(listener);
    },
    home,
    config,
    store,
    model,
    get tools() {
      return tools;
    },
    toolset,
    setDisabledTools(disabled) {
      tools = withoutDisabled(toolset, disabled, warn);
      host.setTools(tools);
    },
    host,
    learning,
    async close() {
      await host.close();
      await learning.dispose();
      await model.dispose?.();
      if (judgeModel !== model) await judgeModel.dispose?.();
      await injectionJudgeModel?.dispose?.();
      // Containers and connections go with the engine (a crash leaves containers for the next start to remove).
      await backend.dispose?.();
      store.close();
    },
  };
}

/** The toolset minus the tools switched off in settings (`tools.disabled`); an unknown name is reported, not ignored. */
function withoutDisabled(tools: ToolRegistry, disabled: readonly string[], warn: (message: string) => void): ToolRegistry {
  if (disabled.length === 0) return tools;
  const offered = new Set(tools.list().map((tool) => tool.name));
  const unknown = disabled.filter((name) => !offered.has(name));
  if (unknown.length > 0) warn(`tools.disabled names tools this toolset does not have: ${unknown.join(', ')}`);
  const off = new Set(disabled);
  return tools.subset([...offered].filter((name) => !off.has(name)));
}
