import { FILE_HEADERS_ONLY, formatPatch, structuredPatch, type StructuredPatchHunk } from 'diff';

/**
 * A line-based unified diff (what `patch` returns so the model sees exactly what changed, and what a staged
 * skill or memory write shows the user). jsdiff does the alignment (Myers, decision 0018); this module only
 * fixes the shape Hearth prints: `--- from` / `+++ to` headers, no `Index:` line, '' when nothing changed.
 */

/**
 * Past this many changed lines Myers' cost grows with the square of the edit (20k lines rewritten: ~12 s),
 * so the changed region is shown as one replaced block instead; 500 keeps the worst case near 50 ms.
 */
const MAX_EDIT_LINES = 500;

export function unifiedDiff(oldText: string, newText: string, options: { fromFile: string; toFile: string; context?: number }): string {
  if (oldText === newText) return '';
  const context = options.context ?? 3;
  const patch = structuredPatch(options.fromFile, options.toFile, oldText, newText, undefined, undefined, { context, maxEditLength: MAX_EDIT_LINES }) ?? {
    oldFileName: options.fromFile,
    newFileName: options.toFile,
    oldHeader: undefined,
    newHeader: undefined,
    hunks: [replacedBlock(oldText, newText, context)],
  };
  if (patch.hunks.length === 0) return '';
  return formatPatch(patch, FILE_HEADERS_ONLY);
}

/** The edit too large to align: common leading and trailing lines as context, everything between removed then added. */
function replacedBlock(oldText: string, newText: string, context: number): StructuredPatchHunk {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const from = Math.max(0, start - context);
  const tail = Math.min(context, a.length - endA);
  const lines = [
    ...a.slice(from, start).map((line) => ` ${line}`),
    ...a.slice(start, endA).map((line) => `-${line}`),
    ...b.slice(start, endB).map((line) => `+${line}`),
    ...a.slice(endA, endA + tail).map((line) => ` ${line}`),
  ];
  const oldLines = start - from + (endA - start) + tail;
  const newLines = start - from + (endB - start) + tail;
  // Unified-diff convention: a side with no lines names the line before the hunk.
  return { oldStart: oldLines === 0 ? from : from + 1, oldLines, newStart: newLines === 0 ? from : from + 1, newLines, lines };
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
