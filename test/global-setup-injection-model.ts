import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * vitest global setup: the injection scanner's learned model is a build output (scripts/train-injection-model.ts),
 * so a fresh checkout running `npx vitest` has none. Train it when it is missing or older than what it is
 * trained from, so tests exercise the scanner as shipped rather than its rules-only degraded mode.
 */
const ROOT = join(import.meta.dirname, '..');

export default function setup(): void {
  // The script knows what it is trained from (--if-stale): nothing happens when the weights are newer than all of it.
  execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/train-injection-model.ts'), '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
}
