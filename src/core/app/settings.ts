import type { ParsedInput, RouteHandlers, RouteOutput } from '../../shared/contract.js';
import { PROVIDER_PRESETS, type HearthConfig } from '../config/schema.js';
import { chainUses } from '../engine/models-service.js';
import { isHearthError } from '../errors.js';
import { isLocalEndpoint } from '../llm/provider-probe.js';
import { apiKeyAccount, deleteSecret, getSecret, setSecret } from '../safety/secrets/keychain.js';
import type { AppContext } from './context.js';
import { AppError } from './errors.js';

export type SettingsRoutes = 'settings.get' | 'settings.update' | 'secrets.setApiKey' | 'secrets.deleteApiKey';
type SettingsView = RouteOutput<'settings.get'>;
type SettingsPatch = ParsedInput<'settings.update'>;

/**
 * Settings live in config.yaml, behind the engine's ConfigService: read as the file is now (an edit made by hand
 * or by `hearth setup` while the app runs is seen), changed through its one read-modify-write, so such an edit is
 * not overwritten. The services follow the change themselves (decision 0022): models and API keys apply to the
 * next message, tool toggles to sessions started from now on, approvals and UI preferences at once.
 *
 * API keys go to the OS keychain only (`provider:<name>`): never into config.yaml, never back to a UI,
 * never into a log or an error message. A UI learns only whether a key is stored.
 */
export function settingsHandlers(ctx: AppContext): Pick<RouteHandlers, SettingsRoutes> {
  const { config } = ctx.engine;
  const view = (current: HearthConfig): SettingsView => toView(current, ctx.engine.tools.all.names());
  return {
    'settings.get': async () => view(config.current()),
    'settings.update': async (patch) => {
      // Resolves once the live policy, the tool list and the model chain follow the saved file.
      const next = await config.update((draft) => applyPatch(draft, patch));
      // A removed provider's key goes too: a later provider of the same name must not inherit it.
      if (patch.removeProvider !== undefined && !Object.hasOwn(PROVIDER_PRESETS, patch.removeProvider)) forgetKey(patch.removeProvider);
      return view(next);
    },
    'secrets.setApiKey': async (input) => {
      setSecret(apiKeyAccount(input.provider), input.key);
      // Providers read their key when the chain is built: rebuild it (only if it uses this provider, so a
      // loaded local model is not thrown away for nothing).
      if (chainUses(config.current(), input.provider)) await ctx.engine.models.reload();
      return { stored: true as const };
    },
    'secrets.deleteApiKey': async (input) => {
      deleteSecret(apiKeyAccount(input.provider));
      if (chainUses(config.current(), input.provider)) await ctx.engine.models.reload();
      return { ok: true as const };
    },
  };
}

/** The models tried in order: the default, then the fallbacks. */
function chain(config: HearthConfig): string[] {
  return [config.model.default, ...config.model.fallbacks];
}


function toView(config: HearthConfig, toolNames: readonly string[]): SettingsView {
  const disabled = new Set(config.tools.disabled);
  return {
    defaultModel: config.model.default,
    fallbacks: config.model.fallbacks,
    providers: Object.entries(config.providers).map(([name, provider]) => ({
      name,
      type: provider.type,
      baseUrl: provider.base_url,
      hasKey: hasKey(name),
      builtIn: Object.hasOwn(PROVIDER_PRESETS, name),
      edited: Object.hasOwn(PROVIDER_PRESETS, name) && !sameEntries(provider, PROVIDER_PRESETS[name] as object),
      local: isLocalEndpoint(provider.base_url),
    })),
    approvals: { mode: config.approvals.mode, allowlist: config.approvals.allowlist, timeoutSeconds: config.approvals.timeout_s },
    toolset: config.agent.toolset,
    // Disabled tools that are not in this toolset are listed too, so they can be switched back on.
    tools: [...new Set([...toolNames, ...disabled])].sort().map((name) => ({ name, enabled: !disabled.has(name) })),
    theme: config.ui.theme,
    language: config.ui.language,
    quickPromptShortcut: config.ui.quick_prompt_shortcut,
  };
}

function hasKey(provider: string): boolean {
  try {
    return getSecret(apiKeyAccount(provider)) !== null;
  } catch (err) {
    // No reachable keychain means no key can be stored there either: "no key" is the true answer, and
    // saving one reports the keychain problem to the user.
    if (isHearthError(err, 'keychain_unavailable')) return false;
    throw err;
  }
}

function applyPatch(config: HearthConfig, patch: SettingsPatch): HearthConfig {
  const next: HearthConfig = structuredClone(config);
  if (patch.defaultModel !== undefined) next.model.default = patch.defaultModel;
  if (patch.fallbacks !== undefined) next.model.fallbacks = patch.fallbacks;
  if (patch.provider !== undefined) {
    const { name, type, baseUrl } = patch.provider;
    // Keeps what the UI does not edit (api_key_env, context_length) of an existing entry.
    next.providers[name] = { ...next.providers[name], type, base_url: baseUrl };
  }
  if (patch.removeProvider !== undefined) removeProvider(next, patch.removeProvider);
  if (patch.approvalsMode !== undefined) next.approvals.mode = patch.approvalsMode;
  if (patch.allowlist !== undefined) next.approvals.allowlist = patch.allowlist;
  if (patch.disabledTools !== undefined) next.tools.disabled = patch.disabledTools;
  if (patch.theme !== undefined) next.ui.theme = patch.theme;
  if (patch.language !== undefined) next.ui.language = patch.language;
  if (patch.quickPromptShortcut !== undefined) next.ui.quick_prompt_shortcut = patch.quickPromptShortcut;
  return next;
}

/**
 * Drops a provider entry. One the chain uses is refused (the next message would fail); a preset cannot go (it
 * exists without configuration), but removing an edited preset restores its built-in values.
 */
function removeProvider(config: HearthConfig, name: string): void {
  const preset = PROVIDER_PRESETS[name];
  if (!Object.hasOwn(config.providers, name)) throw new AppError('not_found', `There is no provider "${name}".`);
  const users = chain(config).filter((spec) => spec.startsWith(`${name}:`));
  if (users.length > 0) {
    throw new AppError('conflict', `The provider "${name}" is in use (${users.join(', ')}). Choose another default model or remove the fallback first.`);
  }
  if (preset) {
    if (sameEntries(config.providers[name], preset)) throw new AppError('conflict', `"${name}" is built in and cannot be removed.`);
    config.providers[name] = { ...preset };
    return;
  }
  delete config.providers[name];
}

function forgetKey(provider: string): void {
  try {
    deleteSecret(apiKeyAccount(provider));
  } catch (err) {
    // No keychain: there is no key to forget.
    if (!isHearthError(err, 'keychain_unavailable')) throw err;
  }
}

function sameEntries(a: object | undefined, b: object): boolean {
  return a !== undefined && JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
}
