import { errorMessage, isHearthError } from '../errors.js';
import type { MemoryTarget } from './budget.js';
import { parseMemoryFile, serializeMemoryFile } from './memory-file.js';
import { checkEntryContent } from './memory-plan.js';
import { USER_IMPORT, type MemoryWriter } from './provenance.js';
import type { MemoryStore } from './store.js';
import { formatUsage, measure, type MemoryUsage } from './usage.js';

/**
 * MEMORY.md / USER.md in and out of the store.
 *
 * Import is all-or-nothing per file: every entry is scanned first, and if any is refused (injection,
 * invisible Unicode, a separator inside an entry) or the result would not fit the limit, nothing is
 * written and the report lists every problem with its entry number. The file itself is untouched, so the
 * user fixes it and imports again; a half-imported file would be harder to reason about than none.
 *
 * - `merge` (default) appends the file's entries that are not saved yet.
 * - `replace` makes the file the whole target (what `hearth memory edit` does): entries missing from it
 *   are removed, order follows the file.
 */

export type ImportMode = 'merge' | 'replace';

export interface MemoryImportReport {
  target: MemoryTarget;
  mode: ImportMode;
  /** False when anything was refused or it would overflow: then nothing changed. */
  applied: boolean;
  added: string[];
  /** `replace` only: entries the file no longer holds. */
  removed: string[];
  /** Already saved, or repeated within the file. */
  skipped: string[];
  refused: Array<{ entry: number; excerpt: string; reason: string }>;
  /** Entries accepted but marked suspicious by the scanner. */
  warnings: Array<{ entry: number; reason: string }>;
  /** Usage after the import (or what it would have been). */
  usage: MemoryUsage;
  overflow: boolean;
}

export function exportMemory(store: MemoryStore, target: MemoryTarget): string {
  return serializeMemoryFile(store.read(target).map((e) => e.content));
}

/** `by`: who the new entries are from (default an import by the user; `hearth memory edit` passes the CLI). Entries kept keep their author. */
export function importMemory(store: MemoryStore, target: MemoryTarget, text: string, options: { mode?: ImportMode; limit?: number; by?: MemoryWriter } = {}): MemoryImportReport {
  const mode = options.mode ?? 'merge';
  const limit = options.limit ?? store.limits[target];
  const current = store.read(target).map((e) => e.content);
  const report: MemoryImportReport = { target, mode, applied: false, added: [], removed: [], skipped: [], refused: [], warnings: [], usage: measure(current, limit), overflow: false };

  const accepted: string[] = [];
  for (const [i, raw] of parseMemoryFile(text).entries()) {
    try {
      const { content, warnings } = checkEntryContent(raw, target);
      for (const w of warnings) report.warnings.push({ entry: i + 1, reason: `${w.message} [${w.rule}]: “${w.excerpt}”` });
      if (accepted.includes(content) || (mode === 'merge' && current.includes(content))) report.skipped.push(content);
      else accepted.push(content);
    } catch (err) {
      // Refusals are collected so the report names every bad entry at once; anything else is a bug.
      if (!isHearthError(err, 'content_unsafe') && !isHearthError(err, 'tool_input_invalid')) throw err;
      report.refused.push({ entry: i + 1, excerpt: excerpt(raw), reason: errorMessage(err) });
    }
  }

  const next = mode === 'merge' ? [...current, ...accepted] : accepted;
  report.added = accepted.filter((c) => !current.includes(c));
  report.removed = mode === 'replace' ? current.filter((c) => !next.includes(c)) : [];
  const before = measure(current, limit);
  report.usage = measure(next, limit);
  // Same rule as a single write: over the limit only if it grows (a shrinking edit is always allowed).
  report.overflow = report.usage.used > limit && report.usage.used > before.used;
  if (report.refused.length > 0 || report.overflow) return report;

  const changed = next.length !== current.length || next.some((c, i) => c !== current[i]);
  if (changed) store.replaceAll(target, next, options.by ?? USER_IMPORT);
  report.applied = true;
  return report;
}

/** Human-readable lines for a report (the CLI prints these). */
export function describeImport(report: MemoryImportReport): string[] {
  const lines: string[] = [];
  for (const r of report.refused) lines.push(`refused entry ${r.entry} (“${r.excerpt}”): ${r.reason}`);
  if (report.overflow) {
    lines.push(`refused: the ${report.target} entries would use ${formatUsage(report.usage)}; shorten or drop entries so they fit, then import again.`);
  }
  for (const w of report.warnings) lines.push(`warning, entry ${w.entry}: ${w.reason}`);
  if (!report.applied) {
    lines.push(`Nothing was imported into ${report.target}: the file is all-or-nothing.`);
    return lines;
  }
  lines.push(
    `${report.target}: ${report.added.length} added, ${report.removed.length} removed, ${report.skipped.length} already saved [${formatUsage(report.usage)}]`,
  );
  return lines;
}

function excerpt(text: string): string {
  const oneLine = text.trim().replace(/\s+/g, ' ');
  return oneLine.length > 60 ? `${oneLine.slice(0, 59)}…` : oneLine;
}
