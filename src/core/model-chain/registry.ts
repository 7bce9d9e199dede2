import { HearthError } from '../errors.js';
import type { HearthConfig, ProviderConfig } from '../config/schema.js';
import { AnthropicModel } from '../llm/providers/anthropic.js';
import { LocalModel, defaultLocalThreads } from '../local-model/local.js';
import { OpenAICompatibleModel } from '../llm/providers/openai.js';
import { FallbackChain } from '../llm/fallback.js';
import { parseModelSpec, type ModelSpec } from '../llm/model-spec.js';
import type { ChatModel, ModelDescription, ModelEvent } from '../llm/types.js';
import type { HostSpawner } from '../local-model/local-process.js';
import { apiKeyAccount } from '../config/keychain-accounts.js';
import { isLocalEndpoint } from '../llm/provider-probe.js';

/** Command-line or caller overrides on top of config.yaml. */
export interface ModelOverrides {
  /** Replaces `model.default` (fallbacks still apply). */
  model?: string;
  provider?: 'openai' | 'anthropic' | 'local';
  baseUrl?: string;
  /** Name of the env var holding the API key. */
  apiKeyEnv?: string;
}

export interface ModelContext {
  home: string;
  config: HearthConfig;
  env: NodeJS.ProcessEnv;
  overrides?: ModelOverrides;
  /**
   * Keychain lookup for API keys stored by `hearth setup` / the desktop app (account `provider:<name>`).
   * `optional`: the provider works without a key (a server on this machine), so a keychain that cannot be read
   * is not worth a warning.
   */
  getSecret?: (account: string, options?: { optional: boolean }) => string | null;
  onLoadProgress?: (progress: number) => void;
  /** How the model host process starts: `child_process.fork` by default, a `utilityProcess` in Electron. */
  spawnHost?: HostSpawner;
}

/**
 * Builds the model a session talks to: the configured (or overridden) default, wrapped in a fallback
 * chain when fallbacks are configured. Provider types come from a table, not an if-chain, so adding a
 * wire protocol is one entry here and one file in providers/.
 */
export function createModelChain(ctx: ModelContext): ChatModel {
  const primary = ctx.overrides?.model ?? defaultModelFromEnv(ctx) ?? ctx.config.model.default;
  const specs = [primary, ...ctx.config.model.fallbacks.filter((s) => s !== primary)];
  const models = specs.map((spec, index) => createChatModel(spec, ctx, index === 0));
  return models.length === 1 ? (models[0] as ChatModel) : new FallbackChain(models);
}

/** `OPENAI_BASE_URL` alone (as tools like llama-server's docs suggest) selects an OpenAI-compatible default. */
function defaultModelFromEnv(ctx: ModelContext): string | undefined {
  if (ctx.overrides?.model || !ctx.env.OPENAI_BASE_URL) return undefined;
  return `openai:${ctx.env.OPENAI_MODEL ?? 'default'}`;
}

export function createChatModel(specText: string, ctx: ModelContext, applyOverrides = true): ChatModel {
  const overrides = applyOverrides ? (ctx.overrides ?? {}) : {};
  // A bare model name with an explicit --base-url means an OpenAI-compatible endpoint.
  const provider = overrides.provider ?? (overrides.baseUrl && !specText.includes(':') ? 'openai' : undefined);
  const spec = parseModelSpec(specText, { home: ctx.home, ...(provider ? { provider } : {}) });
  if (spec.kind === 'local') return createLocal(spec, ctx);
  return createRemote(spec, ctx, overrides);
}

function createLocal(spec: Extract<ModelSpec, { kind: 'local' }>, ctx: ModelContext): ChatModel {
  const local = ctx.config.local;
  return new LocalModel({
    modelPath: spec.path,
    threads: local.threads === 'auto' ? defaultLocalThreads() : local.threads,
    gpu: local.gpu,
    contextSize: local.context_size,
    ...(ctx.onLoadProgress ? { onLoadProgress: ctx.onLoadProgress } : {}),
    ...(ctx.spawnHost ? { spawnHost: ctx.spawnHost } : {}),
  });
}

type RemoteFactory = (args: { id: string; provider: string; endpoint: ProviderConfig; model: string; baseUrl: string; apiKey: string | undefined }) => ChatModel;

const remoteFactories: Record<ProviderConfig['type'], RemoteFactory> = {
  openai: ({ id, provider, endpoint, model, baseUrl, apiKey }) =>
    new OpenAICompatibleModel({ id, provider, baseUrl, model, ...(apiKey ? { apiKey } : {}), ...(endpoint.context_length === undefined ? {} : { contextLength: endpoint.context_length }) }),
  anthropic: ({ id, provider, endpoint, model, baseUrl, apiKey }) => {
    const contextLength = endpoint.context_length === undefined ? {} : { contextLength: endpoint.context_length };
    // Fail at use, not at construction: a fallback entry without a key must not stop the chain from starting.
    if (!apiKey) {
      const reason = new HearthError('model_auth', `${id}: no API key. Set ${endpoint.api_key_env ?? 'the provider\'s api_key_env'} or store one with \`hearth setup\`.`);
      return new UnavailableModel(id, { kind: 'remote', provider, model, ...contextLength, capabilities: { tools: 'native', images: false } }, reason);
    }
    return new AnthropicModel({ id, provider, baseUrl, model, apiKey, ...contextLength });
  },
};

function createRemote(spec: Extract<ModelSpec, { kind: 'remote' }>, ctx: ModelContext, overrides: ModelOverrides): ChatModel {
  const configured = ctx.config.providers[spec.provider];
  if (!configured) {
    const known = Object.keys(ctx.config.providers).join(', ');
    throw new HearthError('model_not_configured', `Unknown provider "${spec.provider}". Known providers: ${known}. Add it under providers: in config.yaml, or pass --base-url with --provider openai|anthropic.`);
  }
  // An exported-but-empty OPENAI_BASE_URL means unset, as shells and .env files often leave it.
  const envBaseUrl = spec.provider === 'openai' ? ctx.env.OPENAI_BASE_URL || undefined : undefined;
  const baseUrl = checkedBaseUrl(overrides.baseUrl ?? envBaseUrl ?? configured.base_url);
  const keyEnv = overrides.apiKeyEnv ?? configured.api_key_env;
  if (overrides.apiKeyEnv && ctx.env[overrides.apiKeyEnv] === undefined) {
    throw new HearthError('model_auth', `--api-key-env names ${overrides.apiKeyEnv}, but that environment variable is not set.`);
  }
  const optional = keyEnv === undefined && isLocalEndpoint(baseUrl);
  const apiKey = (keyEnv ? ctx.env[keyEnv] : undefined) ?? ctx.getSecret?.(apiKeyAccount(spec.provider), { optional }) ?? undefined;
  const id = `${spec.provider}:${spec.model}`;
  return remoteFactories[configured.type]({ id, provider: spec.provider, endpoint: configured, model: spec.model, baseUrl, apiKey });
}

/** An http(s) URL without trailing slashes; anything else is reported before a request is made. */
function checkedBaseUrl(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch (_err) {
    // Not a URL at all: reported below with the same message as a wrong scheme.
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new HearthError('model_not_configured', `"${text}" is not an http(s) base URL. Write it in full, e.g. http://127.0.0.1:11434/v1.`);
  }
  return text.replace(/\/+$/, '');
}

/** A configured model that cannot work (e.g. no key); it fails with its reason when used, so fallbacks apply. */
class UnavailableModel implements ChatModel {
  constructor(
    readonly id: string,
    private readonly description: ModelDescription,
    private readonly reason: HearthError,
  ) {}

  describe(): ModelDescription {
    return this.description;
  }

  // eslint-disable-next-line require-yield -- it has nothing to stream: it only reports why it cannot run.
  async *stream(): AsyncGenerator<ModelEvent> {
    throw this.reason;
  }
}
