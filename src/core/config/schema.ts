import { z } from 'zod';
import { positiveInt } from './schema-values.js';
import { ApprovalsSection, CheckpointsSection, SecretsSection, SecuritySection } from './schema-safety.js';
import { ApiSection } from './schema-api.js';
import { CronSection } from './schema-cron.js';
import { GatewaySection } from './schema-gateway.js';
import { TerminalSection } from './schema-terminal.js';

/**
 * `config.yaml`, validated. snake_case keys as users write them; every key optional with a default, so
 * an empty or missing file is a working configuration. The TypeScript type is inferred from this schema
 * (STYLE.md: types from schemas). No secrets here: API keys live in the environment or the OS keychain.
 */

export const CONFIG_VERSION = 1;

export const ProviderConfigSchema = z.object({
  /** Wire protocol the endpoint speaks. */
  type: z.enum(['openai', 'anthropic']),
  // http(s) only: "localhost:11434" parses as a URL with the scheme "localhost:" and would fail at the first request.
  base_url: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL such as "http://127.0.0.1:11434/v1"' }),
  /** Name of the environment variable holding the API key; absent for keyless local servers. */
  api_key_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: 'expected an environment variable name such as OPENAI_API_KEY' }).optional(),
  /** The context window of the models served here, in tokens (e.g. Ollama's num_ctx). Known windows enable context compression. */
  context_length: positiveInt('a positive integer (tokens)').optional(),
});
export type ProviderConfig = z.infer<typeof ProviderConfigSchema>;

/** Endpoints that exist without any configuration; a user entry with the same name replaces the preset. */
export const PROVIDER_PRESETS: Readonly<Record<string, ProviderConfig>> = Object.freeze({
  openai: { type: 'openai', base_url: 'https://api.openai.com/v1', api_key_env: 'OPENAI_API_KEY' },
  anthropic: { type: 'anthropic', base_url: 'https://api.anthropic.com', api_key_env: 'ANTHROPIC_API_KEY' },
  openrouter: { type: 'openai', base_url: 'https://openrouter.ai/api/v1', api_key_env: 'OPENROUTER_API_KEY' },
  ollama: { type: 'openai', base_url: 'http://127.0.0.1:11434/v1' },
  lmstudio: { type: 'openai', base_url: 'http://127.0.0.1:1234/v1' },
});

export const DEFAULT_MODEL = 'local:models/hermes-3-llama-3.2-3b.Q4_K_M.gguf';

const ModelSection = z.object({
  /** `provider:name` (e.g. `openai:gpt-4o-mini`, `local:models/x.gguf`) or a path to a .gguf file. */
  default: z.string({ error: 'expected "provider:model-name" or a path to a .gguf file' }).min(1).default(DEFAULT_MODEL),
  /** Tried in order when the default fails (connection refused, repeated 5xx, auth, load failure). */
  fallbacks: z.array(z.string().min(1), { error: 'expected a list of "provider:model-name" strings' }).default([]),
});

const LocalSection = z.object({
  threads: z.union([positiveInt('a positive integer'), z.literal('auto')], { error: 'expected a positive integer or "auto"' }).default('auto'),
  gpu: z.union([z.literal('auto'), z.literal(false)], { error: 'expected "auto" or false' }).default('auto'),
  context_size: positiveInt('a positive integer (tokens)').default(8192),
});

const AgentSection = z.object({
  max_iterations: positiveInt('a positive integer').default(90),
  toolset: z.string().min(1).default('default'),
});

const fraction = (what: string) =>
  z.number({ error: `expected ${what}` }).gt(0, { error: `expected ${what}` }).lt(1, { error: `expected ${what}` });

const MemorySection = z.object({
  /** Characters of agent notes (`memory` target) kept in the prompt; scaled up for large contexts (memory/budget.ts). */
  memory_char_limit: positiveInt('a positive integer (characters)').default(2200),
  /** Characters of the user profile (`user` target). */
  user_char_limit: positiveInt('a positive integer (characters)').default(1375),
  /** Grow both limits with the model's context window (never below the numbers above). */
  scale_with_context: z.boolean({ error: 'expected true or false' }).default(true),
  /** User turns without a memory write before a background review looks for things worth remembering. */
  nudge_interval: positiveInt('a positive integer (user turns)').default(10),
  /** Stage memory writes for the user to approve instead of applying them. */
  write_approval: z.boolean({ error: 'expected true or false' }).default(false),
});

const SkillsSection = z.object({
  /** Tool iterations without a skill write before a background review considers saving a skill. */
  creation_nudge_interval: positiveInt('a positive integer (tool iterations)').default(10),
  /** Stage skill writes for the user to approve instead of applying them. */
  write_approval: z.boolean({ error: 'expected true or false' }).default(false),
  /** Extra folders scanned for skills (user level, after HEARTH_HOME/skills). */
  external_dirs: z.array(z.string().min(1), { error: 'expected a list of folder paths' }).default([]),
  /** Project folders whose `.agents/skills` (and `.hearth/skills`, `.claude/skills`) may load: project skills are third-party instructions. */
  trusted_projects: z.array(z.string().min(1), { error: 'expected a list of folder paths' }).default([]),
  /** Skills listed in the system prompt's catalog; the rest are found with skills_search and per-request hints. */
  catalog_size: positiveInt('a positive integer').default(12),
  /** Curator: agent-created skills unused this long are archived (moved, never deleted). */
  archive_after_days: positiveInt('a positive integer (days)').default(90),
  /**
   * The model writes "when to use" phrasings for each new or changed skill (one call per skill version, in the
   * background), and skill ranking uses them (decision 0013). Off: skills rank on their own text only.
   */
  learn_triggers: z.boolean({ error: 'expected true or false' }).default(true),
});

const ReviewSection = z.object({
  /** Run background reviews at all (memory and skill nudges, flush before compression). */
  enabled: z.boolean({ error: 'expected true or false' }).default(true),
  max_iterations: positiveInt('a positive integer').default(16),
});

const UserModelSection = z.object({
  enabled: z.boolean({ error: 'expected true or false' }).default(true),
  /** Run a reflection pass every this many user turns (and when a session goes idle). */
  reflect_every_turns: positiveInt('a positive integer (user turns)').default(6),
});

const CompressionSection = z.object({
  enabled: z.boolean({ error: 'expected true or false' }).default(true),
  /** Compress when the prompt reaches this fraction of the model's context window. */
  threshold: fraction('a number between 0 and 1, e.g. 0.5').default(0.5),
  /** Share of the threshold kept verbatim at the end of the conversation. */
  target_ratio: fraction('a number between 0 and 1, e.g. 0.2').default(0.2),
  /** Messages at the start kept verbatim (after the system prompt). */
  protect_first_n: z.number().int().min(0, { error: 'expected 0 or more' }).default(3),
  /** Minimum messages at the end kept verbatim. */
  protect_last_n: z.number().int().min(1, { error: 'expected 1 or more' }).default(6),
});

const SearchSection = z.object({
  /** Embedding GGUF for semantic session search and skill ranking, each fused with its keyword ranking; null keeps both lexical. */
  embedding_model: z.string().min(1).nullable().default(null),
});

const UiSection = z.object({
  theme: z.enum(['light', 'dark', 'system'], { error: 'expected light, dark or system' }).default('system'),
  language: z.enum(['en', 'zh-CN'], { error: 'expected en or zh-CN' }).default('en'),
  /** Electron accelerator that opens the quick prompt from anywhere. */
  quick_prompt_shortcut: z.string().min(1).max(100).default('CommandOrControl+Shift+Space'),
  /** Start the desktop app hidden in the tray at login. Unset: the OS setting is left as it is. */
  launch_at_login: z.boolean({ error: 'expected true or false' }).optional(),
});

const ToolsSection = z.object({
  /** Tools switched off in the app's settings: left out of what the model is offered. */
  disabled: z.array(z.string().min(1), { error: 'expected a list of tool names' }).default([]),
});

export const ConfigSchema = z.object({
  version: z.literal(CONFIG_VERSION, { error: `expected ${CONFIG_VERSION}` }).default(CONFIG_VERSION),
  // prefault (not default): the empty object is parsed, so the inner defaults apply.
  model: ModelSection.prefault({}),
  providers: z
    .record(z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, { error: 'provider names are lowercase letters, digits, "-" and "_"' }), ProviderConfigSchema)
    .default({})
    .transform((user) => ({ ...PROVIDER_PRESETS, ...user })),
  local: LocalSection.prefault({}),
  agent: AgentSection.prefault({}),
  terminal: TerminalSection.prefault({}),
  approvals: ApprovalsSection.prefault({}),
  checkpoints: CheckpointsSection.prefault({}),
  secrets: SecretsSection.prefault({}),
  security: SecuritySection.prefault({}),
  memory: MemorySection.prefault({}),
  skills: SkillsSection.prefault({}),
  review: ReviewSection.prefault({}),
  user_model: UserModelSection.prefault({}),
  compression: CompressionSection.prefault({}),
  search: SearchSection.prefault({}),
  tools: ToolsSection.prefault({}),
  ui: UiSection.prefault({}),
  gateway: GatewaySection.prefault({}),
  cron: CronSection.prefault({}),
  api: ApiSection.prefault({}),
});

export type HearthConfig = z.infer<typeof ConfigSchema>;

export function defaultConfig(): HearthConfig {
  return ConfigSchema.parse({});
}
