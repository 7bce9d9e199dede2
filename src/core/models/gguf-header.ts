/**
 * The first 8 bytes of a GGUF file: the magic "GGUF" and a little-endian uint32 version. Checked after a
 * download, before the file is given its final name, so an HTML error page or a truncated transfer saved
 * as `.gguf` never reaches the model host (where a bad file can abort llama.cpp natively).
 */
import { open } from 'node:fs/promises';

/** Versions llama.cpp reads (1 was dropped long ago). */
const SUPPORTED_VERSIONS = new Set([2, 3]);

/** Returns null for a readable GGUF header, otherwise why the file is not one. */
export async function ggufHeaderProblem(path: string): Promise<string | null> {
  const file = await open(path, 'r');
  let head: Buffer;
  try {
    head = Buffer.alloc(8);
    const { bytesRead } = await file.read(head, 0, 8, 0);
    head = head.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
  if (head.length < 8 || head.subarray(0, 4).toString('latin1') !== 'GGUF') {
    const start = head.subarray(0, 8).toString('latin1').replace(/[^\x20-\x7e]/g, '.');
    return `it is not a GGUF model file (it starts with "${start}"${start.startsWith('<') ? ', an HTML page' : ''})`;
  }
  const version = head.readUInt32LE(4);
  if (!SUPPORTED_VERSIONS.has(version)) return `it is GGUF version ${version}, which llama.cpp does not read (versions 2 and 3 are supported)`;
  return null;
}
