import type { ParsedInput, RouteHandlers, RouteOutput } from '../../shared/contract.js';
import type { ConfigService } from '../config/config-service.js';
import { isHearthError } from '../errors.js';
import { probeProvider } from '../llm/provider-probe.js';
import { apiKeyAccount, getSecret } from '../safety/secrets/keychain.js';
import type { AppContext } from './context.js';

export type ProviderRoutes = 'providers.test';

/**
 * The connection test behind Settings' and onboarding's "Test connection": the UI sends the URL it shows
 * (saved or still being typed), the engine sends the request, so a key stored in the keychain is used without
 * ever reaching the renderer.
 */
export function providerHandlers(ctx: AppContext, env: NodeJS.ProcessEnv = process.env): Pick<RouteHandlers, ProviderRoutes> {
  return {
    'providers.test': async (input) => {
      const apiKey = input.apiKey ?? storedKey(ctx.engine.config, input, env);
      const result = await probeProvider({ type: input.type, baseUrl: input.baseUrl, apiKey });
      return toView(result);
    },
  };
}

/** The key the chat would use for this provider: its `api_key_env` variable, then the keychain (as registry.ts). */
function storedKey(config: ConfigService, input: ParsedInput<'providers.test'>, env: NodeJS.ProcessEnv): string | undefined {
  if (input.provider === undefined) return undefined;
  const keyEnv = config.current().providers[input.provider]?.api_key_env;
  const fromEnv = keyEnv ? env[keyEnv] : undefined;
  if (fromEnv) return fromEnv;
  try {
    return getSecret(apiKeyAccount(input.provider)) ?? undefined;
  } catch (err) {
    // No keychain: test without a key; an endpoint that needs one then says so ("needs an API key").
    if (isHearthError(err, 'keychain_unavailable')) return undefined;
    throw err;
  }
}

function toView(result: Awaited<ReturnType<typeof probeProvider>>): RouteOutput<'providers.test'> {
  if (result.ok) return { ok: true, url: result.url, models: result.models, problem: null, message: result.message };
  return { ok: false, url: result.url, models: [], problem: result.problem, message: result.message };
}
