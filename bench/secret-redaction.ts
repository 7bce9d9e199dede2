/**
 * Secret redaction throughput (it runs on every tool result): MB/s over 1 MB of mixed tool output (git,
 * npm, test runs, JSON, code, listings, with a key every few KB), against baselines in the same run:
 * a plain `String.prototype.replace` of one literal, and `replaceAll` of it. Also the streaming variant
 * fed 4 KB chunks, and precision/recall on the written corpus.
 *
 *   node --import tsx bench/secret-redaction.ts
 */
import { createStreamRedactor } from '../src/core/safety/secrets/redact-stream.js';
import { redactorFromEnvironment } from '../src/core/safety/secrets/redact.js';
import { loadCleanEntries, loadSecretEntries } from '../test/fixtures/secret-corpus/load.js';

const secrets = loadSecretEntries();
const clean = loadCleanEntries();

const ordinaryLines = [
  'commit 4f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39',
  'Author: Ada Lovelace <ada@example.com>',
  '    Fix token refresh race in the auth client (#1234)',
  ' src/core/agent/loop.ts | 42 +++++++++++++++++-----',
  'npm WARN deprecated inflight@1.0.6: This module is not supported, and leaks memory.',
  'added 1342 packages, and audited 1343 packages in 21s',
  ' ✓ test/store.test.ts (41 tests) 812ms',
  ' FAIL test/agent-loop.test.ts > runs tools in parallel',
  '{"id":"123e4567-e89b-12d3-a456-426614174000","status":"ok","tokens":512,"cache_key":"v1:users:42"}',
  'drwxr-xr-x  12 ada  staff   384 Jan 31 14:25 node_modules',
  '-rw-r--r--   1 ada  staff  2048 Jan 31 14:25 package.json',
  'export async function handler(request: Request): Promise<Response> {',
  '  const token = request.headers.get("authorization")?.slice(7);',
  'Step 4/12 : RUN npm ci --omit=dev',
  ' ---> Using cache sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  'GET /api/v1/items?page=2 200 14.2 ms - 3121',
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
];

function mixedOutput(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    // About one secret per 8 KB: a realistic worst case for a tool dump of config and logs.
    const line = i % 100 === 99 ? secrets[(i / 100) % secrets.length | 0]!.text : ordinaryLines[i % ordinaryLines.length]!;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

function mbPerSecond(work: (text: string) => unknown, text: string, minMs = 1500): number {
  let best = 0;
  for (let round = 0; round < 3; round++) {
    let bytes = 0;
    const start = performance.now();
    while (performance.now() - start < minMs / 3) {
      work(text);
      bytes += text.length;
    }
    best = Math.max(best, bytes / 1e6 / ((performance.now() - start) / 1000));
  }
  return best;
}

const text = mixedOutput(1_000_000);
const redactor = redactorFromEnvironment(
  { OPENAI_API_KEY: 'sk-known-openai-value-0001', GITHUB_TOKEN: 'known-github-token-0002', DB_PASSWORD: 'known-db-password-3', HOME: '/home/ada' },
  [{ value: 'keychain-value-anthropic-0004', label: 'keychain:provider:anthropic' }],
);
const literal = 'sk-known-openai-value-0001';

const truePositives = secrets.filter((s) => !redactor.redact(s.text).includes(s.secret)).length;
const falsePositives = clean.filter((c) => redactor.redact(c.text) !== c.text).length;
console.log(`corpus: ${secrets.length} secrets, ${clean.length} look-alikes`);
console.log(`  precision ${(truePositives / Math.max(1, truePositives + falsePositives)).toFixed(3)}  recall ${(truePositives / secrets.length).toFixed(3)}\n`);

const changed = redactor.redact(text);
console.log(`input: ${(text.length / 1e6).toFixed(2)} MB of mixed tool output, ${(changed.match(/\[REDACTED:/g) ?? []).length} redactions\n`);

const baseline = mbPerSecond((t) => t.replace(literal, '[REDACTED:x]'), text);
const baselineAll = mbPerSecond((t) => t.replaceAll(literal, '[REDACTED:x]'), text);
const full = mbPerSecond((t) => redactor.redact(t), text);
const streamed = mbPerSecond((t) => {
  const stream = createStreamRedactor(redactor);
  for (let i = 0; i < t.length; i += 4096) stream.push(t.slice(i, i + 4096));
  return stream.flush();
}, text);

console.log(`baseline String.replace(one literal)   ${baseline.toFixed(0).padStart(6)} MB/s`);
console.log(`baseline replaceAll(one literal)       ${baselineAll.toFixed(0).padStart(6)} MB/s`);
console.log(`Redactor.redact                        ${full.toFixed(1).padStart(6)} MB/s  (${(baseline / full).toFixed(1)}x slower than replace)`);
console.log(`stream redactor, 4 KB chunks           ${streamed.toFixed(1).padStart(6)} MB/s`);
