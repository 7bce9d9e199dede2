/**
 * The vector plumbing under semantic search, model-free: the stored blob format, top-k selection, and
 * the in-memory cache staying in step with a real encrypted store.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { VectorCache } from '../src/core/search/vector-cache.js';
import { decodeVector, dot, encodeVector, TopK } from '../src/core/search/vectors.js';
import { seededRandom } from '../src/core/seeded-random.js';
import { createTempStore } from './fixtures/temp-store.js';

const temp = createTempStore('hearth-vector-cache-');
const store = temp.open();
const session = store.createSession({ source: 'cli', model: 'test' });
const rand = seededRandom(42);

afterAll(() => temp.cleanup());

/** Odd on purpose: the unrolled dot product has a tail loop for sizes that are not a multiple of 4. */
const D = 7;
const randomVector = (): Float32Array => new Float32Array(D).map(() => rand() * 2 - 1);

function addMessageWithVector(model: string, vector: Float32Array): number {
  const message = store.appendMessage(session.id, { role: 'user', content: `m${rand()}` });
  store.db.prepare('INSERT INTO message_embeddings (message_id, model, vector) VALUES (?, ?, ?)').run(message.id, model, encodeVector(vector));
  return message.id;
}

describe('vector encoding and top-k', () => {
  it('a vector survives encode → decode exactly, as little-endian float32', () => {
    // Catches: a byte-order or offset bug that would make every stored vector garbage.
    const v = new Float32Array([1.5, -2.25, 3.1415927, 0, -0]);
    const blob = encodeVector(v);
    expect(blob.length).toBe(20);
    expect(blob.readFloatLE(4)).toBe(-2.25);
    // Decoding from an unaligned offset inside a larger buffer (as SQLite may hand it over).
    const unaligned = Buffer.concat([Buffer.from([9]), blob]).subarray(1);
    expect(Array.from(decodeVector(unaligned) as Float32Array)).toEqual(Array.from(v));
    expect(decodeVector(Buffer.alloc(6))).toBeUndefined();
  });

  it('TopK keeps the k best, best first, whatever the arrival order', () => {
    // Catches: an early-reject that drops a better item, or results not sorted.
    const scores = Array.from({ length: 200 }, () => rand());
    const top = new TopK<number>(10);
    scores.forEach((score, i) => top.offer(i, score));
    const expected = scores.map((score, i) => ({ item: i, score })).sort((a, b) => b.score - a.score).slice(0, 10);
    expect(top.sorted()).toEqual(expected);
    expect(new TopK<number>(0).sorted()).toEqual([]);
  });
});

describe('VectorCache over a real store', () => {
  it('scores equal a plain dot product and only this model’s rows are considered', () => {
    // Catches: an unrolled loop that skips or double-counts the tail dimensions, or rows of other models leaking in.
    const ids = Array.from({ length: 50 }, () => addMessageWithVector('m#7', randomVector()));
    addMessageWithVector('other#7', randomVector());
    const cache = new VectorCache(store.db, 'm#7', D);
    const query = randomVector();
    const hits = cache.nearest(query, 1000);
    expect(hits.map((h) => h.messageId).sort((a, b) => a - b)).toEqual(ids);
    for (const hit of hits) {
      const row = store.db.prepare('SELECT vector FROM message_embeddings WHERE message_id = ? AND model = ?').get(hit.messageId, 'm#7') as { vector: Buffer };
      expect(hit.score).toBeCloseTo(dot(query, decodeVector(row.vector) as Float32Array), 5);
    }
  });

  it('sees rows appended and deleted after it was filled', () => {
    // Catches: a cache that answers from a stale snapshot of the table.
    const cache = new VectorCache(store.db, 'n#7', D);
    const first = addMessageWithVector('n#7', randomVector());
    expect(cache.nearest(randomVector(), 10).map((h) => h.messageId)).toEqual([first]);
    const target = randomVector();
    const second = addMessageWithVector('n#7', target);
    expect(cache.nearest(target, 1)[0]?.messageId).toBe(second);
    store.db.prepare('DELETE FROM messages WHERE id = ?').run(second);
    expect(cache.nearest(target, 10).map((h) => h.messageId)).toEqual([first]);
  });
});
