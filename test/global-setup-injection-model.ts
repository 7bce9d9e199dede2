import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { defaultWeightsPath } from '../src/core/safety/injection/model-weights.js';

/**
 * vitest global setup: the injection scanner's learned model is a build output (scripts/train-injection-model.ts),
 * so a fresh checkout running `npx vitest` has none. Train it when it is missing or older than what it is
 * trained from, so tests exercise the scanner as shipped rather than its rules-only degraded mode.
 */
const ROOT = join(import.meta.dirname, '..');
const INPUTS = [
  'scripts/train-injection-model.ts',
  'src/core/safety/injection/linear-model.ts',
  'src/core/safety/injection/train.ts',
  'src/core/safety/injection/text-view.ts',
  'test/fixtures/injection-corpus/dev-split.jsonl',
  'test/fixtures/injection-corpus/attacks.jsonl',
  'test/fixtures/injection-corpus/clean.jsonl',
];

export default function setup(): void {
  const weights = defaultWeightsPath(ROOT);
  const built = existsSync(weights) ? statSync(weights).mtimeMs : 0;
  const newest = Math.max(...INPUTS.map((p) => join(ROOT, p)).filter(existsSync).map((p) => statSync(p).mtimeMs));
  if (built >= newest) return;
  execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/train-injection-model.ts')], { cwd: ROOT, stdio: 'inherit' });
}
