import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** sha256 of a file as lowercase hex, streamed: model files are gigabytes. */
export async function sha256OfFile(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20, signal })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
