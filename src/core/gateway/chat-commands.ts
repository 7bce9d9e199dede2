import { countOf } from '../../shared/plural.js';
import type { Engine } from '../engine.js';
import { renderSkillContent } from '../skills/catalog.js';

export const CHAT_HELP = `Commands:
/new: start a new conversation (what is worth keeping is saved first)
/stop: stop the running answer
/status: what this chat's session is doing
/model: the model in use
/usage: tokens used in this conversation
/skills: the skills Hearth knows; /<skill-name> [request] runs one
/approve ID [session|always], /deny ID: answer an approval question
/help: this list`;

/** Commands that act at once, even while the chat's turn runs (they must never wait behind it). */
export const IMMEDIATE_COMMANDS: ReadonlySet<string> = new Set(['/stop', '/status', '/help', '/model', '/usage', '/skills', '/approve', '/deny']);

export interface ParsedCommand {
  /** Lower-case, without a `@botname` suffix: `/approve`. */
  name: string;
  args: string[];
  /** Everything after the name, as typed. */
  rest: string;
}

export function parseCommand(text: string): ParsedCommand | null {
  const match = /^\/([A-Za-z][\w-]*)(?:@\w+)?(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (match === null) return null;
  const rest = (match[2] ?? '').trim();
  return { name: `/${(match[1] ?? '').toLowerCase()}`, args: rest === '' ? [] : rest.split(/\s+/), rest };
}

/** A chat's view of its session, for /status and /usage. */
export interface ChatSessionView {
  sessionId: string | undefined;
  running: boolean;
  /** Messages waiting behind the running turn. */
  queued: number;
}

/** Answers for the read-only commands; null when `name` is not one of them. */
export function infoCommand(engine: Engine, name: string, view: ChatSessionView): string | null {
  switch (name) {
    case '/help':
      return CHAT_HELP;
    case '/model':
      return `Model: ${engine.models.chat.id}`;
    case '/status': {
      if (view.sessionId === undefined) return `No conversation yet in this chat. Model: ${engine.models.chat.id}.`;
      const state = view.running ? 'answering' : 'idle';
      const queued = view.queued > 0 ? `, ${countOf(view.queued, 'message', 'messages')} waiting` : '';
      return `Session ${view.sessionId}: ${state}${queued}. Model: ${engine.models.chat.id}.`;
    }
    case '/usage': {
      const record = view.sessionId === undefined ? null : engine.sessions.store.getSession(view.sessionId);
      if (record === null) return 'No messages in this conversation yet.';
      return `This conversation: ${countOf(record.inputTokens, 'input token', 'input tokens')}, ${countOf(record.outputTokens, 'output token', 'output tokens')}, ${countOf(record.messageCount, 'message', 'messages')}.`;
    }
    case '/skills': {
      const skills = engine.learning.skills.library().skills;
      return skills.length === 0 ? 'No skills yet.' : skills.map((s) => `/${s.name}: ${s.description.slice(0, 90)}`).join('\n');
    }
    default:
      return null;
  }
}

/**
 * `/<skill-name> [request]` as the terminal does it: the skill's instructions go to the agent as the user's
 * message (never into the system prompt) with the request. Null when no skill has that name.
 */
export function skillActivation(engine: Engine, command: ParsedCommand): string | null {
  const skill = engine.learning.skills.find(command.name.slice(1));
  if (skill === undefined) return null;
  engine.learning.skills.usage.recordUse(skill.name);
  return `${renderSkillContent(skill)}\n\n${command.rest === '' ? 'Follow this skill now.' : command.rest}`;
}
