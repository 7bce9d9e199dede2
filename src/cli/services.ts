import { ConfigService } from '../core/config/config-service.js';
import { resolveHome } from '../core/config/home.js';
import type { StoreServices } from '../core/engine/store-services.js';
import type { CliIO } from './io.js';

/**
 * What a command that starts no model runs on (decision 0022): config.yaml through the same ConfigService the
 * engine uses, and for store-only commands the light composition (config, store, learned data). Warnings from
 * loading go to stderr, so output stays clean for scripts.
 */
export function cliConfig(io: CliIO, prefix = 'warning: '): ConfigService {
  return new ConfigService(resolveHome(io.env), { onWarning: (message) => io.err(`${prefix}${message}\n`) });
}

/**
 * Runs `body` over the store-only composition for this command's home and working folder, and disposes it
 * afterwards, whatever happened. Imported when called: a command that may not need the store (`hearth approvals
 * check`) does not pay for loading it.
 */
export async function withCliStore<T>(io: CliIO, body: (services: StoreServices) => Promise<T> | T): Promise<T> {
  const { openStoreServices } = await import('../core/engine/store-services.js');
  const services = openStoreServices({
    env: io.env,
    workspace: io.cwd,
    // As the commands always did: $HOME, where a test points it, before the OS's idea of it.
    ...(io.env.HOME?.trim() ? { userHome: io.env.HOME.trim() } : {}),
    config: cliConfig(io),
  });
  try {
    return await body(services);
  } finally {
    await services.dispose();
  }
}
