import type { ChatMessage } from '../../llm/types.js';

/**
 * Messages compression must keep verbatim: activated skill content (SKILLS-SPEC §7 "Protect activated
 * skill content from compaction and pruning"). A skill's instructions summarised into a paragraph stop
 * being instructions the model follows, so they are never pruned and never summarised.
 */

/** The tool whose results are a skill's body (progressive disclosure: the model loads it on demand). */
export const SKILL_VIEW_TOOL = 'skill_view';

/** The wrapper `/skill-name` activation puts around a skill body in a user message. */
const SKILL_CONTENT_TAG = /<skill_content[\s>]/;

export function isProtectedMessage(message: ChatMessage): boolean {
  if (message.role === 'tool') return message.toolName === SKILL_VIEW_TOOL;
  if (message.role === 'user') return SKILL_CONTENT_TAG.test(message.content);
  return false;
}
