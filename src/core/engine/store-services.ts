import { homedir } from 'node:os';
import { ConfigService } from '../config/config-service.js';
import { ensureHome, resolveHome } from '../config/home.js';
import { PendingWrites } from '../learning/pending-writes.js';
import { memoryBudget, type MemoryLimits } from '../memory/budget.js';
import { MemoryStore } from '../memory/store.js';
import type { SkillService } from '../skills/service.js';
import { openStore } from '../store/open-store.js';
import type { TextRedactor } from '../store/redact-message.js';
import type { SqliteSessionStore } from '../store/session-store.js';
import { UserFactStore } from '../user-model/facts.js';

export interface StoreServicesOptions {
  env: NodeJS.ProcessEnv;
  /** Where the project's skills and trust are looked up (the CLI's cwd). */
  workspace: string;
  /** The user's home directory, for `~/.agents/skills` (default: os.homedir()). */
  userHome?: string;
  /** Problems that do not stop start-up (unknown config keys). */
  onWarning?: (message: string) => void;
  /** Secret redaction applied to every message written (the full engine passes it; store-only commands read). */
  redact?: TextRedactor;
  /** A ConfigService already open on this home (the full engine's), instead of a new one. */
  config?: ConfigService;
}

/**
 * The light composition: config, the encrypted store and the learned data over it, without any model.
 * Store-only commands (`hearth pending`, `memory`, `sessions`, `learning`…) run on it, so they start in a
 * fraction of a second; `openEngine` builds the rest of Hearth on top of the same pieces.
 */
export interface StoreServices {
  home: string;
  workspace: string;
  userHome: string;
  config: ConfigService;
  store: SqliteSessionStore;
  /** Memory and skill writes waiting for the user's approval. */
  pending: PendingWrites;
  facts: UserFactStore;
  /** Curated memory with these limits (default: the configured, unscaled budget: no model says its context here). */
  memory(limits?: MemoryLimits): MemoryStore;
  /** The skill library as the agent sees it from this workspace (loaded on first use: it reads every skill file). */
  skills(): Promise<SkillService>;
  /** Closes the store. */
  dispose(): Promise<void>;
}

export function openStoreServices(options: StoreServicesOptions): StoreServices {
  const home = resolveHome(options.env);
  ensureHome(home);
  // Read when first asked: `hearth sessions list` never needs config.yaml, so a broken one does not stop it.
  const config = options.config ?? new ConfigService(home, options.onWarning ? { onWarning: options.onWarning } : {});
  const store = openStore(home, { env: options.env, ...(options.redact === undefined ? {} : { redact: options.redact }) });
  const userHome = options.userHome ?? homedir();
  let skills: Promise<SkillService> | null = null;
  return {
    home,
    workspace: options.workspace,
    userHome,
    config,
    store,
    pending: new PendingWrites(store.db),
    facts: new UserFactStore(store.db),
    memory: (limits = memoryBudget(config.current().memory)) => new MemoryStore(store.db, limits),
    skills: () => {
      // Imported here, not above: the learning wiring is large, and most store-only commands never list skills.
      skills ??= import('../learning/components.js').then(({ createSkillService }) =>
        createSkillService({ home, workspace: options.workspace, config: config.current(), store, userHome }),
      );
      return skills;
    },
    dispose: async () => store.close(),
  };
}
