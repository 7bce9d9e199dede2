/** `hearth models list|download|fit`, run in-process against a real HTTP server and a real HEARTH_HOME. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelsCommand } from '../src/cli/commands/models.js';
import type { CliIO } from '../src/cli/io.js';
import { startModelFileServer, tinyModelBytes, type ModelFileServer } from './fixtures/model-file-server.js';

const model = tinyModelBytes(5);
let server: ModelFileServer;
let home: string;

beforeAll(async () => {
  server = await startModelFileServer({ files: { '/o/r/resolve/main/tiny.gguf': model.bytes } });
  home = mkdtempSync(join(tmpdir(), 'hearth-home-'));
});
afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

async function run(args: string[]) {
  let out = '';
  let err = '';
  const io: CliIO = {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    env: { HEARTH_HOME: home, HEARTH_HF_ENDPOINT: server.baseUrl },
    cwd: home,
    stdin: Readable.from([]),
    isTTY: false,
  };
  const code = await modelsCommand(args, io);
  return { code, out, err };
}

describe('hearth models', () => {
  it('downloads an hf: model into HEARTH_HOME/models, prints its path, and lists it', async () => {
    // Would catch: the CLI exiting before the download settles, or a file landing outside the models folder.
    const download = await run(['download', 'hf:o/r/tiny.gguf']);
    expect(download).toMatchObject({ code: 0, out: `${join(home, 'models', 'tiny.gguf')}\n` });
    const list = JSON.parse((await run(['list', '--json'])).out) as { files: Array<{ name: string; sizeBytes: number }>; downloads: unknown[] };
    expect(list.files).toEqual([expect.objectContaining({ name: 'tiny.gguf', sizeBytes: model.bytes.length })]);
    expect(list.downloads).toEqual([]);
  });

  it('fit prints an estimate from the server size; bad arguments are usage errors', async () => {
    // Would catch: a fit that ignores the real file size, or a malformed --sha256 reaching the network.
    const fit = await run(['fit', 'hf:o/r/tiny.gguf', '--json']);
    expect(fit.code).toBe(0);
    expect(JSON.parse(fit.out)).toMatchObject({ fits: true, placement: 'cpu' });
    await expect(run(['download', 'hf:o/r/tiny.gguf', '--sha256', 'abc'])).rejects.toThrow(/--sha256 must be 64 hexadecimal digits/);
    await expect(run(['fit', 'x.gguf', '--size', '2.5GB'])).rejects.toThrow(/--size must be a positive number/);
    await expect(run(['frobnicate'])).rejects.toThrow(/Unknown models action "frobnicate"/);
  });
});
