/**
 * Embedding vectors as stored in `message_embeddings.vector`: float32, little-endian, no header, so the
 * blob is readable by any tool (and by numpy's `frombuffer(..., '<f4')`).
 */
import { endianness } from 'node:os';

const LITTLE_ENDIAN_HOST = endianness() === 'LE';

export function encodeVector(vector: Float32Array): Buffer {
  if (LITTLE_ENDIAN_HOST) return Buffer.from(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength));
  const out = Buffer.alloc(vector.length * 4);
  vector.forEach((x, i) => out.writeFloatLE(x, i * 4));
  return out;
}

/** The vector in `blob`, or undefined when the blob is not a whole number of float32s. */
export function decodeVector(blob: Uint8Array): Float32Array | undefined {
  if (blob.byteLength % 4 !== 0) return undefined;
  const length = blob.byteLength / 4;
  // A copy either way: the blob's offset in SQLite's buffer need not be 4-byte aligned.
  if (LITTLE_ENDIAN_HOST) return new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

interface Scored<T> {
  item: T;
  score: number;
}

/**
 * Keeps the `k` highest-scoring items of a stream, best first. A sorted array with an early reject:
 * once full, almost every newcomer is below the k-th score and costs one comparison, so it is O(n)
 * in practice for the small k search uses (tens), without a heap's bookkeeping.
 */
export class TopK<T> {
  private readonly kept: Scored<T>[] = [];

  constructor(private readonly k: number) {}

  offer(item: T, score: number): void {
    const kept = this.kept;
    const weakest = kept[kept.length - 1];
    if (this.k <= 0 || (kept.length === this.k && weakest !== undefined && score <= weakest.score)) return;
    let at = kept.length;
    while (at > 0 && (kept[at - 1] as Scored<T>).score < score) at--;
    kept.splice(at, 0, { item, score });
    if (kept.length > this.k) kept.pop();
  }

  /** Best first; equal scores keep the order they were offered in. */
  sorted(): Scored<T>[] {
    return [...this.kept];
  }
}
