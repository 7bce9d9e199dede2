import { z } from 'zod';
import { isHearthError, type HearthError } from '../errors.js';
import type { MemoryLimits, MemoryTarget } from '../memory/budget.js';
import { checkEntryContentJudged, targetLabel, type MemoryOperation } from '../memory/memory-plan.js';
import type { InjectionJudge } from '../safety/injection/judge.js';
import { describeChange, quoteLine } from '../memory/changes.js';
import { AGENT_WRITER } from '../memory/provenance.js';
import type { MemoryStore, MemoryWriteOutcome } from '../memory/store.js';
import { formatUsage, type MemoryEntry, type MemoryUsage } from '../memory/usage.js';
import { defineTool, type ToolContext, type ToolResult } from './define.js';

const Input = z
  .object({
    action: z.enum(['add', 'replace', 'remove', 'read']).describe('add a new entry; replace or remove the entry containing old_text; read the live entries'),
    target: z.enum(['memory', 'user']).describe('memory: your notes about the environment and the work. user: who the user is (preferences, role, standing rules)'),
    content: z.string().optional().describe('add/replace: the entry text. One declarative fact per entry.'),
    old_text: z.string().optional().describe('replace/remove: a short part of the entry to change, appearing in exactly one entry'),
  })
  .superRefine((input, ctx) => {
    if ((input.action === 'add' || input.action === 'replace') && !input.content?.trim()) {
      ctx.addIssue({ code: 'custom', path: ['content'], message: `action "${input.action}" needs "content": the text to save` });
    }
    if ((input.action === 'replace' || input.action === 'remove') && !input.old_text?.trim()) {
      ctx.addIssue({ code: 'custom', path: ['old_text'], message: `action "${input.action}" needs "old_text": a short part of the entry, unique to it` });
    }
  });

export type MemoryToolInput = z.infer<typeof Input>;

/** A write held for the user's approval (memory.write_approval) instead of being applied. */
export interface StagedMemoryWrite {
  kind: 'memory';
  sessionId: string;
  /** The tool arguments, to apply unchanged once approved. */
  payload: MemoryToolInput;
  /** One line for the approval list. */
  summary: string;
}

export type StageMemoryWrite = (write: StagedMemoryWrite) => { id: number } | Promise<{ id: number }>;

export interface MemoryToolDeps {
  memory: MemoryStore;
  /** This session's budgets (memoryBudget for the session's model). */
  limits: Readonly<MemoryLimits>;
  /** When set, writes are checked then staged for approval, not applied. */
  stage?: StageMemoryWrite | null;
  /**
   * Where a removal or replacement of a protected entry goes instead (`pending_writes`): the store refuses it
   * to the agent, and the user decides. Without it the model is told the entry is protected and nothing waits.
   */
  propose?: StageMemoryWrite | null;
  /** `security.injection_judge`: asked first about new text the scanner is unsure of; its "injection" refuses the write. */
  injectionJudge?: InjectionJudge;
}

/** Refusals the model can fix itself; they come back as error results, never as exceptions. */
const MODEL_FIXABLE = ['memory_full', 'memory_no_match', 'memory_ambiguous_match', 'memory_protected', 'content_unsafe', 'tool_input_invalid'] as const;

export function createMemoryTool(deps: MemoryToolDeps) {
  return defineTool({
    name: 'memory',
    description:
      'Curated long-term memory, shown in the system prompt of every future session. Save durable, declarative facts: ' +
      'the environment, conventions, lessons learned (target "memory"), and who the user is, their preferences and standing rules (target "user"). ' +
      'Not task progress or anything stale within a week; procedures belong in skills. Both targets have a character budget: ' +
      'when one is full, consolidate (replace/remove) before adding. Entries the user wrote, approved or marked as rules are protected: ' +
      'a replace or remove of one is not applied but sent to the user for approval. Writes appear in the prompt from the next session on.',
    input: Input,
    parallelSafe: false,
    async run(input, ctx) {
      const { target } = input;
      if (input.action === 'read') return describeLive(target, deps.memory.read(target), deps.memory.usage(target, deps.limits[target]));
      const op = toOperation(input);
      try {
        // The store scans again as it writes; the judge can only add a refusal here, never clear a rule's finding.
        if (deps.injectionJudge !== undefined && 'content' in op) await checkEntryContentJudged(op.content, target, deps.injectionJudge);
        if (deps.stage) return await stageWrite(deps.stage, deps, op, input, ctx);
        return report(deps.memory.write(op, { limit: deps.limits[target], by: { ...AGENT_WRITER, sessionId: ctx.sessionId } }), ctx);
      } catch (err) {
        if (isHearthError(err, 'memory_protected') && deps.propose) return await proposeToUser(deps.propose, err, input, ctx);
        if (!MODEL_FIXABLE.some((code) => isHearthError(err, code))) throw err;
        tellUserAboutRefusal(err as HearthError, target, deps, ctx);
        return { isError: true, content: (err as HearthError).message };
      }
    },
  });
}

function toOperation(input: MemoryToolInput): MemoryOperation {
  const { target } = input;
  if (input.action === 'add') return { action: 'add', target, content: input.content ?? '' };
  if (input.action === 'replace') return { action: 'replace', target, oldText: input.old_text ?? '', content: input.content ?? '' };
  return { action: 'remove', target, oldText: input.old_text ?? '' };
}

async function stageWrite(stage: StageMemoryWrite, deps: MemoryToolDeps, op: MemoryOperation, input: MemoryToolInput, ctx: ToolContext): Promise<ToolResult> {
  // Check now, so a write that can never apply is refused at once rather than after the user approves it.
  const plan = deps.memory.check(op, { limit: deps.limits[op.target] });
  if (plan.kind === 'unchanged') return { content: `Already saved in ${targetLabel(op.target)}; nothing to stage.` };
  const summary = `${op.action} ${targetLabel(op.target)}: ${oneLine('content' in op ? op.content : op.oldText)}`;
  const { id } = await stage({ kind: 'memory', sessionId: ctx.sessionId, payload: input, summary });
  ctx.notify?.({ kind: 'learning', action: 'write_staged', target: op.target, message: `Memory write waiting for your approval (#${id}): ${summary}` });
  return { content: `Staged for the user's approval (#${id}); it is not saved until they approve it.` };
}

/**
 * The agent asked to remove or replace an entry only the user may change: the request is staged for the
 * user (`hearth pending`, the app) and the model told it waits, so a review short of room cannot delete a
 * standing rule (issue 11) and does not retry as if the write had failed.
 */
async function proposeToUser(propose: StageMemoryWrite, err: HearthError, input: MemoryToolInput, ctx: ToolContext): Promise<ToolResult> {
  const content = String((err.details as { content?: unknown } | undefined)?.content ?? input.old_text ?? '');
  const label = targetLabel(input.target);
  const summary =
    input.action === 'remove'
      ? `remove from ${label} (protected): '${quoteLine(content)}'`
      : `replace in ${label} (protected): '${quoteLine(content)}' → '${quoteLine(input.content ?? '')}'`;
  const { id } = await propose({ kind: 'memory', sessionId: ctx.sessionId, payload: input, summary });
  ctx.notify?.({
    kind: 'learning',
    action: 'write_staged',
    target: input.target,
    message: `Not ${input.action === 'remove' ? 'removed' : 'replaced'}, waiting for your approval (#${id}): the agent wants to ${summary}`,
  });
  return {
    content:
      `Not ${input.action === 'remove' ? 'removed' : 'replaced'}: ${err.message} Your request is waiting for the user's approval as pending change #${id}; ` +
      'it is not applied until they approve it, so do not retry it. To make room now, consolidate entries that are not protected, or leave the new fact out.',
  };
}

function report(outcome: MemoryWriteOutcome, ctx: ToolContext): ToolResult {
  const label = targetLabel(outcome.target);
  if (outcome.action === 'unchanged') return { content: `Already saved in ${label}; nothing changed.\n${describeLive(outcome.target, outcome.entries, outcome.usage)}` };
  // Named, never a bare "Memory updated": the user must see what the agent removed, and be able to undo it.
  const message = outcome.change
    ? describeChange(outcome.change)
    : outcome.action === 'added'
      ? `Added to ${label}: '${quoteLine(outcome.entry.content)}'`
      : `${outcome.action === 'removed' ? 'Removed from' : 'Replaced in'} ${label}: '${quoteLine(outcome.previous ?? outcome.entry.content)}'`;
  ctx.notify?.({ kind: 'learning', action: 'memory_updated', target: outcome.target, message, ...(outcome.change ? { undo: { memoryChange: outcome.change.id } } : {}) });
  const warnings = outcome.warnings.length
    ? `\nNote: the scanner marked this entry suspicious (${outcome.warnings.map((w) => w.message).join('; ')}). Keep memory to plain facts.`
    : '';
  const verb = { added: 'Added to', replaced: 'Replaced in', removed: 'Removed from' }[outcome.action];
  return { content: `${verb} ${label}. It shows in the prompt from the next session.${warnings}\n${describeLive(outcome.target, outcome.entries, outcome.usage)}` };
}

/**
 * The model alone seeing "memory full" is how Hermes Agent users lost memories without knowing
 * (PARITY §20): the user is told too, with the numbers and a way to look.
 */
function tellUserAboutRefusal(err: HearthError, target: MemoryTarget, deps: MemoryToolDeps, ctx: ToolContext): void {
  const label = target === 'user' ? 'User profile' : 'Memory';
  if (err.code === 'memory_full') {
    const usage = deps.memory.usage(target, deps.limits[target]);
    ctx.notify?.({
      kind: 'notice',
      level: 'warning',
      message: `${label} is full (${usage.used.toLocaleString('en-US')}/${usage.limit.toLocaleString('en-US')} chars): a new entry was not saved and the agent was asked to consolidate. See \`hearth memory show\`.`,
    });
  } else if (err.code === 'content_unsafe') {
    ctx.notify?.({ kind: 'notice', level: 'warning', message: `Refused a ${targetLabel(target)} write that looked like a prompt injection: ${err.message}` });
  }
}

function describeLive(target: MemoryTarget, entries: readonly MemoryEntry[], usage: MemoryUsage): string {
  const head = `Live ${targetLabel(target)} [${formatUsage(usage)}]`;
  if (entries.length === 0) return `${head}: empty.`;
  return `${head}:\n${entries.map((e, i) => `[${i + 1}] ${e.protected ? '(protected) ' : ''}${e.content}`).join('\n')}`;
}

function oneLine(text: string): string {
  const flat = text.trim().replace(/\s+/g, ' ');
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}
