/**
 * Cheap checks that a path is a GGUF file llama.cpp can read, made before a host process is spent on loading it
 * (a bad file can abort llama.cpp natively) and before a download is given its final name.
 */
import { open } from 'node:fs/promises';
import { errorMessage, HearthError } from '../../errors.js';

/** Versions llama.cpp reads (1 was dropped long ago). */
const SUPPORTED_VERSIONS = new Set([2, 3]);

/**
 * The first 8 bytes: the magic "GGUF" and a little-endian uint32 version. Returns null for a readable header,
 * otherwise why the file is not one ("it is not a GGUF model file (it starts with "<!DOCTYP", an HTML page)").
 * File-system errors (missing, a directory) are thrown as they are.
 */
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
    const start = head.toString('latin1').replace(/[^\x20-\x7e]/g, '.');
    return `it is not a GGUF model file (it starts with "${start}"${start.startsWith('<') ? ', an HTML page' : ''})`;
  }
  const version = head.readUInt32LE(4);
  if (!SUPPORTED_VERSIONS.has(version)) return `it is GGUF version ${version}, which llama.cpp does not read (versions 2 and 3 are supported)`;
  return null;
}

/**
 * Throws `model_load_failed` naming `path` when it is missing, a directory, unreadable, or not a GGUF file
 * llama.cpp reads (a .safetensors file, an HTML error page saved as .gguf, …).
 * `what` names the model in the message ("local model", "embedding model"); `hint` says what to do instead.
 */
export async function assertGgufFile(path: string, what: string, hint = ''): Promise<void> {
  let problem: string | null;
  try {
    problem = await ggufHeaderProblem(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'the file does not exist' : code === 'EISDIR' ? 'it is a directory' : errorMessage(err);
    throw new HearthError('model_load_failed', `Cannot load ${what} ${path}: ${reason}.`, { cause: err });
  }
  if (problem !== null) throw new HearthError('model_load_failed', `Cannot load ${what} ${path}: ${problem}.${hint ? ` ${hint}` : ''}`);
}
