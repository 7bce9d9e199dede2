import type { MemoryLimits, MemoryTarget } from './budget.js';
import { ENTRY_DELIMITER, formatUsage, measure } from './usage.js';

const HEADINGS: Record<MemoryTarget, string> = {
  memory: 'MEMORY (your notes about the environment and the work)',
  user: 'USER PROFILE (who the user is)',
};

/**
 * The memory block of the system prompt, taken once at session start and then frozen: writes during the
 * session reach the database at once and this block in the next session, so the prompt stays byte-stable
 * (cache reuse) and the model sees the live state in its tool results instead.
 *
 *   MEMORY (your notes about the environment and the work) [67% — 1,474/2,200 chars]
 *   first entry
 *   §
 *   second entry
 *
 * Nothing is cut: a target over its limit (the model changed to a smaller context) is shown whole with
 * a note to consolidate.
 */
export function renderMemorySnapshot(entries: Readonly<Record<MemoryTarget, readonly string[]>>, limits: Readonly<MemoryLimits>): string {
  const sections = (['memory', 'user'] as const).map((target) => {
    const contents = entries[target];
    const usage = measure(contents, limits[target]);
    const over = usage.used > usage.limit ? ' — over the limit: consolidate with the memory tool (replace/remove)' : '';
    const body = contents.length ? contents.join(ENTRY_DELIMITER) : '(empty)';
    return `${HEADINGS[target]} [${formatUsage(usage)}]${over}\n${body}`;
  });
  return `${sections.join('\n\n')}\n\n(Snapshot from the start of this session. Memory tool writes are saved at once and appear here next session.)`;
}
