import type { ConfigService } from '../config/config-service.js';
import type { HearthConfig } from '../config/schema.js';
import { errorMessage } from '../errors.js';
import { createModelChain, type ModelContext, type ModelOverrides } from '../model-chain/registry.js';
import type { HostSpawner } from '../local-model/local-process.js';
import { SwitchableModel } from '../llm/switchable-model.js';
import type { ChatModel } from '../llm/types.js';
import { getSecret } from '../safety/secrets/keychain.js';
import type { Redactor } from '../safety/secrets/redact.js';

export interface ModelsServiceOptions {
  home: string;
  config: ConfigService;
  env: NodeJS.ProcessEnv;
  /** Model flags given at start (`--model`…); a reload drops them. */
  overrides?: ModelOverrides;
  onLoadProgress?: (progress: number) => void;
  spawnHost?: HostSpawner;
  /** Keys read from the keychain are added to it, so they never reach a transcript in clear. */
  redactor: Redactor | null;
  warn: (message: string) => void;
}

/** The chat model every session talks to, and the other model chains built the same way. */
export interface ModelsService {
  /** The switchable chat model: a reload swaps what is behind it, sessions keep the same object. */
  readonly chat: ChatModel;
  /**
   * Rebuilds the chat model's chain from config.yaml and the keychain as they are now (the user downloaded a
   * model or saved a key). Runs by itself when the chain's part of config.yaml changes, unless model flags were
   * given at start (`--model`…); those no longer apply after an explicit reload.
   */
  reload(): Promise<void>;
  /** Called after each `reload`; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
  /** Listen to the local model's load progress (0…1) from now on; returns the unsubscribe. */
  onLoadProgress(listener: (progress: number) => void): () => void;
  /** A chain for another role (the approvals reviewer, the injection judge), with this service's keys and hosts. */
  createChain(config: HearthConfig, overrides: ModelOverrides): ChatModel;
  /** Stops following config.yaml and disposes the chat model (its host process goes with it). */
  dispose(): Promise<void>;
}

export function createModelsService(options: ModelsServiceOptions): ModelsService {
  const { home, config, redactor, warn } = options;
  let keychainWarned = false;
  // Surfaces that exist only after the engine (the app service) still see the model load: they subscribe here.
  const loadListeners = new Set<(progress: number) => void>();
  const changeListeners = new Set<() => void>();
  const context = (current: HearthConfig, overrides: ModelOverrides | undefined): ModelContext => ({
    home,
    config: current,
    env: options.env,
    ...(overrides ? { overrides } : {}),
    onLoadProgress: (progress) => {
      options.onLoadProgress?.(progress);
      for (const listener of loadListeners) listener(progress);
    },
    ...(options.spawnHost ? { spawnHost: options.spawnHost } : {}),
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
  const chat = new SwitchableModel(createModelChain(context(config.current(), options.overrides)));
  const reload = async (): Promise<void> => {
    await chat.swap(createModelChain(context(config.current(), undefined)));
    for (const listener of changeListeners) listener();
  };
  // The next message goes to the model chosen in settings, by `hearth setup` or by hand (no restart). A model
  // named on the command line (`--model`) stays for this process: the user chose it over the file.
  const pinned = options.overrides !== undefined && Object.keys(options.overrides).length > 0;
  const unsubscribe = config.onChange(async (next, previous) => {
    if (!pinned && chainChanged(previous, next)) await reload();
  });
  return {
    chat,
    reload,
    onChange(listener) {
      changeListeners.add(listener);
      return () => {
        changeListeners.delete(listener);
      };
    },
    onLoadProgress(listener) {
      loadListeners.add(listener);
      return () => {
        loadListeners.delete(listener);
      };
    },
    createChain: (current, overrides) => createModelChain(context(current, overrides)),
    async dispose() {
      unsubscribe();
      await chat.dispose?.();
    },
  };
}

/** The models tried in order: the default, then the fallbacks. */
function chain(config: HearthConfig): string[] {
  return [config.model.default, ...config.model.fallbacks];
}

/** Whether the chain uses a model of `provider` (its key or address matters to the chat). */
export function chainUses(config: HearthConfig, provider: string): boolean {
  return chain(config).some((spec) => spec.startsWith(`${provider}:`));
}

/** A different chain, or a provider of the chain pointed elsewhere. */
export function chainChanged(before: HearthConfig, after: HearthConfig): boolean {
  if (chain(before).join('\n') !== chain(after).join('\n')) return true;
  return Object.keys(after.providers).some((name) => chainUses(after, name) && JSON.stringify(before.providers[name]) !== JSON.stringify(after.providers[name]));
}
