import { z } from 'zod';
import { envName } from './schema-values.js';

/**
 * `gateway.*`: Hearth on chat platforms (issue 13). Tokens are never here: `token_env` names the environment
 * variable, else the keychain holds them.
 */

/** Platform user ids as strings; numbers (Telegram ids written bare in YAML) are accepted and kept as text. */
const userIds = z.array(z.union([z.string().min(1), z.number().int()]).transform(String), { error: 'expected a list of user ids' }).default([]);

/**
 * Telegram through grammY. `polling` (the default) long-polls `getUpdates`, so nothing listens; `webhook` serves
 * the update endpoint on 127.0.0.1 (a tunnel or reverse proxy forwards Telegram's HTTPS from `webhook.url` to it)
 * and accepts only requests carrying the secret token given to `setWebhook`.
 */
export const TelegramSection = z.object({
  token_env: envName.optional(),
  /** The Bot API server; a local `telegram-bot-api` or a test server can stand in for the official one. */
  api_root: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).default('https://api.telegram.org'),
  allowed_users: userIds,
  mode: z.enum(['polling', 'webhook'], { error: 'expected polling or webhook' }).default('polling'),
  webhook: z.object({
    /** The public HTTPS URL Telegram posts to (Telegram requires https); it must reach `port`/`path` here. */
    url: z.url({ protocol: /^https$/, error: 'expected the public https URL Telegram posts updates to' }).optional(),
    port: z.number({ error: 'expected a port number' }).int().min(0).max(65_535).default(8744),
    path: z.string().regex(/^\/[\w\-./]*$/, { error: 'expected a path such as /telegram/webhook' }).default('/telegram/webhook'),
    /** The secret Telegram echoes in X-Telegram-Bot-Api-Secret-Token (1-256 of A-Z a-z 0-9 _ -); unset: a fresh random one each start. */
    secret_env: envName.optional(),
  }).prefault({}),
}).refine((t) => t.mode !== 'webhook' || t.webhook.url !== undefined, { error: 'webhook mode needs webhook.url (the public https URL)', path: ['webhook', 'url'] });
export type TelegramSection = z.infer<typeof TelegramSection>;

const httpUrl = z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' });

/**
 * WhatsApp through the official Cloud API: Meta posts webhooks to `webhook` (served on 127.0.0.1 only: a tunnel or
 * reverse proxy forwards Meta's HTTPS to it), replies go out through the Graph API. The three secrets come from
 * the environment variables named here.
 */
const WhatsAppSection = z.object({
  /** The Graph API access token (a system user token). */
  token_env: envName.optional(),
  /** The Meta app secret: every webhook POST is signed with it (`X-Hub-Signature-256`). */
  app_secret_env: envName.optional(),
  /** The verify token typed into the app's webhook settings; Meta echoes it in the subscription check. */
  verify_token_env: envName.optional(),
  /** The business phone number's id (not the number itself), from the app's WhatsApp settings. */
  phone_number_id: z.union([z.string().regex(/^\d+$/), z.number().int().positive()], { error: 'expected the numeric phone number id' }).transform(String).optional(),
  /** The Graph API server; a test server can stand in for the official one. */
  graph_api_root: httpUrl.default('https://graph.facebook.com'),
  graph_api_version: z.string().regex(/^v\d+\.\d+$/, { error: 'expected a Graph API version such as v21.0' }).default('v21.0'),
  /** WhatsApp ids (the sender's phone number in international form, digits only). */
  allowed_users: userIds,
  webhook: z.object({
    port: z.number({ error: 'expected a port number' }).int().min(0).max(65_535).default(8743),
    path: z.string().regex(/^\/[\w\-./]*$/, { error: 'expected a path such as /whatsapp/webhook' }).default('/whatsapp/webhook'),
  }).prefault({}),
});

/** Signal through a `signal-cli daemon --http` the user runs (JSON-RPC at /api/v1/rpc, events at /api/v1/events). */
const SignalSection = z.object({
  http_url: httpUrl.default('http://127.0.0.1:8080'),
  /** The bot's own number as registered or linked in signal-cli, e.g. +15551234567. */
  account: z.string().regex(/^\+\d{6,15}$/, { error: 'expected the bot\'s number in international form, e.g. +15551234567' }).optional(),
  /** Signal numbers (+…) or ACI UUIDs. */
  allowed_users: userIds,
});

/**
 * Slack through @slack/bolt. `socket` (the default) opens an outgoing Socket Mode WebSocket, so nothing listens;
 * `events` serves the Events API on 127.0.0.1 (a tunnel or reverse proxy forwards Slack's HTTPS to it) and checks
 * every request's signature. The secrets come from the environment variables named here.
 */
const SlackSection = z.object({
  mode: z.enum(['socket', 'events'], { error: 'expected socket or events' }).default('socket'),
  /** The bot token (xoxb-…): every Web API call. */
  bot_token_env: envName.optional(),
  /** The app-level token (xapp-…, scope connections:write): Socket Mode only. */
  app_token_env: envName.optional(),
  /** The app's signing secret: Events API mode only; requests with a bad or stale signature get 401. */
  signing_secret_env: envName.optional(),
  /** The Web API root; a test server can stand in for the official one. */
  api_root: httpUrl.default('https://slack.com/api'),
  /** Slack user ids (U…/W…). */
  allowed_users: userIds,
  /** Events API mode: where the request URL is served (loopback only). */
  events: z.object({
    port: z.number({ error: 'expected a port number' }).int().min(0).max(65_535).default(3000),
    path: z.string().regex(/^\/[\w\-./]*$/, { error: 'expected a path such as /slack/events' }).default('/slack/events'),
  }).prefault({}),
});

/**
 * Discord through discord.js: the bot connects out to Discord's Gateway WebSocket, so nothing listens here. The
 * application needs the Message Content privileged intent (developer portal → Bot) to read what users write.
 */
const discordIdError = 'expected a Discord user id in quotes, e.g. "80351110224678912"';
const DiscordSection = z.object({
  /** The bot token (developer portal → Bot → Reset Token). */
  token_env: envName.optional(),
  /**
   * The REST root (discord.js appends `/v10`). The Gateway WebSocket URL is whatever this server's `GET
   * /gateway/bot` answers, so a self-hosted or test server that answers there stands in for both.
   */
  api_root: httpUrl.default('https://discord.com/api'),
  /**
   * Discord user ids. Quoted strings only: a snowflake has 17 to 20 digits, more than a YAML number keeps exactly,
   * so a bare number would silently name someone else.
   */
  allowed_users: z.array(z.string({ error: discordIdError }).regex(/^\d{15,21}$/, { error: discordIdError }), { error: 'expected a list of quoted Discord user ids' }).default([]),
  /** Register the chat commands as slash commands when the bot connects (best-effort: a failure is logged). */
  slash_commands: z.boolean({ error: 'expected true or false' }).default(true),
});

export const GatewaySection = z.object({
  /** Where chat-started work runs (default: `gateway-workspace` under HEARTH_HOME). */
  workspace: z.string().min(1).optional(),
  /** Users allowed on every platform to answer any approval and use admin commands, as `platform:user_id`. */
  admins: z.array(z.string().regex(/^[a-z]+:.+$/, { error: 'expected "platform:user_id"' })).default([]),
  /** A DM from someone not yet allowed: reply with a pairing code (the default) or ignore it. */
  unknown_dm: z.enum(['pair', 'ignore'], { error: 'expected pair or ignore' }).default('pair'),
  /** A message that arrives while the chat's turn runs: `queue` it as the next turn (default) or `steer` the running one. */
  while_busy: z.enum(['queue', 'steer'], { error: 'expected queue or steer' }).default('queue'),
  /** In groups, one session per participant (default) or one shared by the whole chat. */
  group_sessions_per_user: z.boolean({ error: 'expected true or false' }).default(true),
  /** In groups, answer only messages that mention the bot or reply to it (default), or every message. */
  group_require_mention: z.boolean({ error: 'expected true or false' }).default(true),
  telegram: TelegramSection.optional(),
  whatsapp: WhatsAppSection.optional(),
  signal: SignalSection.optional(),
  slack: SlackSection.optional(),
  discord: DiscordSection.optional(),
});
