/**
 * Store benchmark: insert throughput (one commit per message, as the agent writes, and batched) and
 * session-search latency p50/p95 at growing sizes (default 100k and 1M messages).
 *
 *   node --import tsx bench/store.ts [--sizes 100000,1000000] [--queries 300]
 *
 * Prints numbers; asserts nothing (STYLE.md: benchmarks are not tests).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/core/store/database.js';
import { migrateStore } from '../src/core/store/migrations.js';
import { SqliteSessionStore } from '../src/core/store/session-store.js';
import { seededRandom } from '../src/core/seeded-random.js';
import { CorpusGenerator } from './store-corpus.js';

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '100000,1000000' }, queries: { type: 'string', default: '300' } } });
const sizes = values.sizes.split(',').map(Number).sort((a, b) => a - b);
const queryCount = Number(values.queries);

const SINGLE_COMMIT_MESSAGES = 2_000;

const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-store-'));
const path = join(dir, 'state.db');
const db = openDatabase({ path, key: randomBytes(32) });
migrateStore(db);
const store = new SqliteSessionStore(db);
const random = seededRandom(42);
const corpus = new CorpusGenerator(random);

let inserted = 0;
const newSession = () => store.createSession({ source: 'cli', model: 'local:bench.gguf' }).id;

/** The agent's path: one appendMessage (one committed, fsynced transaction) per message. */
function singleCommitThroughput(count: number): number {
  const sessionId = newSession();
  const start = performance.now();
  for (let i = 0; i < count; i++) store.appendMessage(sessionId, corpus.message(inserted++));
  return count / ((performance.now() - start) / 1000);
}

/** The importer's path: appendMessages, one transaction per session of 20–200 messages. */
function fillTo(target: number): number {
  const start = performance.now();
  const startCount = inserted;
  let lastReport = start;
  while (inserted < target) {
    const length = Math.min(target - inserted, 20 + Math.floor(random() * 181));
    const messages = Array.from({ length }, (_, i) => corpus.message(inserted + i));
    store.appendMessages(newSession(), messages);
    inserted += length;
    if (performance.now() - lastReport > 15_000) {
      lastReport = performance.now();
      console.log(`  … ${inserted.toLocaleString()} messages (${Math.round((inserted - startCount) / ((lastReport - start) / 1000)).toLocaleString()} msg/s)`);
    }
  }
  return (inserted - startCount) / ((performance.now() - start) / 1000);
}

type QueryKind = 'common word' | 'technical word' | 'rare word' | 'two words' | 'stemmed variant' | 'substring' | 'CJK 4 chars' | 'CJK 2 chars' | 'no match';

function makeQueries(random: () => number): { kind: QueryKind; query: string }[] {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  const vocab = corpus.vocabulary;
  const generators: Record<QueryKind, () => string> = {
    'common word': () => pick(vocab.slice(0, 150)),
    'technical word': () => pick(vocab.slice(150, 330)),
    'rare word': () => pick(vocab.slice(2_000)),
    'two words': () => `${pick(vocab.slice(150, 330))} ${pick(vocab.slice(0, 400))}`,
    'stemmed variant': () => pick(['deploying', 'migrations', 'databases', 'encrypted', 'tokenizers', 'caching']),
    substring: () => pick(['gres', 'ployme', 'ernet', 'ockerf', 'ashboa', 'ryptio']),
    'CJK 4 chars': () => pick(['数据迁移', '部署脚本', '推理速度', '远程服务']),
    'CJK 2 chars': () => pick(['迁移', '索引', '回滚', '加密']),
    'no match': () => `zzq${Math.floor(random() * 1e6)}`,
  };
  const kinds = Object.keys(generators) as QueryKind[];
  return Array.from({ length: queryCount }, (_, i) => {
    const kind = kinds[i % kinds.length] as QueryKind;
    return { kind, query: generators[kind]() };
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function measureSearch(): void {
  const queries = makeQueries(seededRandom(7));
  for (const { query } of queries.slice(0, 20)) store.search(query); // warm the page cache
  const all: number[] = [];
  const byKind = new Map<QueryKind, number[]>();
  for (const { kind, query } of queries) {
    const start = performance.now();
    store.search(query);
    const ms = performance.now() - start;
    all.push(ms);
    byKind.set(kind, [...(byKind.get(kind) ?? []), ms]);
  }
  const fmt = (times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b);
    return `p50 ${percentile(sorted, 50).toFixed(2)} ms  p95 ${percentile(sorted, 95).toFixed(2)} ms`;
  };
  console.log(`  search (${queries.length} queries): ${fmt(all)}`);
  for (const [kind, times] of byKind) console.log(`    ${kind.padEnd(16)} ${fmt(times)}`);
}

function databaseBytes(): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

try {
  console.log(`store benchmark — SQLCipher-encrypted file in ${dir}`);
  const single = singleCommitThroughput(SINGLE_COMMIT_MESSAGES);
  console.log(`insert, one commit per message (synchronous=FULL): ${Math.round(single).toLocaleString()} msg/s`);
  for (const size of sizes) {
    console.log(`filling to ${size.toLocaleString()} messages…`);
    const batched = fillTo(size);
    db.pragma('wal_checkpoint(TRUNCATE)');
    console.log(`insert, appendMessages (one transaction per session): ${Math.round(batched).toLocaleString()} msg/s; database ${(databaseBytes() / 2 ** 20).toFixed(0)} MiB`);
    measureSearch();
  }
} finally {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
