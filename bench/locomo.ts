/**
 * LoCoMo evidence recall of Hearth's session search (protocol: ../shared/benchmarks/locomo/README.md).
 *
 *   npm run bench:locomo -- <dir with the LoCoMo *.json files> [--ablate]
 *
 * Each conversation goes into its own real encrypted store, one Hearth session per LoCoMo session, each
 * turn a message "Speaker: text" (plus the image caption) dated with its session. Every question of
 * categories 1–4 with evidence is asked with its text through the same ranking the session_search tool
 * uses; the top 20 messages map back to dia_ids. Baseline in the same process: the plain FTS5 bm25
 * OR-of-terms query the README's reference numbers come from. `--ablate` also reruns the ranking with
 * each signal switched off, to show what each adds. Prints numbers; asserts nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_WEIGHTS, type LexicalWeights } from '../src/core/search/lexical-ranker.js';
import { SessionSearch } from '../src/core/search/session-search.js';
import { openDatabase } from '../src/core/store/database.js';
import { matchAny } from '../src/core/store/fts-query.js';
import { migrateStore } from '../src/core/store/migrations.js';
import { SqliteSessionStore } from '../src/core/store/session-store.js';
import { RecallTable, loadConversations, turnContent, type LocomoConversation } from './locomo-data.js';

const TOP_K = 20;

/** A generic English stop list for the baseline (not Hearth's question-tuned one). */
const BASELINE_STOP_WORDS = new Set(
  `a an the and or but of to in on at by for with from as is are was were be been do does did has have had
   i me my we our you your he him his she her it its they them their this that these those what when where
   who whom which why how not no so if than then there here all any both each some such can could will would
   should may might must about into over after before`.split(/\s+/u),
);

interface Ingested {
  store: SqliteSessionStore;
  diaIdOf: Map<number, string>;
  cleanup(): void;
}

function ingest(conversation: LocomoConversation): Ingested {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-locomo-'));
  const db = openDatabase({ path: join(dir, 'state.db'), key: randomBytes(32) });
  migrateStore(db);
  const store = new SqliteSessionStore(db);
  const diaIdOf = new Map<number, string>();
  const [speakerA, speakerB] = conversation.speakers;
  // The store stamps messages with the time of the append; an import keeps the history's own dates.
  const redate = db.prepare(`UPDATE messages SET created_at = ? WHERE session_id = ?`);
  const redateSession = db.prepare(`UPDATE sessions SET started_at = ?, updated_at = ? WHERE id = ?`);
  for (const session of conversation.sessions) {
    const { id } = store.createSession({ source: 'api', model: 'locomo-import', title: `${speakerA} and ${speakerB}, session ${session.number}` });
    const messages = session.turns.map((turn) => ({ role: turn.speaker === speakerA ? ('user' as const) : ('assistant' as const), content: turnContent(turn) }));
    const stored = store.appendMessages(id, messages);
    stored.forEach((message, i) => diaIdOf.set(message.id, session.turns[i]?.dia_id ?? ''));
    redate.run(session.date, id);
    redateSession.run(session.date, session.date, id);
  }
  return {
    store,
    diaIdOf,
    cleanup() {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function baselineTerms(question: string): string[] {
  return [...new Set((question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !BASELINE_STOP_WORDS.has(word)))];
}

/** Each ranking signal switched off in turn (--ablate). */
const ABLATIONS: Record<string, Partial<LexicalWeights>> = {
  'no trigram': { trigram: 0 },
  'no neighbours': { neighbour1: 0, neighbour2: 0 },
  'no session': { session: 0 },
  'no speaker': { speaker: 0 },
  'no date': { date: 0 },
  'no recency': { recency: 0 },
};

const { positionals, values } = parseArgs({ allowPositionals: true, options: { ablate: { type: 'boolean', default: false } } });
const dir = positionals[0];
if (!dir) {
  console.error('usage: npm run bench:locomo -- <dir with the LoCoMo *.json files> [--ablate]');
  process.exit(2);
}
const ablations = values.ablate ? Object.entries(ABLATIONS).map(([name, change]) => ({ name, weights: { ...DEFAULT_WEIGHTS, ...change }, table: new RecallTable() })) : [];

const started = performance.now();
const conversations = loadConversations(dir);
const hearth = new RecallTable();
const baseline = new RecallTable();
let hearthMs = 0;
let baselineMs = 0;
let ingestMs = 0;
for (const conversation of conversations) {
  const ingestStart = performance.now();
  const { store, diaIdOf, cleanup } = ingest(conversation);
  ingestMs += performance.now() - ingestStart;
  try {
    const search = new SessionSearch(store);
    const bm25 = store.db.prepare<[string, number], number>(`SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY bm25(messages_fts) LIMIT ?`).pluck();
    for (const qa of conversation.questions) {
      let t = performance.now();
      const ranked = await search.rankMessages(qa.question, TOP_K);
      hearthMs += performance.now() - t;
      hearth.add(qa.category, ranked.map((hit) => diaIdOf.get(hit.messageId) ?? ''), qa.evidence);

      t = performance.now();
      const terms = baselineTerms(qa.question);
      const ids = terms.length > 0 ? bm25.all(matchAny(terms), TOP_K) : [];
      baselineMs += performance.now() - t;
      baseline.add(qa.category, ids.map((id) => diaIdOf.get(id) ?? ''), qa.evidence);
    }
    for (const ablation of ablations) {
      const ablated = new SessionSearch(store, { weights: ablation.weights });
      for (const qa of conversation.questions) {
        const ranked = await ablated.rankMessages(qa.question, TOP_K);
        ablation.table.add(qa.category, ranked.map((hit) => diaIdOf.get(hit.messageId) ?? ''), qa.evidence);
      }
    }
  } finally {
    cleanup();
  }
}

const questions = hearth.questions;
const result = hearth.toJSON();
const base = baseline.toJSON();
console.log(JSON.stringify(result));
console.log(
  JSON.stringify({
    baseline: { ...base, name: 'FTS5 bm25, question words minus stop words joined with OR' },
    ratio_r10: Math.round(((result.overall.r10 ?? 0) / (base.overall.r10 ?? 1)) * 1000) / 1000,
    ms_per_query: { hearth: round2(hearthMs / questions), baseline: round2(baselineMs / questions) },
    ingest_ms: Math.round(ingestMs),
    total_s: round2((performance.now() - started) / 1000),
  }),
);
for (const ablation of ablations) console.log(JSON.stringify({ ablation: ablation.name, overall: ablation.table.summary('overall') }));

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
