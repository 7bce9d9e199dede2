import type { MessageEvent, Platform } from './types.js';

/**
 * Which conversation a message belongs to, and whether a group message is addressed to the bot at all.
 * The key is `platform:chat_type:chat:(user|thread)` (issue 13): a DM is one session per chat; in a group each
 * participant has their own session by default, and a thread is one shared session.
 */
export interface RoutingOptions {
  /** Groups: one session per participant (default) or one per chat. */
  groupSessionsPerUser: boolean;
  /** Groups: answer only messages that mention the bot or reply to it (default). */
  groupRequireMention: boolean;
}

export function sessionKey(event: Pick<MessageEvent, 'platform' | 'chat' | 'user' | 'threadId'>, options: Pick<RoutingOptions, 'groupSessionsPerUser'>): string {
  const base = `${event.platform}:${event.chat.type}:${event.chat.id}`;
  if (event.threadId !== undefined) return `${base}:thread:${event.threadId}`;
  if (event.chat.type === 'dm' || !options.groupSessionsPerUser) return base;
  return `${base}:user:${event.user.id}`;
}

/** Whether the bot should take this message up: every DM; in groups, mentions and replies to the bot (by default). */
export function addressedToBot(event: MessageEvent, options: Pick<RoutingOptions, 'groupRequireMention'>): boolean {
  if (event.chat.type === 'dm' || !options.groupRequireMention) return true;
  return event.mentionsBot || event.replyTo?.fromBot === true || isCommand(event.text);
}

/** A chat command (`/new`, `/approve@hearth_bot ID`): platforms deliver these to bots in groups without a mention. */
export function isCommand(text: string): boolean {
  return /^\/[A-Za-z][\w-]*(@\w+)?(\s|$)/.test(text.trim());
}

/** Who may talk to the agent and who may answer anyone's approvals. */
export interface AccessPolicy {
  isAdmin(platform: Platform, userId: string): boolean;
  isAllowed(platform: Platform, userId: string): boolean;
}

export interface AccessSources {
  /** `gateway.admins`: `platform:user_id` entries. */
  admins(): readonly string[];
  /** `gateway.<platform>.allowed_users`. */
  allowedUsers(platform: Platform): readonly string[];
  isPaired(platform: Platform, userId: string): boolean;
}

/** Deny by default: an admin, a user on the platform's allowlist, or a user the owner paired. Read live, so a config edit applies at once. */
export function accessPolicy(sources: AccessSources): AccessPolicy {
  const isAdmin = (platform: Platform, userId: string): boolean => sources.admins().includes(`${platform}:${userId}`);
  return {
    isAdmin,
    isAllowed: (platform, userId) => isAdmin(platform, userId) || sources.allowedUsers(platform).includes(userId) || sources.isPaired(platform, userId),
  };
}
