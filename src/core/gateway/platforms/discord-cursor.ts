import type { CursorStore } from '../types.js';
import { snowflakeAfter } from './discord-message.js';

/**
 * The last message handled per Discord channel, kept in the gateway's cursor store so that after a new session
 * (a restart, or an outage too long for discord.js to RESUME) the adapter can fetch what it missed from each
 * channel's history. The cursor moves in arrival order and only past messages the gateway has finished with, so
 * a crash mid-message refetches that message (the gateway de-duplicates it) rather than skipping it.
 */
export class ChannelCursors {
  private readonly pending = new Map<string, { id: string; done: boolean }[]>();

  constructor(private readonly store: CursorStore, private readonly maxChannels = 200) {}

  /** Channels with a cursor, least recently active first. */
  channels(): string[] {
    const raw = this.store.get('channels');
    if (raw === undefined) return [];
    try {
      const list: unknown = JSON.parse(raw);
      return Array.isArray(list) ? list.filter((id): id is string => typeof id === 'string') : [];
    } catch {
      // A damaged index only costs the catch-up, never the live messages; start a new one.
      return [];
    }
  }

  last(channelId: string): string | undefined {
    return this.store.get(`last:${channelId}`);
  }

  /** Registers a message the gateway is about to handle; call the returned function when it has. */
  begin(channelId: string, messageId: string): () => void {
    const queue = this.pending.get(channelId) ?? [];
    if (queue.length === 0) this.pending.set(channelId, queue);
    const entry = { id: messageId, done: false };
    queue.push(entry);
    return () => {
      entry.done = true;
      let advanced: string | undefined;
      while (queue[0]?.done) advanced = queue.shift()?.id;
      if (queue.length === 0) this.pending.delete(channelId);
      if (advanced !== undefined) this.advance(channelId, advanced);
    };
  }

  /** Moves a channel's cursor forward (never back) and keeps the channel in the index. */
  advance(channelId: string, messageId: string): void {
    const current = this.last(channelId);
    if (current === undefined || snowflakeAfter(messageId, current)) this.store.set(`last:${channelId}`, messageId);
    const index = this.channels();
    if (index.at(-1) === channelId) return;
    const channels = index.filter((id) => id !== channelId);
    channels.push(channelId);
    // The oldest channels fall out of the index (their cursors stay, unused): catch-up stays bounded.
    this.store.set('channels', JSON.stringify(channels.slice(-this.maxChannels)));
  }
}
