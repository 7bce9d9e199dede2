/** A cheap check that a path is a GGUF file, made before a host process is spent on loading it. */
import { open } from 'node:fs/promises';
import { errorMessage, HearthError } from '../../errors.js';

const GGUF_MAGIC = Buffer.from('GGUF', 'ascii');

/**
 * Throws `model_load_failed` naming `path` when it is missing, a directory, unreadable, or does not
 * start with the GGUF magic (a .safetensors file, an HTML error page saved as .gguf, …).
 * `what` names the model in the message ("local model", "embedding model"); `hint` says what to do instead.
 */
export async function assertGgufFile(path: string, what: string, hint = ''): Promise<void> {
  let head: Buffer;
  try {
    const file = await open(path, 'r');
    try {
      head = Buffer.alloc(4);
      const { bytesRead } = await file.read(head, 0, 4, 0);
      head = head.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'the file does not exist' : code === 'EISDIR' ? 'it is a directory' : errorMessage(err);
    throw new HearthError('model_load_failed', `Cannot load ${what} ${path}: ${reason}.`, { cause: err });
  }
  if (!head.equals(GGUF_MAGIC)) {
    throw new HearthError('model_load_failed', `Cannot load ${what} ${path}: it is not a GGUF file (it does not start with "GGUF").${hint ? ` ${hint}` : ''}`);
  }
}
