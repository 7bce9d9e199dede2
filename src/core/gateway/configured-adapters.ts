import type { HearthConfig } from '../config/schema.js';
import { HearthError, errorMessage, isHearthError } from '../errors.js';
import { getSecret } from '../safety/secrets/keychain.js';
import { createSignalAdapter, signalOptionsFromConfig } from './platforms/signal.js';
import { createSlackAdapter } from './platforms/slack.js';
import { createTelegramAdapter } from './platforms/telegram.js';
import type { AdapterContext, Platform, PlatformAdapter } from './types.js';

/**
 * The platforms `hearth gateway` can run, one entry each (a registry, not a switch): whether config.yaml sets the
 * platform up, and how its adapter is built from its section. Secrets come from the environment variable the
 * section names (`token_env`, `*_env`) or, when that is unset, the OS keychain (account `gateway:<platform>:<name>`);
 * never from config.yaml. `lockToken` is what the one-owner-per-token lock hashes.
 */
type GatewaySettings = HearthConfig['gateway'];

export interface BuiltAdapter {
  adapter: PlatformAdapter;
  /** The credential that identifies the bot (locked so two homes cannot run it), or null where there is none (Signal: the account number). */
  lockToken: string;
}

interface AdapterEntry {
  platform: Platform;
  configured(settings: GatewaySettings): boolean;
  build(settings: GatewaySettings, env: NodeJS.ProcessEnv, ctx: AdapterContext): BuiltAdapter;
}

/** A secret named by `<key>_env` in `gateway.<platform>`, or from the keychain. */
export function gatewaySecret(env: NodeJS.ProcessEnv, platform: Platform, name: string, envVar: string | undefined): string {
  if (envVar !== undefined) {
    const value = env[envVar]?.trim();
    if (value) return value;
  }
  const account = `gateway:${platform}:${name}`;
  let stored: string | null = null;
  try {
    stored = getSecret(account);
  } catch (err) {
    if (!isHearthError(err, 'keychain_unavailable')) throw err;
    if (envVar === undefined) throw new HearthError('config_invalid', `The ${platform} ${name} is not set: name an environment variable in gateway.${platform} (${errorMessage(err)})`);
  }
  if (stored !== null && stored !== '') return stored;
  throw new HearthError(
    'config_invalid',
    envVar === undefined
      ? `The ${platform} ${name} is not set: name the environment variable that holds it in gateway.${platform}, or store it in the keychain as "${account}".`
      : `The ${platform} ${name} is missing: the environment variable ${envVar} (gateway.${platform}) is not set, and the keychain has no "${account}".`,
  );
}

export const ADAPTERS: readonly AdapterEntry[] = [
  {
    platform: 'telegram',
    configured: (s) => s.telegram !== undefined,
    build(s, env, ctx) {
      const section = s.telegram;
      if (section === undefined) throw new Error('gateway.telegram is not configured');
      const token = gatewaySecret(env, 'telegram', 'token', section.token_env);
      const { url, port, path, secret_env: secretEnv } = section.webhook;
      const webhook = section.mode === 'webhook' && url !== undefined ? { webhook: { url, port, path, ...(secretEnv === undefined ? {} : { secret: gatewaySecret(env, 'telegram', 'webhook_secret', secretEnv) }) } } : {};
      return { adapter: createTelegramAdapter({ token, apiRoot: section.api_root, mode: section.mode, ...webhook }, ctx), lockToken: token };
    },
  },
  {
    platform: 'slack',
    configured: (s) => s.slack !== undefined,
    build(s, env, ctx) {
      const section = s.slack;
      if (section === undefined) throw new Error('gateway.slack is not configured');
      const botToken = gatewaySecret(env, 'slack', 'bot_token', section.bot_token_env);
      const adapter = createSlackAdapter(
        section.mode === 'socket'
          ? { mode: 'socket', botToken, appToken: gatewaySecret(env, 'slack', 'app_token', section.app_token_env), apiUrl: section.api_root }
          : { mode: 'events', botToken, signingSecret: gatewaySecret(env, 'slack', 'signing_secret', section.signing_secret_env), apiUrl: section.api_root, events: section.events },
        ctx,
      );
      return { adapter, lockToken: botToken };
    },
  },
  {
    platform: 'signal',
    configured: (s) => s.signal !== undefined,
    build(s, _env, ctx) {
      const section = s.signal;
      if (section === undefined) throw new Error('gateway.signal is not configured');
      const options = signalOptionsFromConfig(section);
      return { adapter: createSignalAdapter(options, ctx), lockToken: `${options.httpUrl}\0${options.account}` };
    },
  },
];

/** The platforms config.yaml sets up, in registry order. */
export function configuredPlatforms(settings: GatewaySettings): Platform[] {
  return ADAPTERS.filter((entry) => entry.configured(settings)).map((entry) => entry.platform);
}

/** Platforms that have a section in config.yaml but no adapter in this build yet: said at start, not skipped silently. */
export function platformsWithoutAdapter(settings: GatewaySettings): string[] {
  const known = new Set(ADAPTERS.map((a) => a.platform));
  return ['telegram', 'discord', 'slack', 'whatsapp', 'signal'].filter((p) => !known.has(p as Platform) && (settings as Partial<Record<string, unknown>>)[p] !== undefined);
}
