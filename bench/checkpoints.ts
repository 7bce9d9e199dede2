/**
 * Checkpoint cost on a generated project: first snapshot, a snapshot with nothing changed (the dedupe path every
 * further write of a turn would pay without the per-turn manager), one file changed, and a rollback.
 * Run: node --import tsx bench/checkpoints.ts [files]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointStore } from '../src/core/checkpoints/store.js';

const files = Number(process.argv[2] ?? 5000);
const base = mkdtempSync(join(tmpdir(), 'hearth-bench-checkpoints-'));
const root = join(base, 'project');
for (let i = 0; i < files; i++) {
  const dir = join(root, `dir${i % 50}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `file${i}.ts`), `export const value${i} = ${i};\n`.repeat(20));
}
const store = new CheckpointStore({ home: join(base, 'home'), settings: { max_count: 50, max_age_days: 30, max_files: 50_000, max_file_mb: 10 } });

async function timed(label: string, work: () => Promise<unknown>): Promise<void> {
  const start = performance.now();
  await work();
  console.log(`${label.padEnd(28)} ${(performance.now() - start).toFixed(0).padStart(6)} ms`);
}

console.log(`project: ${files} files`);
await timed('first snapshot', () => store.snapshot(root, 'first'));
await timed('snapshot, nothing changed', () => store.snapshot(root, 'same'));
writeFileSync(join(root, 'dir0', 'file0.ts'), 'changed\n');
await timed('snapshot, one file changed', () => store.snapshot(root, 'one'));
await timed('rollback to 2', () => store.rollback(root, 2));
rmSync(base, { recursive: true, force: true });
