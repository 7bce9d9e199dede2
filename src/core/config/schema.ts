import { z } from 'zod';

/**
 * `config.yaml`, validated. snake_case keys as users write them; every key optional with a default, so
 * an empty or missing file is a working configuration. The TypeScript type is inferred from this schema
 * (STYLE.md: types from schemas). No secrets here: API keys live in the environment or the OS keychain.
 */

export const CONFIG_VERSION = 1;

const positiveInt = (what: string) => z.number({ error: `expected ${what}` }).int({ error: `expected ${what}` }).positive({ error: `expected ${what}` });
const positiveNumber = (what: string) => z.number({ error: `expected ${what}` }).positive({ error: `expected ${what}` });

export const ProviderConfigSchema = z.object({
  /** Wire protocol the endpoint speaks. */
  type: z.enum(['openai', 'anthropic']),
  // http(s) only: "localhost:11434" parses as a URL with the scheme "localhost:" and would fail at the first request.
  base_url: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL such as "http://127.0.0.1:11434/v1"' }),
  /** Name of the environment variable holding the API key; absent for keyless local servers. */
  api_key_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: 'expected an environment variable name such as OPENAI_API_KEY' }).optional(),
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

const TerminalSection = z.object({
  timeout_s: positiveNumber('a positive number of seconds').default(180),
  output_limit_chars: positiveInt('a positive integer').default(50_000),
});

const ApprovalsSection = z.object({
  mode: z.enum(['manual', 'off']).default('manual'),
  timeout_s: positiveNumber('a positive number of seconds').default(60),
  allowlist: z.array(z.string().min(1), { error: 'expected a list of command patterns' }).default([]),
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
});

export type HearthConfig = z.infer<typeof ConfigSchema>;

export function defaultConfig(): HearthConfig {
  return ConfigSchema.parse({});
}
