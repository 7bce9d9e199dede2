import { sha256OfFile } from './file-digest.js';
import { ggufHeaderProblem } from '../local-model/gguf-file.js';

/**
 * Why a downloaded (or local) file cannot be used as a model, or null when it can: the checksum first
 * when one is expected (it proves the bytes), then the GGUF header (it catches an HTML page or another
 * format when no checksum is known).
 */
export async function verifyModelFile(path: string, expectedSha256: string | null, signal?: AbortSignal): Promise<string | null> {
  if (expectedSha256 !== null) {
    const actual = await sha256OfFile(path, signal);
    if (actual !== expectedSha256.toLowerCase()) return `checksum mismatch: expected ${expectedSha256.toLowerCase()} got ${actual}`;
  }
  return ggufHeaderProblem(path);
}
