import type { MessageRecipient, MessageSender } from '../tools/send-message.js';
import type { GatewayStore } from './gateway-store.js';
import { splitMessage } from './split-message.js';
import { PLATFORMS, type Platform, type PlatformAdapter } from './types.js';

/**
 * The agent's `send_message` / `send_file` going out through the running gateway (the tools' `MessageSender`
 * port). Targets are `platform:chat_id[:thread_id]`. The chats the agent may write to without asking are the ones it
 * already talks in (a chat session exists); any other target goes through the approval broker in the tool.
 */
export function gatewayMessageSender(store: GatewayStore, adapterFor: (platform: Platform) => PlatformAdapter | undefined): MessageSender {
  const parse = (target: string): { adapter: PlatformAdapter; chatId: string; threadId?: string } => {
    const [platform = '', chatId = '', threadId] = target.split(':');
    if (!(PLATFORMS as readonly string[]).includes(platform) || chatId === '') throw new Error(`"${target}" is not a chat target: expected platform:chat_id, e.g. telegram:12345`);
    const adapter = adapterFor(platform as Platform);
    if (adapter === undefined) throw new Error(`${platform} is not connected in this gateway`);
    return { adapter, chatId, ...(threadId === undefined || threadId === '' ? {} : { threadId }) };
  };
  return {
    knownRecipients(): readonly MessageRecipient[] {
      const seen = new Map<string, MessageRecipient>();
      for (const key of store.sessionKeys()) {
        // platform:chat_type:chat[:thread:<id> | :user:<id>]
        const [platform, chatType, chatId, kind, extra] = key.split(':');
        if (platform === undefined || chatId === undefined) continue;
        const target = kind === 'thread' && extra !== undefined ? `${platform}:${chatId}:${extra}` : `${platform}:${chatId}`;
        if (!seen.has(target)) seen.set(target, { target, label: `${platform} ${chatType === 'dm' ? 'direct chat' : 'group'} ${chatId}` });
      }
      return [...seen.values()];
    },
    async send(target, text) {
      const { adapter, chatId, threadId } = parse(target);
      let first: string | undefined;
      for (const piece of splitMessage(text, adapter.limits.maxMessageChars)) {
        const { messageId } = await adapter.send({ chatId, ...(threadId === undefined ? {} : { threadId }), text: piece });
        first ??= messageId;
      }
      return { messageId: first ?? '' };
    },
    async sendFile(target, path, caption) {
      const { adapter, chatId, threadId } = parse(target);
      return adapter.sendFile({ chatId, ...(threadId === undefined ? {} : { threadId }), path, ...(caption === undefined ? {} : { caption }) });
    },
  };
}
