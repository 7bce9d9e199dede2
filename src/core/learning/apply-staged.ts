import { z } from 'zod';
import { HearthError } from '../errors.js';
import type { MemoryLimits } from '../memory/budget.js';
import { USER_CONFIRMED } from '../memory/provenance.js';
import type { MemoryStore } from '../memory/store.js';
import { manageSkill, SKILL_ACTIONS } from '../skills/manage.js';
import type { SkillService } from '../skills/service.js';
import { applyFactChange } from '../user-model/fact-changes.js';
import type { UserFactStore } from '../user-model/facts.js';
import type { PendingWrite } from './pending-writes.js';

/** A staged `memory` tool call, as stored in pending_writes. */
export const MemoryPayload = z.object({
  action: z.enum(['add', 'replace', 'remove']),
  target: z.enum(['memory', 'user']),
  content: z.string().optional(),
  old_text: z.string().optional(),
});

/** A staged `skill_manage` tool call, as stored in pending_writes. */
export const SkillPayload = z.object({
  action: z.enum(SKILL_ACTIONS),
  name: z.string().min(1),
  content: z.string().optional(),
  old_string: z.string().optional(),
  new_string: z.string().optional(),
  file_path: z.string().optional(),
  file_content: z.string().optional(),
});

/**
 * Runs a staged write for real, through the same operations the tools use (so the same checks apply:
 * a memory that filled up meanwhile refuses, a skill that no longer validates refuses). Returns the
 * line to show the user.
 */
export async function applyStagedWrite(
  write: PendingWrite,
  deps: { memory: MemoryStore; limits: MemoryLimits; skills: SkillService; home: string; facts?: UserFactStore },
): Promise<string> {
  if (write.kind === 'user_model') {
    if (deps.facts === undefined) throw new HearthError('usage', `Staged write #${write.id} changes the user model, which this caller cannot open.`);
    return applyFactChange(deps.facts, write.payload, write.id);
  }
  if (write.kind === 'memory') {
    const payload = parse(MemoryPayload, write);
    // The user approving is the user deciding: the write has their rights (it may change a protected entry) and what it saves is protected.
    const limit = { limit: deps.limits[payload.target], by: USER_CONFIRMED };
    if (payload.action === 'add') deps.memory.add(payload.target, payload.content ?? '', limit);
    else if (payload.action === 'replace') deps.memory.replace(payload.target, payload.old_text ?? '', payload.content ?? '', limit);
    else deps.memory.remove(payload.target, payload.old_text ?? '', limit);
    return `Applied: ${write.summary}`;
  }
  const payload = parse(SkillPayload, write);
  const change = await manageSkill(
    { library: deps.skills.library(), usage: deps.skills.usage, home: deps.home },
    Object.fromEntries(Object.entries(payload).filter(([, v]) => v !== undefined)) as z.infer<typeof SkillPayload>,
  );
  deps.skills.reload();
  return change.message;
}

function parse<T>(schema: z.ZodType<T>, write: PendingWrite): T {
  const parsed = schema.safeParse(write.payload);
  if (!parsed.success) {
    throw new HearthError('usage', `Staged write #${write.id} is not a valid ${write.kind} change (${parsed.error.issues.map((i) => i.message).join('; ')}); reject it with \`hearth pending reject ${write.id}\`.`);
  }
  return parsed.data;
}
