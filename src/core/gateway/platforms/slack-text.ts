import type { types as slackTypes } from '@slack/bolt';
import type { ChatAction } from '../types.js';

/**
 * Slack's message text in both directions. Slack escapes `&`, `<` and `>` and writes mentions, channels and links
 * as `<…>` tokens; an outgoing text that is not escaped could ping a whole channel (`<!channel>`) or turn into a
 * link, so everything the agent writes is escaped and only Block Kit carries structure.
 */

/** Slack's own limit: longer texts are truncated. */
export const SLACK_HARD_LIMIT = 40_000;
/** A section block's text limit. */
const SECTION_LIMIT = 3000;
/** Elements in one actions block. */
const ACTIONS_PER_BLOCK = 25;

/** Escapes the three characters Slack reserves, so the agent's text shows as written and pings no one. */
export function escapeSlackText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The agent's Markdown as Slack mrkdwn, escaped: `**bold**` → `*bold*`, `*italic*` → `_italic_`, `~~x~~` → `~x~`,
 * `[label](url)` → `<url|label>`, headings bold, `* item` bullets as `•`. Code (fenced or inline) is only escaped;
 * a fence's language tag is dropped because Slack would print it as the block's first line.
 */
export function slackMrkdwn(markdown: string): string {
  const parts = escapeSlackText(markdown).split(/(^ {0,3}```[^\n]*\n[\s\S]*?^ {0,3}```[ \t]*$|`[^`\n]+`)/m);
  return parts.map((part, index) => {
    if (index % 2 === 1) return part.startsWith('`') && !part.startsWith('```') ? part : part.replace(/^( {0,3}```)[^\n]*\n/, '$1\n');
    return part
      .replace(/^#{1,6}[ \t]+(.+?)[ \t]*#*$/gm, '\uE000$1\uE000')
      .replace(/\*\*(?=\S)([\s\S]*?\S)\*\*|__(?=\S)([\s\S]*?\S)__/g, (_m, a: string | undefined, b: string | undefined) => `\uE000${a ?? b ?? ''}\uE000`)
      .replace(/^([ \t]*)\*[ \t]+/gm, '$1• ')
      .replace(/(^|[^*\w])\*(?=\S)([^*\n]*?\S)\*(?![*\w])/g, '$1_$2_')
      .replace(/~~(?=\S)([^~\n]*?\S)~~/g, '~$1~')
      .replace(/\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)/g, (_m, label: string, url: string) => `<${url}|${label.replace(/\|/g, '/')}>`)
      .replace(/\uE000/g, '*');
  }).join('');
}

/**
 * Incoming text as a person reads it: the bot's own mention removed (the gateway sees `/new`, not `<@U1> /new`),
 * other mentions as `@U…`, channels as `#name`, links as their label and URL, then the entities unescaped.
 */
export function readableSlackText(text: string, botUserId: string | undefined): string {
  let out = text;
  if (botUserId !== undefined) out = out.replace(new RegExp(`<@${botUserId}(?:\\|[^>]*)?>\\s*`, 'g'), '');
  out = out.replace(/<([^<>]*)>/g, (_whole, inner: string) => {
    const [target = '', label] = inner.split('|', 2);
    if (target.startsWith('@')) return label !== undefined ? `@${label}` : target;
    if (target.startsWith('#')) return `#${label ?? target.slice(1)}`;
    if (target.startsWith('!subteam^')) return `@${label ?? target.slice('!subteam^'.length)}`;
    if (target.startsWith('!')) return `@${(target.slice(1).split('^')[0] ?? '')}`;
    return label !== undefined && label !== target ? `${label} (${target})` : target;
  });
  return out.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').trim();
}

/** Whether the raw text names the bot (`<@U1>` or `<@U1|name>`). */
export function mentionsUser(text: string, userId: string | undefined): boolean {
  return userId !== undefined && new RegExp(`<@${userId}(?:\\|[^>]*)?>`).test(text);
}


/**
 * The blocks for a message with buttons: the text (as `slackMrkdwn`) in section blocks (3,000 characters each, Slack's section
 * limit) and the buttons in actions blocks, `action_id` = the ChatAction id so a press maps straight back. With
 * blocks present Slack shows them instead of `text`, which stays as the notification fallback.
 */
export function actionBlocks(text: string, actions: readonly ChatAction[]): slackTypes.KnownBlock[] {
  const blocks: slackTypes.KnownBlock[] = [];
  for (const piece of cutOutsideEntities(slackMrkdwn(text), SECTION_LIMIT)) {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: piece } });
  }
  for (let i = 0; i < actions.length; i += ACTIONS_PER_BLOCK) {
    blocks.push({
      type: 'actions',
      elements: actions.slice(i, i + ACTIONS_PER_BLOCK).map((action) => ({
        type: 'button',
        action_id: action.id,
        value: action.id,
        text: { type: 'plain_text', text: action.label.slice(0, 75), emoji: true },
        ...(action.style === undefined ? {} : { style: action.style }),
      })),
    });
  }
  return blocks;
}

/** Cuts escaped text into pieces of at most `max` characters, never inside an `&amp;`-style entity. */
function cutOutsideEntities(text: string, max: number): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + max, text.length);
    if (end < text.length) {
      const amp = text.lastIndexOf('&', end - 1);
      // An entity is at most 5 characters (`&amp;`); one that starts before the cut and ends after it moves the cut.
      if (amp > start && amp > end - 5 && text.indexOf(';', amp) >= end) end = amp;
    }
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}
