import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { HearthError } from '../src/core/errors.js';
import { assertGgufFile, ggufHeaderProblem } from '../src/core/local-model/gguf-file.js';
import { modelDir, writeGguf, writeMalformedGguf } from './fixtures/gguf/index.js';

const dirs = modelDir('hearth-gguf-header-');
afterAll(() => dirs.cleanup());

/** "GGUF", version 3, then whatever `rest` is: what a damaged download or a renamed file looks like. */
function ggufStart(name: string, rest: Buffer): string {
  const head = Buffer.alloc(8);
  head.write('GGUF', 0, 'latin1');
  head.writeUInt32LE(3, 4);
  const path = dirs.path(name);
  writeFileSync(path, Buffer.concat([head, rest]));
  return path;
}

function u64(value: bigint | number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(value));
  return b;
}

describe('GGUF header check', () => {
  // Catches a check so strict that real files fail: the generated llama model (tokenizer arrays included) passes.
  it('accepts a valid model, and one cut inside its tensor data (llama.cpp reports that itself)', async () => {
    expect(await ggufHeaderProblem(writeGguf(dirs.path('ok.gguf'), { preset: 'tiny' }).path)).toBeNull();
    expect(await ggufHeaderProblem(writeMalformedGguf(dirs.path('cut.gguf'), 'truncated'))).toBeNull();
  });

  // Catches the case: a GGUF header followed by garbage gave 'The value of "size" is out of range…'.
  it('names the file and what is wrong when garbage follows the header', async () => {
    const path = ggufStart('garbage.gguf', randomBytes(4096));
    const err = await assertGgufFile(path, 'local model').then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(HearthError);
    const message = (err as HearthError).message;
    expect((err as HearthError).code).toBe('model_load_failed');
    expect(message).toContain(`Cannot load local model ${path}: it starts like a GGUF model file, but the tensor count is`);
    expect(message).toContain('The file is damaged, or is not a model.');
    expect(message).not.toMatch(/out of range/);
  });

  it('reports a key length past the end of the file', async () => {
    const path = ggufStart('long-key.gguf', Buffer.concat([u64(0), u64(1), u64(1_000_000), Buffer.from('general')]));
    expect(await ggufHeaderProblem(path)).toContain('the key of metadata entry 1 is said to be 1000000 bytes long');
  });

  it('reports a string value longer than the file', async () => {
    const key = Buffer.from('general.name');
    const value = Buffer.concat([Buffer.from([8, 0, 0, 0]), u64(2n ** 40n)]);
    const path = ggufStart('long-value.gguf', Buffer.concat([u64(0), u64(1), u64(key.length), key, value]));
    expect(await ggufHeaderProblem(path)).toContain('the value of metadata entry "general.name" is said to be 1099511627776 bytes long, past the end');
  });

  // Catches the fast path over a tokenizer's strings skipping the length check.
  it('reports a token string longer than the file inside a string array', async () => {
    const key = Buffer.from('tokenizer.ggml.tokens');
    const tokens = Buffer.concat([u64(1), Buffer.from('a'), u64(1), Buffer.from('b'), u64(2n ** 50n)]);
    const array = Buffer.concat([Buffer.from([9, 0, 0, 0]), Buffer.from([8, 0, 0, 0]), u64(3), tokens]);
    const path = ggufStart('long-token.gguf', Buffer.concat([u64(0), u64(1), u64(key.length), key, array]));
    expect(await ggufHeaderProblem(path)).toContain('an item of metadata entry "tokenizer.ggml.tokens" is said to be 1125899906842624 bytes long, past the end');
  });

  it('reports an unknown value type and a file that ends inside the metadata', async () => {
    const key = Buffer.from('general.name');
    const badType = ggufStart('bad-type.gguf', Buffer.concat([u64(0), u64(1), u64(key.length), key, Buffer.from([77, 0, 0, 0])]));
    expect(await ggufHeaderProblem(badType)).toContain('metadata entry "general.name" has the unknown value type 77');

    const whole = readFileSync(writeGguf(dirs.path('whole.gguf'), { preset: 'tiny' }).path);
    const cutPath = dirs.path('cut-metadata.gguf');
    writeFileSync(cutPath, whole.subarray(0, 600));
    expect(await ggufHeaderProblem(cutPath)).toMatch(/it starts like a GGUF model file, but .*(ends inside|past the end|runs past|more than the rest)/);
  });
});
