/**
 * EmbeddingIndex over a real encrypted store, with vectors from a generated GGUF computed in the
 * embedding host process: what gets indexed, how it is stored, what a query returns.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalEmbedder } from '../src/core/local-model/local-embedder.js';
import { EmbeddingIndex } from '../src/core/search/embedding-index.js';
import { encodeVector } from '../src/core/search/vectors.js';
import type { SqliteSessionStore } from '../src/core/store/session-store.js';
import type { StoredMessage } from '../src/core/store/types.js';
import { modelDir, PRESETS, writeGguf } from './fixtures/gguf/index.js';
import { createTempStore } from './fixtures/temp-store.js';

const dirs = modelDir('hearth-embed-index-');
const embedder = createLocalEmbedder({ modelPath: writeGguf(dirs.path('embed.gguf'), { preset: 'tiny' }).path, threads: 1 });
const temp = createTempStore('hearth-embed-index-');
const store = temp.open();

afterAll(async () => {
  await embedder.dispose();
  temp.cleanup();
  dirs.cleanup();
});

const SAID = [
  'My name is Ana and I run the infrastructure team.',
  'Deploy the docs site with tools/deploy-docs.sh after every release.',
  'The staging database moved to Frankfurt last week.',
  'I prefer short answers without emoji.',
  'The flaky test is test/sync.spec.ts; it times out on arm64.',
  'Remember: never push to main on Fridays.',
];

function seed(target: SqliteSessionStore): { said: StoredMessage[]; noise: StoredMessage[] } {
  const session = target.createSession({ source: 'cli', model: 'test' });
  const noise: StoredMessage[] = [target.appendMessage(session.id, { role: 'system', content: 'You are Hearth.' })];
  const said: StoredMessage[] = [];
  SAID.forEach((content, i) => {
    said.push(target.appendMessage(session.id, { role: i % 2 === 0 ? 'user' : 'assistant', content }));
    if (i === 1) {
      // A pure tool-call turn and its output: the kind of noise that must stay out of the index.
      noise.push(target.appendMessage(session.id, { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a"}' }] }));
      noise.push(target.appendMessage(session.id, { role: 'tool', content: 'Deploy the docs site with tools/deploy-docs.sh', toolCallId: 'c1', toolName: 'read_file' }));
    }
  });
  noise.push(target.appendMessage(session.id, { role: 'user', content: '   \n ' }));
  return { said, noise };
}

const { said, noise } = seed(store);
const index = new EmbeddingIndex(store.db, embedder, { batchSize: 4 });
/** The `model` value of this index's rows. */
const KEY = `${embedder.id}#${PRESETS.tiny.embeddingLength}`;

function storedIds(key = KEY): number[] {
  return (store.db.prepare('SELECT message_id FROM message_embeddings WHERE model = ? ORDER BY message_id').all(key) as { message_id: number }[]).map((r) => r.message_id);
}

describe('EmbeddingIndex', () => {
  it('indexPending embeds what the user and assistant said, skipping system, tool and empty messages', async () => {
    // Catches: tool output and system prompts crowding the index, or a batch boundary (4) losing messages.
    expect(await index.storageKey()).toBe(KEY);
    expect(await index.pendingCount()).toBe(said.length);
    const progress = await index.indexPending();
    expect(progress).toEqual({ embedded: said.length, pending: 0 });
    expect(storedIds()).toEqual(said.map((m) => m.id));
    for (const m of noise) expect(storedIds()).not.toContain(m.id);
    expect(await index.count()).toBe(said.length);
  });

  it('stores each vector as little-endian float32, equal to the embedder’s vector for that message', async () => {
    // Catches: vectors stored under the wrong message id, or in a byte order other readers cannot decode.
    const target = said[2] as StoredMessage;
    const row = store.db.prepare('SELECT vector FROM message_embeddings WHERE message_id = ? AND model = ?').get(target.id, KEY) as { vector: Buffer };
    expect(row.vector.length).toBe(PRESETS.tiny.embeddingLength * 4);
    const decoded = Array.from({ length: PRESETS.tiny.embeddingLength }, (_, i) => row.vector.readFloatLE(i * 4));
    const [expected] = await embedder.embed([target.content]);
    expect(decoded).toEqual(Array.from(expected as Float32Array));
  });

  it('query with a message’s exact text ranks that message first, with cosine 1', async () => {
    // Catches: scores computed against the wrong row, unsorted results, or k not honoured.
    for (const m of said) {
      const hits = await index.query(m.content, 3);
      expect(hits).toHaveLength(3);
      expect(hits[0]?.messageId).toBe(m.id);
      expect(hits[0]?.score).toBeCloseTo(1, 5);
      expect(hits[1]?.messageId).not.toBe(m.id);
      expect((hits[0]?.score ?? 0) >= (hits[1]?.score ?? 0) && (hits[1]?.score ?? 0) >= (hits[2]?.score ?? 0)).toBe(true);
    }
    expect(await index.query('   ', 5)).toEqual([]);
    expect(await index.query('anything', 0)).toEqual([]);
  });

  it('vectors stored under another model id are never compared', async () => {
    // Catches: a query scoring vectors from a different embedding model (meaningless similarities).
    const probe = said[0] as StoredMessage;
    const [probeVector] = await embedder.embed([probe.content]);
    const tool = noise.find((m) => m.role === 'tool') as StoredMessage;
    const insert = store.db.prepare('INSERT INTO message_embeddings (message_id, model, vector) VALUES (?, ?, ?)');
    // Same length and a perfect match for the probe: it would rank first if compared.
    insert.run(tool.id, `local:/models/other-embedder.gguf#${PRESETS.tiny.embeddingLength}`, encodeVector(probeVector as Float32Array));
    insert.run((said[1] as StoredMessage).id, 'local:/models/wide-embedder.gguf#1024', encodeVector(new Float32Array(1024).fill(0.03125)));

    const hits = await index.query(probe.content, said.length + 5);
    expect(hits.map((h) => h.messageId).sort((a, b) => a - b)).toEqual(said.map((m) => m.id));
    expect(hits[0]?.messageId).toBe(probe.id);
    expect(await index.count()).toBe(said.length);
  });

  it('a second indexPending embeds only new messages, honours its limit, and leaves existing vectors as they were', async () => {
    // Catches: re-embedding the whole history on every call, or a limit that is ignored.
    const before = store.db.prepare('SELECT message_id, vector FROM message_embeddings WHERE model = ? ORDER BY message_id').all(KEY);
    const sessionId = (said[0] as StoredMessage).sessionId;
    const added = [
      store.appendMessage(sessionId, { role: 'user', content: 'Our on-call rotation changes every Monday.' }),
      store.appendMessage(sessionId, { role: 'assistant', content: 'Noted: rotation on Mondays.' }),
      store.appendMessage(sessionId, { role: 'user', content: 'Use pnpm, not npm, in this repository.' }),
    ];
    expect(await index.indexPending(2)).toEqual({ embedded: 2, pending: 1 });
    expect(await index.indexPending()).toEqual({ embedded: 1, pending: 0 });
    expect(await index.indexPending()).toEqual({ embedded: 0, pending: 0 });
    const after = store.db.prepare('SELECT message_id, vector FROM message_embeddings WHERE model = ? ORDER BY message_id').all(KEY);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(storedIds().slice(-3)).toEqual(added.map((m) => m.id));
    expect((await index.query('Use pnpm, not npm, in this repository.', 1))[0]?.messageId).toBe((added[2] as StoredMessage).id);
  });

  it('vectors of an earlier model file at the same path (another size) are ignored, removed, and re-embedded', async () => {
    // Catches: old vectors mixed with the new model's after the user swaps the GGUF at the same path.
    const sessionId = (said[0] as StoredMessage).sessionId;
    const old = store.appendMessage(sessionId, { role: 'user', content: 'Invoices go out on the first of the month.' });
    store.db.prepare('INSERT INTO message_embeddings (message_id, model, vector) VALUES (?, ?, ?)').run(old.id, `${embedder.id}#384`, encodeVector(new Float32Array(384).fill(0.05)));
    // A new process (a fresh index) is where a swapped file shows up.
    const fresh = new EmbeddingIndex(store.db, embedder);
    expect(await fresh.indexPending()).toEqual({ embedded: 1, pending: 0 });
    expect(storedIds(`${embedder.id}#384`)).toEqual([]);
    expect((await fresh.query(old.content, 1))[0]?.messageId).toBe(old.id);
    expect((await index.query(old.content, 1))[0]?.messageId).toBe(old.id);
  });

  it('a deleted message stops appearing in results, even when a new vector reuses its rowid', async () => {
    // Catches: the in-memory vector cache returning deleted messages, or missing a new one because SQLite
    // reused the largest rowid (same row count, same rowid sum as before).
    const sessionId = (said[0] as StoredMessage).sessionId;
    const doomed = store.appendMessage(sessionId, { role: 'user', content: 'temporary note about the offsite in Lisbon' });
    await index.indexPending();
    expect((await index.query(doomed.content, 1))[0]?.messageId).toBe(doomed.id);

    store.db.prepare('DELETE FROM messages WHERE id = ?').run(doomed.id);
    const replacement = store.appendMessage(sessionId, { role: 'assistant', content: 'The offsite moved to Porto in June.' });
    await index.indexPending();
    const hits = await index.query(doomed.content, 50);
    expect(hits.map((h) => h.messageId)).not.toContain(doomed.id);
    expect(hits.length).toBe(await index.count());
    expect((await index.query(replacement.content, 1))[0]?.messageId).toBe(replacement.id);
  });

  it('concurrent indexPending calls embed each message once', async () => {
    // Catches: two indexers (after-turn and idle) racing to embed the same batch twice.
    const sessionId = (said[0] as StoredMessage).sessionId;
    for (let i = 0; i < 5; i++) store.appendMessage(sessionId, { role: 'user', content: `follow-up question number ${i}` });
    const [a, b] = await Promise.all([index.indexPending(), index.indexPending()]);
    expect((a?.embedded ?? 0) + (b?.embedded ?? 0)).toBe(5);
    expect(await index.pendingCount()).toBe(0);
  });

  it('the vectors persist in the encrypted file: a second connection queries them without re-embedding', async () => {
    // Catches: an index that lives only in memory, or vectors written outside the store's transaction.
    const reopened = temp.open();
    const second = new EmbeddingIndex(reopened.db, embedder);
    expect(await second.pendingCount()).toBe(0);
    await second.warm();
    expect((await second.query((said[4] as StoredMessage).content, 1))[0]?.messageId).toBe((said[4] as StoredMessage).id);
  });
});
