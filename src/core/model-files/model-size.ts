/** How big a model is before it is downloaded: given, curated, on disk, or asked of the server. */
import { stat } from 'node:fs/promises';
import { errorMessage, HearthError } from '../errors.js';
import { findCuratedBySource } from './curated-models.js';
import { failed, httpStatusError, openModelUrl, parseSize } from './http-request.js';
import type { ModelSource } from './model-source.js';

export type SizeOrigin = 'given' | 'server' | 'curated' | 'local';

export async function modelSizeOf(source: ModelSource, options: { sizeBytes?: number; timeoutMs?: number }): Promise<{ sizeBytes: number; origin: SizeOrigin }> {
  if (options.sizeBytes !== undefined && options.sizeBytes > 0) return { sizeBytes: options.sizeBytes, origin: 'given' };
  if (source.kind === 'local') {
    try {
      const sizes = await Promise.all(source.parts.map(async (part) => (await stat(part.path)).size));
      return { sizeBytes: sizes.reduce((a, b) => a + b, 0), origin: 'local' };
    } catch (err) {
      throw new HearthError('model_source_invalid', `Cannot read ${source.path}: ${errorMessage(err)}`, { cause: err });
    }
  }
  const signal = AbortSignal.timeout(options.timeoutMs ?? 15_000);
  try {
    const sizes = await Promise.all(source.parts.map((part) => remoteSize(part.url, signal)));
    return { sizeBytes: sizes.reduce((a, b) => a + b, 0), origin: 'server' };
  } catch (err) {
    // Offline, the curated size still answers "will it fit?"; the download re-checks against the real size.
    const curated = findCuratedBySource(source.source);
    if (curated) return { sizeBytes: curated.sizeBytes, origin: 'curated' };
    if (signal.aborted) throw failed(`${new URL(source.url).host} did not answer within ${Math.round((options.timeoutMs ?? 15_000) / 1000)} s.`);
    throw err;
  }
}

/** HEAD, and when the server refuses HEAD or omits the length, a one-byte range whose Content-Range names the total. */
export async function remoteSize(url: string, signal: AbortSignal): Promise<number> {
  const head = await openModelUrl(url, { method: 'HEAD', signal });
  await head.response.body?.cancel();
  if (!head.response.ok && head.response.status !== 405) throw httpStatusError(head.response.status, head.url);
  const fromHead = head.linkedSize ?? (head.response.ok ? parseSize(head.response.headers.get('content-length')) : null);
  if (fromHead !== null) return fromHead;
  const probe = await openModelUrl(url, { method: 'GET', range: 'bytes=0-0', signal });
  await probe.response.body?.cancel();
  if (!probe.response.ok) throw httpStatusError(probe.response.status, probe.url);
  const total = parseSize(/\/(\d+)\s*$/.exec(probe.response.headers.get('content-range') ?? '')?.[1] ?? null) ?? (probe.response.status === 200 ? parseSize(probe.response.headers.get('content-length')) : null);
  if (total === null) throw failed(`${new URL(url).host} does not say how big the file is; pass its size to estimate the fit.`);
  return total;
}
