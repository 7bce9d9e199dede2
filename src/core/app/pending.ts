import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import type { RouteHandlers, RouteOutput } from '../../shared/contract.js';
import { errorMessage, isHearthError } from '../errors.js';
import { applyStagedWrite, MemoryPayload, SkillPayload } from '../learning/apply-staged.js';
import type { PendingWrite } from '../learning/pending-writes.js';
import type { MemoryTarget } from '../memory/budget.js';
import type { MemoryPlan } from '../memory/memory-plan.js';
import { manageSkill, supportFilePath } from '../skills/manage.js';
import { unifiedDiff } from '../text/unified-diff.js';
import { FactChange, factChangeText } from '../user-model/fact-changes.js';
import type { AppContext } from './context.js';
import { AppError } from './errors.js';

export type PendingRoutes = 'pending.list' | 'pending.decide';
type PendingChange = RouteOutput<'pending.list'>[number];


/**
 * Memory and skill writes the agent staged for approval. Each is shown with the diff approving it would
 * make now, computed by a dry run of the same operation; a write that would no longer apply says why
 * instead. Approving runs `applyStagedWrite`, the path `hearth pending approve` takes.
 */
export function pendingHandlers(ctx: AppContext): Pick<RouteHandlers, PendingRoutes> {
  const { learning, home } = ctx.engine;
  return {
    'pending.list': async () => Promise.all(learning.pending.list().map((write) => describe(ctx, write))),
    'pending.decide': async (input) => {
      if (!learning.pending.list().some((w) => w.id === input.id)) throw new AppError('not_found', `No staged write #${input.id}: it was already decided.`);
      if (!input.approve) {
        learning.pending.reject(input.id);
        return { ok: true as const };
      }
      await learning.pending.approve(input.id, async (write) => {
        await applyStagedWrite(write, { memory: learning.memory, limits: learning.limits, skills: learning.skills, home, facts: learning.facts });
      });
      return { ok: true as const };
    },
  };
}

async function describe(ctx: AppContext, write: PendingWrite): Promise<PendingChange> {
  const base = { id: write.id, kind: write.kind, createdAt: write.createdAt };
  try {
    return { ...base, summary: write.summary, diff: write.kind === 'memory' ? memoryDiff(ctx, write) : write.kind === 'user_model' ? userModelDiff(ctx, write) : await skillDiff(ctx, write) };
  } catch (err) {
    // The write cannot apply as things stand (memory full, skill changed since): approving would fail, so say so.
    if (!isHearthError(err) && !(err instanceof AppError)) throw err;
    return { ...base, summary: `${write.summary} — would fail now: ${errorMessage(err)}`, diff: '' };
  }
}

/** What approving changes in the user model: the fact's line before and after. */
function userModelDiff(ctx: AppContext, write: PendingWrite): string {
  const change = parsePayload(FactChange, write);
  const fact = ctx.engine.learning.facts.get(change.fact_id);
  if (fact === null) throw new AppError('not_found', `fact #${change.fact_id} no longer exists.`);
  if (change.action === 'reject' && fact.status !== 'active') throw new AppError('not_found', `fact #${change.fact_id} is ${fact.status}, not active.`);
  const { before, after } = factChangeText(change, fact);
  return unifiedDiff(before, after, { fromFile: 'a/user-model', toFile: 'b/user-model' });
}

function memoryDiff(ctx: AppContext, write: PendingWrite): string {
  const payload = parsePayload(MemoryPayload, write);
  const { memory, limits } = ctx.engine.learning;
  const { target } = payload;
  const op =
    payload.action === 'add'
      ? { action: 'add' as const, target, content: payload.content ?? '' }
      : payload.action === 'replace'
        ? { action: 'replace' as const, target, oldText: payload.old_text ?? '', content: payload.content ?? '' }
        : { action: 'remove' as const, target, oldText: payload.old_text ?? '' };
  const before = memory.read(target).map((e) => ({ id: e.id, content: e.content }));
  const after = applyPlan(before, memory.check(op, { limit: limits[target] }));
  const file = memoryFileName(target);
  return unifiedDiff(renderEntries(before), renderEntries(after), { fromFile: `a/${file}`, toFile: `b/${file}` });
}

function applyPlan(entries: { id: number; content: string }[], plan: MemoryPlan): { id: number; content: string }[] {
  switch (plan.kind) {
    case 'insert':
      return [...entries, { id: -1, content: plan.content }];
    case 'update':
      return entries.map((e) => (e.id === plan.entry.id ? { id: e.id, content: plan.content } : e));
    case 'delete':
      return entries.filter((e) => e.id !== plan.entry.id);
    case 'unchanged':
      return entries;
  }
}

/** The entries as MEMORY.md/USER.md hold them: separated by a line with `§`. */
function renderEntries(entries: { content: string }[]): string {
  return entries.length === 0 ? '' : `${entries.map((e) => e.content).join('\n§\n')}\n`;
}

function memoryFileName(target: MemoryTarget): string {
  return target === 'user' ? 'USER.md' : 'MEMORY.md';
}

async function skillDiff(ctx: AppContext, write: PendingWrite): Promise<string> {
  const payload = parsePayload(SkillPayload, write);
  const { skills } = ctx.engine.learning;
  const { home } = ctx.engine;
  const request = Object.fromEntries(Object.entries(payload).filter(([, v]) => v !== undefined)) as z.infer<typeof SkillPayload>;
  const change = await manageSkill({ library: skills.library(), usage: skills.usage, home }, request, { dryRun: true });
  if (change.diff !== undefined) return change.diff;
  if (payload.action === 'create') return unifiedDiff('', payload.content ?? '', { fromFile: '/dev/null', toFile: `b/${change.name}/SKILL.md` });
  if (payload.action === 'write_file' && payload.file_path !== undefined) {
    const skill = skills.find(change.name);
    if (skill === undefined) return '';
    const path = await supportFilePath(skill, payload.file_path);
    const before = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? '' : Promise.reject(err)));
    return unifiedDiff(before, payload.file_content ?? '', { fromFile: `a/${payload.file_path}`, toFile: `b/${payload.file_path}` });
  }
  // Delete and remove_file: the summary says what goes; there is no new text to compare.
  return '';
}

function parsePayload<T>(schema: z.ZodType<T>, write: PendingWrite): T {
  const parsed = schema.safeParse(write.payload);
  if (!parsed.success) throw new AppError('invalid_input', `Staged write #${write.id} is not a valid ${write.kind} change; reject it.`);
  return parsed.data;
}
