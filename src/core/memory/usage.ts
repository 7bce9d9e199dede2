import type { MemoryTarget } from './budget.js';
import type { MemoryAuthor, MemoryVia } from './provenance.js';

/** Between entries in the prompt and in MEMORY.md / USER.md files (Hermes Agent's ENTRY_DELIMITER). */
export const ENTRY_DELIMITER = '\n§\n';

export interface MemoryEntry {
  id: number;
  target: MemoryTarget;
  content: string;
  createdAt: number;
  updatedAt: number;
  /** Null for entries saved before provenance was recorded. */
  author: MemoryAuthor | null;
  via: MemoryVia;
  /** Only the user (or a change the user approved) may replace or remove it. */
  protected: boolean;
}

export interface MemoryUsage {
  /** Characters the entries take in the prompt, delimiters included. */
  used: number;
  limit: number;
  /** Rounded down, so 100% means really full. May exceed 100 after the limit shrinks (smaller model). */
  percent: number;
}

/** Characters are counted as code points: an emoji or a CJK character is one character to a person. */
export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export function measure(contents: readonly string[], limit: number): MemoryUsage {
  const used = contents.length === 0 ? 0 : charCount(contents.join(ENTRY_DELIMITER));
  return { used, limit, percent: limit > 0 ? Math.floor((used * 100) / limit) : 100 };
}

/** `67% — 1,474/2,200 chars` */
export function formatUsage(usage: MemoryUsage): string {
  return `${usage.percent}% — ${grouped(usage.used)}/${grouped(usage.limit)} chars`;
}

/**
 * `1474` → `1,474`, as `toLocaleString('en-US')` writes it: the first locale-aware call loads ICU's number data,
 * 18 ms of `hearth memory show`'s start-up for two numbers.
 */
function grouped(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
