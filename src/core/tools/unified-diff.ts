/**
 * A small line-based unified diff (what `patch` returns so the model sees exactly what changed).
 * Common prefix and suffix are trimmed first, so the LCS table only covers the edited region: a patch
 * in a 10k-line file costs a few lines squared, not 10k².
 */
type Op = { kind: ' ' | '-' | '+'; line: string };

/** Above this many cells the middle is shown as one replaced block rather than aligned line by line. */
const MAX_LCS_CELLS = 4_000_000;

export function unifiedDiff(oldText: string, newText: string, options: { fromFile: string; toFile: string; context?: number }): string {
  const context = options.context ?? 3;
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
  if (start === endA && start === endB) return '';
  const ops: Op[] = [
    ...a.slice(0, start).map((line): Op => ({ kind: ' ', line })),
    ...diffMiddle(a.slice(start, endA), b.slice(start, endB)),
    ...a.slice(endA).map((line): Op => ({ kind: ' ', line })),
  ];
  return [`--- ${options.fromFile}`, `+++ ${options.toFile}`, ...hunks(ops, context)].join('\n') + '\n';
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function diffMiddle(a: string[], b: string[]): Op[] {
  if (a.length * b.length > MAX_LCS_CELLS) {
    return [...a.map((line): Op => ({ kind: '-', line })), ...b.map((line): Op => ({ kind: '+', line }))];
  }
  // lcs[i][j] = length of the LCS of a[i..] and b[j..], stored flat.
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      lcs[i * width + j] = a[i] === b[j] ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1 : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i] as string });
      i += 1;
      j += 1;
    } else if (j < b.length && (i === a.length || (lcs[i * width + j + 1] ?? 0) >= (lcs[(i + 1) * width + j] ?? 0))) {
      ops.push({ kind: '+', line: b[j] as string });
      j += 1;
    } else {
      ops.push({ kind: '-', line: a[i] as string });
      i += 1;
    }
  }
  // Show removals before additions within a change, as diff(1) does.
  return reorderChanges(ops);
}

function reorderChanges(ops: Op[]): Op[] {
  const out: Op[] = [];
  let removed: Op[] = [];
  let added: Op[] = [];
  const flush = (): void => {
    out.push(...removed, ...added);
    removed = [];
    added = [];
  };
  for (const op of ops) {
    if (op.kind === '-') removed.push(op);
    else if (op.kind === '+') added.push(op);
    else {
      flush();
      out.push(op);
    }
  }
  flush();
  return out;
}

function hunks(ops: Op[], context: number): string[] {
  const changed = ops.flatMap((op, index) => (op.kind === ' ' ? [] : [index]));
  const lines: string[] = [];
  let k = 0;
  while (k < changed.length) {
    const first = changed[k] as number;
    let last = first;
    // Merge changes whose context windows touch.
    while (k + 1 < changed.length && (changed[k + 1] as number) - last <= 2 * context) {
      k += 1;
      last = changed[k] as number;
    }
    k += 1;
    const from = Math.max(0, first - context);
    const to = Math.min(ops.length, last + context + 1);
    let oldStart = 1;
    let newStart = 1;
    for (const op of ops.slice(0, from)) {
      if (op.kind !== '+') oldStart += 1;
      if (op.kind !== '-') newStart += 1;
    }
    const body = ops.slice(from, to);
    const oldCount = body.filter((op) => op.kind !== '+').length;
    const newCount = body.filter((op) => op.kind !== '-').length;
    lines.push(`@@ -${oldCount === 0 ? oldStart - 1 : oldStart},${oldCount} +${newCount === 0 ? newStart - 1 : newStart},${newCount} @@`);
    for (const op of body) lines.push(`${op.kind}${op.line}`);
  }
  return lines;
}
