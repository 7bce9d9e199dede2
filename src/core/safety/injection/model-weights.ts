import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { LinearWeights } from './linear-model.js';

/**
 * The learned model's weights file: a build output (scripts/train-injection-model.ts writes it during
 * `npm run build` and the test setup), never committed. One JSON header line, then the weights as int8
 * quantized by `scale`: 2^18 slots are 256 KB.
 *
 * A missing or unreadable file is not silent: the scanner runs on its rules alone and every result says
 * so (`model.state: "unavailable"`), `describeScan` and `hearth scan` print it, and `hearth doctor` fails
 * its check with the fix.
 */

const WEIGHTS_FILE = 'injection-model.bin';
const MAGIC = 'hearth-injection-linear-v1';

const Header = z.object({
  magic: z.literal(MAGIC),
  buckets: z.number().int().positive(),
  bias: z.number(),
  scale: z.number().positive(),
  flagAt: z.number().min(0).max(1),
  greyAt: z.number().min(0).max(1),
  /** Below this score the model overrules the rules in `overrulable` (scan.ts); 0 in files from before it existed: never. */
  clearAt: z.number().min(0).max(1).default(0),
  /** The rules whose findings a score below `clearAt` overrules (chosen in training); none in older files. */
  overrulable: z.array(z.string()).default([]),
  /** Each overrulable rule's own threshold (scan.ts); absent in older files, where `clearAt` holds for all of them. */
  clearAtByRule: z.record(z.string(), z.number().min(0).max(1)).optional(),
  /** The same for texts under SHORT_TEXT_WORDS words (scan.ts). */
  clearAtByRuleShort: z.record(z.string(), z.number().min(0).max(1)).optional(),
  trainedOn: z.record(z.string(), z.number()),
});
export type WeightsHeader = z.infer<typeof Header>;

/**
 * Where the file is looked for: next to this module (the built `dist/core/safety/injection/`), else in
 * `dist/` of the checkout when the module runs from `src/` (tests, `tsx`). HEARTH_INJECTION_WEIGHTS overrides both.
 */
function weightsCandidates(env: NodeJS.ProcessEnv = process.env): string[] {
  if (env.HEARTH_INJECTION_WEIGHTS) return [env.HEARTH_INJECTION_WEIGHTS];
  return [fileURLToPath(new URL(`./${WEIGHTS_FILE}`, import.meta.url)), fileURLToPath(new URL(`../../../../dist/core/safety/injection/${WEIGHTS_FILE}`, import.meta.url))];
}

/** Where the training script writes: the built location, which the `src/` lookup also reads. */
export function defaultWeightsPath(root: string): string {
  return `${root}/dist/core/safety/injection/${WEIGHTS_FILE}`;
}

export function encodeWeights(header: Omit<WeightsHeader, 'magic' | 'scale'>, weights: Float32Array): Buffer {
  let max = 0;
  for (const w of weights) max = Math.max(max, Math.abs(w));
  const scale = max > 0 ? max / 127 : 1;
  const q = new Int8Array(weights.length);
  for (let i = 0; i < weights.length; i++) q[i] = Math.round((weights[i] as number) / scale);
  const head = Buffer.from(`${JSON.stringify({ magic: MAGIC, ...header, scale })}\n`, 'utf8');
  return Buffer.concat([head, Buffer.from(q.buffer)]);
}

export function decodeWeights(bytes: Buffer, path: string): LinearWeights & { header: WeightsHeader } {
  const newline = bytes.indexOf(10);
  if (newline < 0) throw new Error(`${path} is not an injection-model weights file (no header line)`);
  const parsed = Header.safeParse(JSON.parse(bytes.subarray(0, newline).toString('utf8')));
  if (!parsed.success) throw new Error(`${path} has an unexpected header: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  const header = parsed.data;
  const body = bytes.subarray(newline + 1);
  if (body.length !== header.buckets) throw new Error(`${path} is truncated: ${body.length} of ${header.buckets} weights`);
  // A copy, not a view: the file's buffer may be pooled or unaligned, and the table must outlive it.
  const values = new Int8Array(body.buffer.slice(body.byteOffset, body.byteOffset + header.buckets));
  return { buckets: header.buckets, bias: header.bias, quantized: { values, scale: header.scale }, flagAt: header.flagAt, greyAt: header.greyAt, clearAt: header.clearAt, overrulable: new Set(header.overrulable), ...(header.clearAtByRule === undefined ? {} : { clearAtByRule: new Map(Object.entries(header.clearAtByRule)) }), ...(header.clearAtByRuleShort === undefined ? {} : { clearAtByRuleShort: new Map(Object.entries(header.clearAtByRuleShort)) }), header };
}

export type ModelStatus = { state: 'loaded'; path: string; model: LinearWeights & { header: WeightsHeader } } | { state: 'unavailable'; reason: string };

let cached: ModelStatus | null = null;

/** The weights, loaded once per process; or why they are not there, in words a user can act on. */
export function loadInjectionModel(): ModelStatus {
  if (cached !== null) return cached;
  const candidates = weightsCandidates();
  const path = candidates.find((p) => existsSync(p));
  if (path === undefined) {
    cached = { state: 'unavailable', reason: `the learned model's weights (${WEIGHTS_FILE}) are missing: run \`npm run build\`; looked in ${candidates.join(', ')}` };
    return cached;
  }
  try {
    cached = { state: 'loaded', path, model: decodeWeights(readFileSync(path), path) };
  } catch (err) {
    cached = { state: 'unavailable', reason: `the learned model's weights cannot be read (${err instanceof Error ? err.message : String(err)}): run \`npm run build\`` };
  }
  return cached;
}

/** Forget the loaded weights (tests that swap the file; the training script after writing it). */
export function resetInjectionModel(): void {
  cached = null;
}
