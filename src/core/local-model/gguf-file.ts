/**
 * Cheap checks that a path is a GGUF file llama.cpp can read, made before a host process is spent on loading it
 * (a bad file can abort llama.cpp natively) and before a download is given its final name.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { errorMessage, HearthError } from '../errors.js';

/** Versions llama.cpp reads (1 was dropped long ago). */
const SUPPORTED_VERSIONS = new Set([2, 3]);

/**
 * The first 8 bytes: the magic "GGUF" and a little-endian uint32 version, then the metadata and tensor list
 * that follow it, walked for lengths and types that cannot be right. Returns null for a readable header,
 * otherwise why the file is not one ("it is not a GGUF model file (it starts with "<!DOCTYP", an HTML page)").
 * File-system errors (missing, a directory) are thrown as they are.
 */
export async function ggufHeaderProblem(path: string): Promise<string | null> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(8);
    const { bytesRead } = await file.read(head, 0, 8, 0);
    if (bytesRead < 8 || head.subarray(0, 4).toString('latin1') !== 'GGUF') {
      const start = head.subarray(0, bytesRead).toString('latin1').replace(/[^\x20-\x7e]/g, '.');
      return `it is not a GGUF model file (it starts with "${start}"${start.startsWith('<') ? ', an HTML page' : ''})`;
    }
    const version = head.readUInt32LE(4);
    if (!SUPPORTED_VERSIONS.has(version)) return `it is GGUF version ${version}, which llama.cpp does not read (versions 2 and 3 are supported)`;
    // A "GGUF" start followed by garbage otherwise reaches llama.cpp's reader, which fails with an internal
    // ("The value of "size" is out of range") or worse; a damaged download or a renamed file says what it is here.
    const problem = await metadataProblem(new FileCursor(file, (await file.stat()).size));
    return problem === null ? null : `it starts like a GGUF model file, but ${problem}. The file is damaged, or is not a model`;
  } finally {
    await file.close();
  }
}

/** GGUF value types: 0 u8, 1 i8, 2 u16, 3 i16, 4 u32, 5 i32, 6 f32, 7 bool, 8 string, 9 array, 10 u64, 11 i64, 12 f64. */
const FIXED_SIZES: Readonly<Record<number, number>> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const STRING_TYPE = 8;
const ARRAY_TYPE = 9;
/** The spec's limit on a key; llama.cpp names tensors in at most 64 bytes (1 KiB leaves room for forks). */
const MAX_KEY_BYTES = 65_535;
const MAX_TENSOR_NAME_BYTES = 1024;
const MAX_DIMS = 4;
/** ggml type ids are small (about 40 today); a value past this is not a type. */
const MAX_TENSOR_TYPE = 255;

class HeaderProblem extends Error {}

/**
 * The key/value metadata and the tensor infos, each length checked against what is left of the file before it
 * is used. Tensor data is not read (llama.cpp reports a file cut inside it clearly).
 */
async function metadataProblem(cursor: FileCursor): Promise<string | null> {
  try {
    cursor.seek(8);
    const tensorCount = await cursor.count('the tensor count', 8 + 4 + 8 + 4 + 8);
    const kvCount = await cursor.count('the metadata entry count', 8 + 1 + 4 + 1);
    for (let i = 0; i < kvCount; i++) {
      const key = await cursor.string(`the key of metadata entry ${i + 1}`, MAX_KEY_BYTES);
      const type = await cursor.u32();
      await skipValue(cursor, type, `metadata entry "${shown(key)}"`, 0);
    }
    for (let i = 0; i < tensorCount; i++) {
      const name = await cursor.string(`the name of tensor ${i + 1}`, MAX_TENSOR_NAME_BYTES);
      const dims = await cursor.u32();
      if (dims < 1 || dims > MAX_DIMS) throw new HeaderProblem(`tensor "${shown(name)}" has ${dims} dimensions (1 to ${MAX_DIMS} are possible)`);
      for (let d = 0; d < dims; d++) await cursor.u64(`a dimension of tensor "${shown(name)}"`);
      const type = await cursor.u32();
      if (type > MAX_TENSOR_TYPE) throw new HeaderProblem(`tensor "${shown(name)}" has the unknown type ${type}`);
      await cursor.u64(`the offset of tensor "${shown(name)}"`);
    }
    return null;
  } catch (err) {
    if (err instanceof HeaderProblem) return err.message;
    throw err;
  }
}

async function skipValue(cursor: FileCursor, type: number, what: string, depth: number): Promise<void> {
  const fixed = FIXED_SIZES[type];
  if (fixed !== undefined) return cursor.skip(fixed, what);
  if (type === STRING_TYPE) return void (await cursor.string(`the value of ${what}`, Number.MAX_SAFE_INTEGER));
  if (type !== ARRAY_TYPE || depth > 2) throw new HeaderProblem(`${what} has the unknown value type ${type}`);
  const elementType = await cursor.u32();
  const elementSize = FIXED_SIZES[elementType];
  const count = await cursor.count(`the length of ${what}`, elementSize ?? 8);
  if (elementSize !== undefined) return cursor.skip(count * elementSize, what);
  // A tokenizer's vocabulary and merges: hundreds of thousands of strings, checked without decoding them.
  if (elementType === STRING_TYPE) return cursor.skipStrings(count, `an item of ${what}`);
  for (let i = 0; i < count; i++) await skipValue(cursor, elementType, what, depth + 1);
}

/** A key or name for a message: garbage bytes are shown as dots and cut short. */
function shown(text: string): string {
  const clean = text.replace(/[^\x20-\x7e]/g, '.');
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
}

/** Sequential little-endian reads through a 1 MiB window (a tokenizer's metadata runs to several MiB). */
class FileCursor {
  private static readonly WINDOW = 1 << 20;
  private window = Buffer.alloc(0);
  private windowStart = 0;
  private position = 0;

  constructor(
    private readonly file: FileHandle,
    private readonly size: number,
  ) {}

  seek(position: number): void {
    this.position = position;
  }

  async u32(): Promise<number> {
    const at = await this.take(4, 'a value type');
    return this.window.readUInt32LE(at);
  }

  async u64(what: string): Promise<number> {
    const at = await this.take(8, what);
    const value = this.window.readBigUInt64LE(at);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new HeaderProblem(`${what} is ${value}, which no model has`);
    return Number(value);
  }

  /** A u64 count of items, each at least `minItemBytes` long: more than the rest of the file can hold is garbage. */
  async count(what: string, minItemBytes: number): Promise<number> {
    const value = await this.u64(what);
    const room = Math.floor((this.size - this.position) / minItemBytes);
    if (value > room) throw new HeaderProblem(`${what} is ${value}, more than the rest of the ${this.size}-byte file can hold`);
    return value;
  }

  /** A u64 length and that many bytes of UTF-8. */
  async string(what: string, maxBytes: number): Promise<string> {
    const length = await this.u64(`the length of ${what}`);
    if (length > maxBytes) throw new HeaderProblem(`${what} is said to be ${length} bytes long (at most ${maxBytes} are allowed)`);
    if (length > this.size - this.position) throw new HeaderProblem(`${what} is said to be ${length} bytes long, past the end of the ${this.size}-byte file`);
    if (length > FileCursor.WINDOW) {
      this.position += length; // longer than any real key or token: skipped, not decoded
      return '';
    }
    const at = await this.take(length, what);
    return this.window.toString('utf8', at, at + length);
  }

  /**
   * `count` length-prefixed strings, each length checked against the file. Reads stay inside the window
   * synchronously (one await per refill, not per string: 400,000 awaits took over half a second).
   */
  async skipStrings(count: number, what: string): Promise<void> {
    for (let i = 0; i < count; i++) {
      let at = this.position - this.windowStart;
      if (at < 0 || at + 8 > this.window.length) {
        await this.take(8, `the length of ${what}`);
        this.position -= 8; // take() moved past it; read it below from the refilled window
        at = this.position - this.windowStart;
      }
      const length = this.window.readBigUInt64LE(at);
      this.position += 8;
      if (length > BigInt(this.size - this.position)) throw new HeaderProblem(`${what} is said to be ${length} bytes long, past the end of the ${this.size}-byte file`);
      this.position += Number(length);
    }
  }

  async skip(bytes: number, what: string): Promise<void> {
    if (bytes > this.size - this.position) throw new HeaderProblem(`${what} runs past the end of the ${this.size}-byte file`);
    this.position += bytes;
  }

  /** Makes `bytes` at the position readable in the window; returns their offset in it and moves past them. */
  private async take(bytes: number, what: string): Promise<number> {
    if (bytes > this.size - this.position) throw new HeaderProblem(`the file ends inside ${what} (at byte ${this.position} of ${this.size})`);
    const end = this.windowStart + this.window.length;
    if (this.position < this.windowStart || this.position + bytes > end) {
      const length = Math.min(Math.max(bytes, FileCursor.WINDOW), this.size - this.position);
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await this.file.read(buffer, 0, length, this.position);
      this.window = buffer.subarray(0, bytesRead);
      this.windowStart = this.position;
      if (bytesRead < bytes) throw new HeaderProblem(`the file ends inside ${what} (at byte ${this.position + bytesRead})`);
    }
    const at = this.position - this.windowStart;
    this.position += bytes;
    return at;
  }
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
