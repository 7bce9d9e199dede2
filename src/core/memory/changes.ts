import type { MemoryTarget } from './budget.js';
import type { MemoryAuthor, MemoryVia } from './provenance.js';

/**
 * The agent's removals and replacements of memory entries (`memory_changes`), kept so the user sees each by
 * name and can undo it. Written by MemoryStore in the same transaction as the change itself.
 */
export interface MemoryChange {
  id: number;
  entryId: number;
  target: MemoryTarget;
  action: 'removed' | 'replaced';
  oldContent: string;
  /** `replaced` only: the text the agent put in its place. */
  newContent: string | null;
  old: { author: MemoryAuthor | null; via: MemoryVia; protected: boolean; createdAt: number };
  sessionId: string | null;
  createdAt: number;
  /** When the user undid it; null while it stands. */
  undoneAt: number | null;
}

export interface ChangeRow {
  id: number;
  entry_id: number;
  target: MemoryTarget;
  action: 'removed' | 'replaced';
  old_content: string;
  new_content: string | null;
  old_author: MemoryAuthor | null;
  old_via: MemoryVia;
  old_protected: number;
  old_created_at: number;
  session_id: string | null;
  created_at: number;
  undone_at: number | null;
}

export const CHANGE_COLUMNS =
  'id, entry_id, target, action, old_content, new_content, old_author, old_via, old_protected, old_created_at, session_id, created_at, undone_at';

export function toChange(row: ChangeRow): MemoryChange {
  return {
    id: row.id,
    entryId: row.entry_id,
    target: row.target,
    action: row.action,
    oldContent: row.old_content,
    newContent: row.new_content,
    old: { author: row.old_author, via: row.old_via, protected: row.old_protected === 1, createdAt: row.old_created_at },
    sessionId: row.session_id,
    createdAt: row.created_at,
    undoneAt: row.undone_at,
  };
}

/** "Removed from user profile: 'Prefers tabs'", the line every surface shows for a change. */
export function describeChange(change: Pick<MemoryChange, 'action' | 'target' | 'oldContent' | 'newContent'>): string {
  const label = change.target === 'user' ? 'user profile' : 'memory';
  if (change.action === 'removed') return `Removed from ${label}: '${quoteLine(change.oldContent)}'`;
  return `Replaced in ${label}: '${quoteLine(change.oldContent)}' → '${quoteLine(change.newContent ?? '')}'`;
}

/** One line, at most 80 characters: enough to recognise the entry in a notice. */
export function quoteLine(text: string): string {
  const flat = text.trim().replace(/\s+/g, ' ');
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}
