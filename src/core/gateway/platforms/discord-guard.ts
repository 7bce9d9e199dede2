import { SimpleShardingStrategy, type IShardingStrategy, type WebSocketOptions } from 'discord.js';
import { z } from 'zod';
import { RawMessage } from './discord-message.js';

/**
 * A gate in front of discord.js for Gateway dispatches. discord.js trusts Discord's payloads: a MESSAGE_CREATE
 * without an author reaches listeners with `author: null`, and a throw inside its handlers becomes an unhandled
 * rejection in the shard's message loop, which ends a Node process. Hearth must skip such a payload with a
 * warning instead, so every dispatch is checked here, before discord.js's cache and events see it.
 *
 * The seam is discord.js's own `ws.buildStrategy` option: the sharding strategy is built on a view of the
 * WebSocket manager whose `emit` drops the dispatches that fail the check; everything else passes unchanged.
 */

/** @discordjs/ws's manager, as discord.js's `ws.buildStrategy` option receives it. */
type WSWebSocketManager = Parameters<NonNullable<WebSocketOptions['buildStrategy']>>[0];

/** @discordjs/ws's event for a dispatch (WebSocketShardEvents.Dispatch there; discord.js's own enum of that name differs). */
const DISPATCH_EVENT = 'dispatch';

const snowflake = z.string().regex(/^\d{1,20}$/);

const InteractionUser = z.object({ id: snowflake, username: z.string() });

/** The interaction kinds the adapter answers (components and slash commands) need these fields. */
const RawInteraction = z.object({
  id: snowflake,
  application_id: snowflake,
  type: z.number().int(),
  token: z.string().min(1),
  channel_id: snowflake.optional(),
  guild_id: snowflake.optional(),
  user: InteractionUser.optional(),
  member: z.object({ user: InteractionUser }).optional(),
  data: z.object({}).passthrough().optional(),
  message: z.object({ id: snowflake, channel_id: snowflake }).passthrough().optional(),
}).refine((i) => i.user !== undefined || i.member !== undefined, { error: 'names no user (neither user nor member.user)' });

/** The dispatches whose payload the adapter relies on; the rest only need an object (or null) to be handled. */
const CHECKED: Record<string, z.ZodType> = {
  MESSAGE_CREATE: RawMessage,
  INTERACTION_CREATE: RawInteraction,
};

/** Why a dispatch must not reach discord.js, or undefined when it may. */
export function dispatchProblem(packet: unknown): string | undefined {
  if (typeof packet !== 'object' || packet === null) return 'the frame is not an object';
  const { t, d } = packet as { t?: unknown; d?: unknown };
  if (typeof t !== 'string') return 'the dispatch has no event name (t)';
  if (d !== null && (typeof d !== 'object' || Array.isArray(d))) return `${t}: the payload (d) is not an object`;
  const schema = CHECKED[t];
  if (schema === undefined || d === null) return schema === undefined ? undefined : `${t}: the payload (d) is null`;
  const result = schema.safeParse(d);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  return `${t}: ${issue ? `${issue.path.join('.') || 'payload'}: ${issue.message}` : 'malformed'}`;
}

/** A `ws.buildStrategy` for discord.js's Client options that skips (and reports) malformed dispatches. */
export function guardedStrategy(onSkipped: (reason: string, packet: { t?: unknown; s?: unknown }) => void): (manager: WSWebSocketManager) => IShardingStrategy {
  return (manager) => {
    // The strategy's shards report through `manager.emit`; a view of the manager with a checking `emit` (and
    // everything else inherited) lets the default strategy run untouched.
    const view = Object.create(manager) as WSWebSocketManager;
    const emit = manager.emit.bind(manager) as (event: string, payload: unknown) => boolean;
    Object.defineProperty(view, 'emit', {
      value: (event: string, payload: { data?: { t?: unknown; s?: unknown } }) => {
        if (event === DISPATCH_EVENT) {
          const problem = dispatchProblem(payload.data);
          if (problem !== undefined) {
            onSkipped(problem, payload.data ?? {});
            return false;
          }
        }
        return emit(event, payload);
      },
    });
    return new SimpleShardingStrategy(view);
  };
}
