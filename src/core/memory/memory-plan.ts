import { HearthError } from '../errors.js';
import { judgeInjection, type InjectionJudge } from '../safety/injection/judge.js';
import { describeScan, scanForInjection, type InjectionFinding } from '../safety/injection/scan.js';
import type { MemoryTarget } from './budget.js';
import { containsSeparatorLine } from './memory-file.js';
import { charCount, formatUsage, measure, type MemoryEntry } from './usage.js';

/**
 * Deciding what a memory write does, without touching the database: the store applies the plan, the
 * memory tool can check a write before staging it for approval, and every refusal is a typed error
 * whose message tells the model exactly what to do next.
 */

export type MemoryOperation =
  | { action: 'add'; target: MemoryTarget; content: string }
  | { action: 'replace'; target: MemoryTarget; oldText: string; content: string }
  | { action: 'remove'; target: MemoryTarget; oldText: string };

export type MemoryPlan =
  | { kind: 'insert'; target: MemoryTarget; content: string; warnings: InjectionFinding[] }
  | { kind: 'update'; target: MemoryTarget; entry: MemoryEntry; content: string; warnings: InjectionFinding[] }
  | { kind: 'delete'; target: MemoryTarget; entry: MemoryEntry }
  /** An exact duplicate (or a replace with identical text): nothing to write. */
  | { kind: 'unchanged'; target: MemoryTarget; entry: MemoryEntry };

const PREVIEW_CHARS = 100;

export function targetLabel(target: MemoryTarget): string {
  return target === 'user' ? 'user profile' : 'memory';
}

/**
 * Trim and check one entry: not empty, no `§` separator line (it would split the entry on export), and
 * passed by the injection scanner. Blocked text is `content_unsafe`; suspicious text passes with warnings.
 */
export function checkEntryContent(raw: string, target: MemoryTarget): { content: string; warnings: InjectionFinding[] } {
  const content = raw.trim();
  if (!content) throw new HearthError('tool_input_invalid', `The ${targetLabel(target)} entry is empty: give the text to save in "content".`);
  if (containsSeparatorLine(content)) {
    throw new HearthError('tool_input_invalid', 'A memory entry cannot contain a line holding only "§": that line separates entries. Save it as separate entries instead.');
  }
  const scan = scanForInjection(content, { source: target });
  if (scan.verdict === 'blocked') {
    throw new HearthError(
      'content_unsafe',
      `Refused: this ${targetLabel(target)} entry looks like a prompt injection and was not saved — ${describeScan(scan)}. ` +
        'Memory is read as trusted context in every future session, so it must hold plain facts only.',
      { details: { findings: scan.findings } },
    );
  }
  return { content, warnings: scan.findings };
}

/**
 * `checkEntryContent` plus `security.injection_judge` on the grey zone, for writers that can wait for a
 * model before they stage or apply a write (the memory tool, imports). Without a judge it is the same check.
 */
export async function checkEntryContentJudged(raw: string, target: MemoryTarget, judge: InjectionJudge | undefined): Promise<{ content: string; warnings: InjectionFinding[] }> {
  const checked = checkEntryContent(raw, target);
  if (judge === undefined) return checked;
  const judged = await judgeInjection(checked.content, { source: target, judge });
  if (judged.verdict === 'blocked') {
    throw new HearthError(
      'content_unsafe',
      `Refused: this ${targetLabel(target)} entry looks like a prompt injection and was not saved — ${describeScan(judged)}. ` +
        'Memory is read as trusted context in every future session, so it must hold plain facts only.',
      { details: { findings: judged.findings } },
    );
  }
  return { content: checked.content, warnings: judged.findings };
}

export function planMemoryWrite(op: MemoryOperation, entries: readonly MemoryEntry[], limit: number): MemoryPlan {
  const { target } = op;
  if (op.action === 'remove') return { kind: 'delete', target, entry: findUnique(op.oldText, entries, target) };

  const { content, warnings } = checkEntryContent(op.content, target);
  const duplicate = entries.find((e) => e.content === content);
  if (op.action === 'add') {
    if (duplicate) return { kind: 'unchanged', target, entry: duplicate };
    checkFits(target, entries, [...entries.map((e) => e.content), content], limit, content);
    return { kind: 'insert', target, content, warnings };
  }

  const entry = findUnique(op.oldText, entries, target);
  if (duplicate?.id === entry.id) return { kind: 'unchanged', target, entry };
  if (duplicate) {
    throw new HearthError(
      'tool_input_invalid',
      `The new text is already saved as another ${targetLabel(target)} entry ("${preview(duplicate.content)}"). Remove the old entry instead of replacing it.`,
    );
  }
  checkFits(target, entries, entries.map((e) => (e.id === entry.id ? content : e.content)), limit, content);
  return { kind: 'update', target, entry, content, warnings };
}

/**
 * A write may not take the target over its limit. A write that shrinks the total is always allowed,
 * so a target left over the limit (the model changed to a smaller context) can still be consolidated.
 */
function checkFits(target: MemoryTarget, entries: readonly MemoryEntry[], after: readonly string[], limit: number, content: string): void {
  const before = measure(
    entries.map((e) => e.content),
    limit,
  );
  const next = measure(after, limit);
  if (next.used <= limit || next.used <= before.used) return;
  const label = targetLabel(target);
  const size = charCount(content);
  const head =
    size > limit
      ? `Refused: this entry alone is ${size.toLocaleString('en-US')} chars, more than the whole ${label} limit (${limit.toLocaleString('en-US')}). Shorten it and try again.`
      : `Refused: the ${label} is full. Saving this (${size.toLocaleString('en-US')} chars) would use ${next.used.toLocaleString('en-US')}/${limit.toLocaleString('en-US')} chars; nothing was saved.`;
  throw new HearthError(
    'memory_full',
    `${head}\nConsolidate now: merge related entries or shorten them with action "replace", drop stale ones with "remove", then save again. ` +
      "Keep the user's standing rules and instructions: never remove them to make room — ask the user which to drop if nothing else can go. " +
      'Entries marked (protected) only the user can change: removing or replacing one sends the change to the user for approval instead.\n' +
      `Current ${label} entries [${formatUsage(before)}]:\n${listEntries(entries, 'full')}`,
    { details: { target, usage: before, attempted: next, entries: entries.map((e) => e.content) } },
  );
}

/**
 * The one entry containing `oldText`. Exact substring first; failing that, a match that ignores case
 * and runs of whitespace (models often re-type an entry slightly differently), still required to be unique.
 */
function findUnique(oldText: string, entries: readonly MemoryEntry[], target: MemoryTarget): MemoryEntry {
  const label = targetLabel(target);
  const needle = oldText.trim();
  if (!needle) throw new HearthError('tool_input_invalid', `"old_text" is empty: give a short unique part of the ${label} entry to change.`);
  let matches = entries.filter((e) => e.content.includes(needle));
  if (matches.length === 0) {
    const loose = looseForm(needle);
    matches = entries.filter((e) => looseForm(e.content).includes(loose));
  }
  const [only, ...rest] = matches;
  if (only && rest.length === 0) return only;
  if (!only) {
    throw new HearthError(
      'memory_no_match',
      `No ${label} entry contains "${preview(needle)}". ` + (entries.length ? `The entries are:\n${listEntries(entries)}` : `The ${label} is empty.`),
      { details: { candidates: entries.map((e) => e.content) } },
    );
  }
  throw new HearthError(
    'memory_ambiguous_match',
    `"${preview(needle)}" matches ${matches.length} ${label} entries; use a longer "old_text" that appears in only one of them:\n${listEntries(matches)}`,
    { details: { candidates: matches.map((e) => e.content) } },
  );
}

function looseForm(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ');
}

/** Numbered entries; `full` when the model must rewrite them (consolidation), previews otherwise. */
function listEntries(entries: readonly MemoryEntry[], form: 'full' | 'preview' = 'preview'): string {
  return entries.map((e, i) => `[${i + 1}] ${e.protected ? '(protected) ' : ''}${form === 'full' ? e.content : preview(e.content)}`).join('\n');
}

function preview(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > PREVIEW_CHARS ? `${oneLine.slice(0, PREVIEW_CHARS - 1)}…` : oneLine;
}
