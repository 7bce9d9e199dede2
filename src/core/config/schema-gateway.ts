import { z } from 'zod';
import { envName } from './schema-values.js';

/**
 * `gateway.*`: Hearth on chat platforms (issue 13). Tokens are never here: `token_env` names the environment
 * variable, else the keychain holds them.
 */

/** Platform user ids as strings; numbers (Telegram ids written bare in YAML) are accepted and kept as text. */
const userIds = z.array(z.union([z.string().min(1), z.number().int()]).transform(String), { error: 'expected a list of user ids' }).default([]);

const TelegramSection = z.object({
  token_env: envName.optional(),
  /** The Bot API server; a local `telegram-bot-api` or a test server can stand in for the official one. */
  api_root: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).default('https://api.telegram.org'),
  allowed_users: userIds,
});

export const GatewaySection = z.object({
  /** Where chat-started work runs (default: `gateway-workspace` under HEARTH_HOME). */
  workspace: z.string().min(1).optional(),
  /** Users allowed on every platform to answer any approval and use admin commands, as `platform:user_id`. */
  admins: z.array(z.string().regex(/^[a-z]+:.+$/, { error: 'expected "platform:user_id"' })).default([]),
  /** A DM from someone not yet allowed: reply with a pairing code (the default) or ignore it. */
  unknown_dm: z.enum(['pair', 'ignore'], { error: 'expected pair or ignore' }).default('pair'),
  telegram: TelegramSection.optional(),
});
