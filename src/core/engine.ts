import { AgentHost } from './agent/host.js';
import { CheckpointManager } from './checkpoints/manager.js';
import { CheckpointStore } from './checkpoints/store.js';
import { ConfigService } from './config/config-service.js';
import { ensureHome, resolveHome } from './config/home.js';
import { createModelsService, type ModelsService } from './engine/models-service.js';
import { createSafetyService, type SafetyService } from './engine/safety-service.js';
import { openStoreServices } from './engine/store-services.js';
import { errorMessage } from './errors.js';
import { createBackend } from './exec/registry.js';
import { createLearning, type LearningComponents } from './learning/components.js';
import { buildWithStack, type DisposalStack } from './lifecycle.js';
import type { ModelOverrides } from './model-chain/registry.js';
import type { HostSpawner } from './local-model/local-process.js';
import type { ChatModel } from './llm/types.js';
import { createInjectionJudge } from './safety/injection/judge.js';
import { redactorFromEnvironment } from './safety/secrets/redact.js';
import type { SqliteSessionStore } from './store/session-store.js';
import { anyTool, createToolset, type ToolRegistry } from './tools/registry.js';
import { createSendMessageTools, MessagingHub } from './tools/send-message.js';

export type { ModelsService } from './engine/models-service.js';
export type { SafetyService } from './engine/safety-service.js';
export { openStoreServices, type StoreServices } from './engine/store-services.js';

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

/** Conversations: the store they are kept in, the host that runs their turns, and the file checkpoints. */
export interface SessionsService {
  store: SqliteSessionStore;
  host: AgentHost;
  /** The shadow-git checkpoint store (null when `checkpoints.enabled` is off). */
  checkpoints: CheckpointStore | null;
}

/** The tools sessions are offered. */
export interface ToolsService {
  /** The toolset minus `tools.disabled`: what new sessions are offered. */
  readonly offered: ToolRegistry;
  /** The whole toolset, switched-off tools included (what settings lists). */
  all: ToolRegistry;
  /** Switches tools off for sessions started from now on (done by itself when `tools.disabled` changes). */
  setDisabled(disabled: readonly string[]): void;
}

/**
 * Hearth as every surface runs it: a few named services over one HEARTH_HOME, built in one place (`openEngine`)
 * and disposed as one stack (decision 0022).
 */
export interface Engine {
  home: string;
  /** Where relative paths resolve and commands start. */
  workspace: string;
  /** config.yaml: read it with `current()`, change it with `update()`; the services below follow its changes. */
  config: ConfigService;
  sessions: SessionsService;
  /** The approval policy, its audit log and secret redaction. */
  safety: SafetyService;
  /** The chat model and its reloads. */
  models: ModelsService;
  tools: ToolsService;
  /** Memory, skills, user model, session search, staged writes, and the loop that schedules reviews. */
  learning: LearningComponents;
  /** Where a running gateway attaches its sender, so `send_message`/`send_file` reach the chat platforms. */
  messaging: MessagingHub;
  /** Closes everything, last opened first: turns, learning, models, the execution backend, the store. */
  dispose(): Promise<void>;
}

/**
 * The composition root every surface uses (the desktop main, `hearth serve`, the CLI): config → store →
 * models → learning → execution backend and tools → safety → sessions, each pushed on one disposal stack as it
 * is created, so a failure half-way closes what was already open, and `dispose()` closes the rest in reverse.
 * Store-only commands use the light part, `openStoreServices`, which starts no model.
 */
export async function openEngine(options: EngineOptions): Promise<Engine> {
  const home = resolveHome(options.env);
  // First, so an unusable HEARTH_HOME is reported as such (with the fix), not as an unreadable config.yaml.
  ensureHome(home);
  const preliminaryWarnings: string[] = [];
  // Warnings found before the redactor exists (config.yaml's unknown keys) wait for it: they are redacted too.
  let warn = (message: string): void => void preliminaryWarnings.push(message);
  const config = new ConfigService(home, { onWarning: (message) => warn(message) });
  const settings = config.current();
  // Secrets Hearth knows (API keys in its environment, keys read from the keychain) and common key formats never
  // reach the model, the transcript or the log in clear. `secrets.redact: false` turns it off.
  const redactor = settings.secrets.redact ? redactorFromEnvironment(options.env) : null;
  const redact = redactor === null ? undefined : (text: string) => redactor.redact(text);
  warn = (message) => (options.onWarning ?? (() => undefined))(redact?.(message) ?? message);
  preliminaryWarnings.forEach(warn);

  return buildWithStack(async (stack) => {
    const base = stack.use(openStoreServices({ env: options.env, workspace: options.workspace, config, ...(options.userHome === undefined ? {} : { userHome: options.userHome }), ...(redact === undefined ? {} : { redact }) }));
    const { store, userHome } = base;
    // Containers and connections go with the engine, after everything that runs commands (a crash leaves
    // containers for the next start to remove).
    const backend = createBackend(settings.terminal, { workspace: options.workspace, userHome, env: options.env });
    stack.defer(() => backend.dispose?.());
    const models = stack.use(
      createModelsService({
        home,
        config,
        env: options.env,
        ...(options.overrides ? { overrides: options.overrides } : {}),
        ...(options.onLoadProgress ? { onLoadProgress: options.onLoadProgress } : {}),
        ...(options.hostSpawners?.model ? { spawnHost: options.hostSpawners.model } : {}),
        redactor,
        warn,
      }),
    );
    // Smart mode's judge: the configured reviewer model, or the chat model itself. Built even in manual mode,
    // because settings can switch to smart while Hearth runs; a bad `approvals.smart_model` fails here, at start.
    const judgeModel: ChatModel = settings.approvals.smart_model === undefined ? models.chat : ownChain(stack, models.createChain(settings, { model: settings.approvals.smart_model }));
    // `security.injection_judge`: a second opinion on memory and skill writes the injection scanner is unsure of.
    const injectionJudgeModel = settings.security.injection_judge === undefined ? null : ownChain(stack, models.createChain(settings, { model: settings.security.injection_judge }));

    const learning = stack.use(
      createLearning({
        home,
        workspace: options.workspace,
        config: settings,
        store,
        model: models.chat,
        onWarning: warn,
        ...(injectionJudgeModel === null ? {} : { injectionJudge: createInjectionJudge(injectionJudgeModel) }),
        ...(options.userHome === undefined ? {} : { userHome: options.userHome }),
        ...(options.hostSpawners?.embed ? { spawnEmbedHost: options.hostSpawners.embed } : {}),
      }),
    );
    const messaging = new MessagingHub();
    const [sendMessage, sendFile] = createSendMessageTools(messaging);
    const toolset = createToolset(settings.agent.toolset, {
      backend,
      terminal: { outputLimit: settings.terminal.output_limit_chars, defaultTimeoutSeconds: settings.terminal.timeout_s },
      extra: [...learning.tools, anyTool(sendMessage), anyTool(sendFile)],
    });
    for (const skipped of learning.skills.library().skipped) warn(`Skill not loaded: ${skipped.path}: ${skipped.reason}`);
    curate(learning, warn);

    const safety = stack.use(createSafetyService({ home, workspace: options.workspace, userHome, config, store, backend, judgeModel, redactor, yolo: options.yolo === true, warn }));
    let offered = withoutDisabled(toolset, settings.tools.disabled, warn);
    const checkpoints = settings.checkpoints.enabled ? new CheckpointStore({ home, settings: settings.checkpoints }) : null;
    const host = new AgentHost({
      store,
      model: models.chat,
      tools: offered,
      approvals: safety.approvals,
      home,
      workspace: options.workspace,
      maxIterations: settings.agent.max_iterations,
      learning: learning.loop,
      compression: settings.compression,
      // The approval dialog promises /rollback for a destructive command only when the snapshot sees what it changes.
      commandsShareWorkspace: backend.sharesWorkspace === true,
      ...(redactor === null ? {} : { redactor }),
      ...(checkpoints === null ? {} : { checkpoints: new CheckpointManager(checkpoints) }),
    });
    stack.defer(() => host.close());

    const tools: ToolsService = {
      get offered() {
        return offered;
      },
      all: toolset,
      setDisabled(disabled) {
        offered = withoutDisabled(toolset, disabled, warn);
        host.setTools(offered);
      },
    };
    // Settings' tool toggles and a hand edit of `tools.disabled` apply to sessions started from then on.
    stack.defer(
      config.onChange((next, previous) => {
        if (next.tools.disabled.join('\n') !== previous.tools.disabled.join('\n')) tools.setDisabled(next.tools.disabled);
      }),
    );

    return {
      home,
      workspace: options.workspace,
      config,
      sessions: { store, host, checkpoints },
      safety,
      models,
      tools,
      learning,
      messaging,
      dispose: () => stack.dispose(),
    };
  });
}

/** A model chain of the engine's own (not the switchable chat model): disposed with the stack. */
function ownChain(stack: DisposalStack, model: ChatModel): ChatModel {
  stack.defer(() => model.dispose?.());
  return model;
}

function curate(learning: LearningComponents, warn: (message: string) => void): void {
  try {
    for (const archived of learning.curateIfDue()) {
      warn(`Archived the skill '${archived.name}' (created by Hearth, unused for ${archived.idleDays} days). Restore it with \`hearth skills restore ${archived.archivedName}\`.`);
    }
  } catch (err) {
    // Housekeeping must not stop a session from starting; say what went wrong and carry on.
    warn(`The skill curator could not run: ${errorMessage(err)}`);
  }
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
