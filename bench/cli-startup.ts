/**
 * CLI start-up: wall time and peak memory of store-only commands, against a bare `node -e 0` measured in the same
 * run (issue 12: "≤ 0.3 s for store-only commands"). Runs the built CLI (`npm run build` first) on a fresh
 * HEARTH_HOME with HEARTH_DB_KEY set, so the keychain plays no part.
 *
 *   node --import tsx bench/cli-startup.ts [--runs 15]
 *
 * Prints medians and ratios; asserts nothing (STYLE.md: benchmarks are not tests).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '15' } } });
const runs = Number(values.runs);
const root = resolve(import.meta.dirname, '..');
const cli = join(root, 'bin', 'hearth.js');
if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) {
  console.log('cli-startup: the CLI is not built; run `npm run build` first.');
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'hearth-startup-'));
// Each child reports its own peak RSS as it exits: child_process exposes no rusage for a child.
const reporter = join(work, 'report-rss.mjs');
writeFileSync(reporter, "process.on('exit', () => { process.getBuiltinModule('node:fs').writeFileSync(process.env.RSS_FILE, String(process.resourceUsage().maxRSS)); });\n");
const env = { ...process.env, HEARTH_HOME: join(work, 'home'), HEARTH_DB_KEY: randomBytes(32).toString('hex'), RSS_FILE: join(work, 'rss') };

interface Sample {
  wallMs: number;
  rssMiB: number;
}

function measure(args: string[]): Sample {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ['--import', reporter, ...args], { env, encoding: 'utf8' });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited with ${result.status ?? result.signal}: ${result.stderr.trim()}`);
  return { wallMs, rssMiB: Number(readFileSync(env.RSS_FILE, 'utf8')) / 1024 };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const cases: Array<[string, string[]]> = [
  ['node -e 0', ['-e', '0']],
  ['hearth --help', [cli, '--help']],
  ['hearth sessions list', [cli, 'sessions', 'list']],
  ['hearth memory show', [cli, 'memory', 'show']],
  ['hearth learning log', [cli, 'learning', 'log']],
  ['hearth approvals check "ls"', [cli, 'approvals', 'check', 'ls', '--json']],
];

try {
  measure([cli, 'sessions', 'list']); // creates and migrates the store once, outside the timings
  const results = new Map<string, Sample[]>(cases.map(([name]) => [name, []]));
  // Interleaved, so a burst of load on a shared machine hits every case alike.
  for (let i = 0; i < runs; i += 1) for (const [name, args] of cases) results.get(name)?.push(measure(args));
  const base = median((results.get('node -e 0') ?? []).map((s) => s.wallMs));
  console.log(`CLI start-up, median of ${runs} runs each (target: store-only commands ≤ 300 ms)`);
  for (const [name, samples] of results) {
    const wall = median(samples.map((s) => s.wallMs));
    const rss = median(samples.map((s) => s.rssMiB));
    console.log(`  ${name.padEnd(30)} ${wall.toFixed(0).padStart(5)} ms  ${(wall / base).toFixed(2).padStart(5)}× node -e 0  ${rss.toFixed(0).padStart(4)} MiB peak`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
