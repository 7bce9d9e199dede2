import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { HearthConfig } from '../config/schema.js';
import { errorMessage, isHearthError } from '../errors.js';
import type { Embedder } from '../llm/embedder.js';
import { createLocalEmbedder } from '../local-model/local-embedder.js';
import type { ChatModel } from '../llm/types.js';
import { memoryBudget, type MemoryLimits } from '../memory/budget.js';
import { renderMemorySnapshot } from '../memory/snapshot.js';
import { MemoryStore } from '../memory/store.js';
import { EmbeddingIndex } from '../search/embedding-index.js';
import { SessionSearch, type SemanticSearch } from '../search/session-search.js';
import { curateSkills, type CuratedSkill } from '../skills/curator.js';
import { defaultSkillRoots, isProjectTrusted } from '../skills/discover.js';
import { SemanticSkillRanker } from '../skills/semantic-rank.js';
import { SkillService } from '../skills/service.js';
import { installStarterSkills, starterSkillsEnabled } from '../skills/starter.js';
import { SqliteSkillVectors } from '../skills/skill-vectors.js';
import { SkillTriggerLearner, SqliteSkillTriggers } from '../skills/skill-triggers.js';
import { SkillUsageStore } from '../skills/usage.js';
import { LearningState } from '../store/learning-state.js';
import type { SqliteSessionStore } from '../store/session-store.js';
import { createMemoryTool } from '../tools/memory.js';
import { anyTool, ToolRegistry, type AnyTool } from '../tools/registry.js';
import { createSessionSearchTool } from '../tools/session-search.js';
import { createSkillTools } from '../tools/skills.js';
import type { InjectionJudge } from '../safety/injection/judge.js';
import { createUserModelTool } from '../tools/user-model.js';
import { UserFactStore } from '../user-model/facts.js';
import { reflectOnUser } from '../user-model/reflect.js';
import { renderUserModel } from '../user-model/render.js';
import { ConversationCounterStore } from './conversation-counters.js';
import { LearningJournal } from './journal.js';
import { LearningLoop } from './learning-loop.js';
import { PendingWrites } from './pending-writes.js';
import type { HostSpawner } from '../local-model/local-process.js';

export interface LearningComponents {
  memory: MemoryStore;
  limits: MemoryLimits;
  facts: UserFactStore;
  skills: SkillService;
  pending: PendingWrites;
  search: SessionSearch;
  /** Tools the learning loop adds: memory, skills, session_search, user_model. */
  tools: AnyTool[];
  loop: LearningLoop;
  /** Every background run and its outcome (`hearth learning log`, the app's Learning view, `hearth doctor`). */
  journal: LearningJournal;
  /** Runs the skill curator when a week has passed since its last run; returns what it archived. */
  curateIfDue(now?: number): CuratedSkill[];
  dispose(): Promise<void>;
}

/** The curator's interval, as Hermes Agent's (`interval_hours` 168). */
export const CURATOR_INTERVAL_MS = 7 * 24 * 3_600_000;
const CURATOR_LAST_RUN = 'skills.curator_last_run';

export interface LearningSetup {
  home: string;
  workspace: string;
  config: HearthConfig;
  store: SqliteSessionStore;
  model: ChatModel;
  /** The user's home directory (for `~/.agents/skills`); tests pass a temp folder. */
  userHome?: string;
  /** Problems that degrade but do not stop learning (an embedding model that fails to load). */
  onWarning?: (message: string) => void;
  /** How the embedding host process starts (a `utilityProcess` in Electron; `child_process.fork` by default). */
  spawnEmbedHost?: HostSpawner;
  /** `security.injection_judge`: asked about memory and skill writes the injection scanner is unsure of. */
  injectionJudge?: InjectionJudge;
}

/** Messages embedded per search at most, so a first search over a long history stays bounded. */
const INDEX_PER_SEARCH = 200;

/**
 * Builds everything the closed learning loop needs over one open store: curated memory, the user
 * model, the skill library, staged writes, session search (with embeddings when configured), their
 * tools, and the LearningLoop that schedules reviews and reflection. Config decides the budgets,
 * thresholds and which writes wait for approval.
 */
export function createLearning(setup: LearningSetup): LearningComponents {
  const { config, store, model, home } = setup;
  const userHome = setup.userHome ?? homedir();
  const limits = memoryBudget(config.memory, model.contextLength);
  const memory = new MemoryStore(store.db, limits);
  const facts = new UserFactStore(store.db);
  const pending = new PendingWrites(store.db);
  const warn = setup.onWarning ?? (() => undefined);
  const journal = new LearningJournal(store.db);
  const { embedder, index } = semanticSearch(config, store, home, setup.spawnEmbedHost);
  const semanticSkills = embedder === null ? undefined : semanticSkillRanker(embedder, store, warn);
  // "When to use" phrasings per skill version, written by the chat model in the background (decision 0013).
  const triggers = config.skills.learn_triggers ? new SkillTriggerLearner({ model, store: new SqliteSkillTriggers(store.db), warn }) : undefined;
  const skills = createSkillService({ home, workspace: setup.workspace, config, store, userHome, ...(semanticSkills === undefined ? {} : { semantic: semanticSkills }), ...(triggers === undefined ? {} : { triggers }) });
  const usage = skills.usage;
  // Skill vectors are computed now, in the background, so no turn waits for them; failures warn once inside.
  if (semanticSkills !== undefined) void skills.semanticReady();
  if (triggers !== undefined) void skills.triggersReady();

  const search = new SessionSearch(store, index === null ? {} : { semantic: semanticOrNothing(index, warn) });

  const skillTools = createSkillTools({
    getLibrary: () => skills.library(),
    reload: () => skills.reload(),
    usage,
    home,
    rank: (query, limit, signal) => skills.rank(query, limit, signal),
    stage: config.skills.write_approval ? (kind, args, summary) => void pending.stage({ kind, sessionId: null, payload: args, summary }) : null,
    ...(setup.injectionJudge === undefined ? {} : { injectionJudge: setup.injectionJudge }),
  });
  const tools = [
    anyTool(
      createMemoryTool({
        memory,
        limits,
        stage: config.memory.write_approval ? (write) => pending.stage(write) : null,
        // Always: a protected entry is never the agent's to remove, whatever write_approval says.
        propose: (write) => pending.stage(write),
        ...(setup.injectionJudge === undefined ? {} : { injectionJudge: setup.injectionJudge }),
      }),
    ),
    anyTool(createSessionSearchTool({ search })),
    anyTool(skillTools.skillsList),
    anyTool(skillTools.skillView),
    anyTool(skillTools.skillsSearch),
    anyTool(skillTools.skillManage),
    // A change the model proposes to a fact always waits for the user: the user owns the user model.
    anyTool(createUserModelTool({ facts, propose: (write) => pending.stage(write) })),
  ];

  const loop = new LearningLoop(
    {
      learnedContext: () => ({
        skillsCatalog: skills.catalog(),
        memory: renderMemorySnapshot(memory.snapshot(), limits),
        user: renderUserModel(facts.list(), limits.user),
      }),
      skillHint: (text, signal) => skills.relevantHint(text, signal),
      ...(config.user_model.enabled
        ? {
            reflect: async (signal: AbortSignal) => {
              const result = await reflectOnUser({ model, store, facts, signal });
              return { added: result.added.length, reinforced: result.reinforced.length, superseded: result.superseded.length, rejected: result.rejected.length };
            },
          }
        : {}),
    },
    {
      reviewEnabled: config.review.enabled,
      reviewIterations: config.review.max_iterations,
      nudges: { skillIterations: config.skills.creation_nudge_interval, memoryTurns: config.memory.nudge_interval },
      reflectEveryTurns: config.user_model.enabled ? config.user_model.reflect_every_turns : null,
    },
    store,
    new ToolRegistry(tools),
    { journal, counters: new ConversationCounterStore(new LearningState(store.db)) },
  );

  return {
    memory,
    limits,
    facts,
    skills,
    pending,
    search,
    tools,
    loop,
    journal,
    curateIfDue(now = Date.now()) {
      const state = new LearningState(store.db);
      const last = Number(state.get(CURATOR_LAST_RUN) ?? 0);
      if (now - last < CURATOR_INTERVAL_MS) return [];
      const run = journal.start('curator', null);
      try {
        const archived = curateSkills({ library: skills.library(), usage, home, now, archiveAfterDays: config.skills.archive_after_days });
        state.set(CURATOR_LAST_RUN, String(now));
        if (archived.length > 0) skills.reload();
        journal.finish(run, { outcome: archived.length > 0 ? 'saved' : 'nothing', saved: archived.map((a) => `Archived the skill '${a.name}' (unused for ${a.idleDays} days)`) });
        return archived;
      } catch (err) {
        journal.finish(run, { outcome: 'failed', error: errorMessage(err) });
        throw err;
      }
    },
    async dispose() {
      await loop.close();
      await semanticSkills?.close();
      await triggers?.close();
      await embedder?.dispose();
    },
  };
}

/**
 * The semantic half of session search: index what is new (bounded), then query. When the embedding
 * model fails (bad GGUF, crashed host), search carries on with bm25 alone and the user is told once.
 */
function semanticOrNothing(index: EmbeddingIndex, warn: (message: string) => void): SemanticSearch {
  let warned = false;
  return async (query, k) => {
    try {
      await index.indexPending(INDEX_PER_SEARCH);
      return await index.query(query, k);
    } catch (err) {
      if (isHearthError(err, 'aborted')) throw err;
      if (!warned) warn(`Semantic search is off for now, keyword search still works: ${errorMessage(err)}`);
      warned = true;
      return [];
    }
  };
}

/**
 * Semantic skill ranking over the session-search embedder (one embedding host for both). Vectors persist in
 * `skill_embeddings`.
 */
function semanticSkillRanker(embedder: Embedder, store: SqliteSessionStore, warn: (message: string) => void): SemanticSkillRanker {
  return new SemanticSkillRanker({ embedder, vectors: new SqliteSkillVectors(store.db), warn });
}

/** The skill library for a home and workspace: roots by precedence, project roots only when trusted. */
export function createSkillService(
  setup: Pick<LearningSetup, 'home' | 'workspace' | 'config' | 'store'> & { userHome: string; semantic?: SemanticSkillRanker; triggers?: SkillTriggerLearner; env?: NodeJS.ProcessEnv },
): SkillService {
  const { home, config, userHome } = setup;
  // First run of this home: the bundled starter skills (once; a marker keeps removed ones from coming back).
  if (starterSkillsEnabled(setup.env ?? process.env)) installStarterSkills(join(home, 'skills'));
  const roots = defaultSkillRoots({
    home,
    workspace: setup.workspace,
    userHome,
    externalDirs: config.skills.external_dirs,
    projectTrusted: isProjectTrusted(setup.workspace, config.skills.trusted_projects, userHome),
  });
  return new SkillService({
    roots,
    usage: new SkillUsageStore(setup.store.db),
    catalogSize: config.skills.catalog_size,
    ...(setup.semantic === undefined ? {} : { semantic: setup.semantic }),
    ...(setup.triggers === undefined ? {} : { triggers: setup.triggers }),
  });
}

/** The embedding path, only when `search.embedding_model` names a GGUF. */
function semanticSearch(config: HearthConfig, store: SqliteSessionStore, home: string, spawnHost?: HostSpawner): { embedder: Embedder | null; index: EmbeddingIndex | null } {
  const path = config.search.embedding_model;
  if (path === null) return { embedder: null, index: null };
  // Relative paths are relative to HEARTH_HOME, like model paths (models/embed.gguf).
  const embedder = createLocalEmbedder({ modelPath: resolve(home, path), ...(spawnHost ? { spawnHost } : {}) });
  return { embedder, index: new EmbeddingIndex(store.db, embedder) };
}
