/**
 * Moves the bytes of one remote file into its `.part`, continuing from what the `.part` already holds:
 * an HTTP Range request from its size; 206 appends, 200 (the server ignores ranges) starts again from 0,
 * 416 means there was nothing left to fetch.
 */
import { open, stat, truncate } from 'node:fs/promises';
import { HearthError } from '../errors.js';
import { failed, httpStatusError, networkError, openModelUrl, parseSize } from './http-request.js';

export interface TransferStart {
  /** Size of the whole file when the server says it. */
  totalBytes: number | null;
  /** Bytes already in the `.part` that this transfer continues from. */
  resumedFrom: number;
  /** The `.part` had bytes, but the server does not support ranges: they were discarded. */
  restarted: boolean;
  serverSha256: string | null;
}

export interface TransferOptions {
  url: string;
  partPath: string;
  signal: AbortSignal;
  /** Told once the response headers are in, before a byte is written; throwing here (no disk space) stops the transfer. */
  onStart(start: TransferStart): Promise<void> | void;
  onProgress(receivedBytes: number): void;
  /** A connection that delivers nothing for this long is dropped (a stalled CDN would otherwise hang forever). */
  idleTimeoutMs?: number;
}

export interface TransferResult extends TransferStart {
  /** The server answered 416 to the range: the `.part` already holds the whole file. */
  alreadyComplete: boolean;
}

export async function transferToPart(options: TransferOptions): Promise<TransferResult> {
  const offset = await sizeOf(options.partPath);
  const idle = new IdleWatchdog(options.idleTimeoutMs ?? 60_000);
  const signal = AbortSignal.any([options.signal, idle.signal]);
  try {
    const opened = await openModelUrl(options.url, { method: 'GET', range: offset > 0 ? `bytes=${offset}-` : undefined, signal });
    const { response } = opened;
    if (response.status === 416 && offset > 0) {
      await response.body?.cancel();
      const serverSize = parseSize(/\/(\d+)\s*$/.exec(response.headers.get('content-range') ?? '')?.[1] ?? null);
      if (serverSize === null || serverSize === offset) {
        return { totalBytes: serverSize ?? offset, resumedFrom: offset, restarted: false, serverSha256: opened.linkedSha256, alreadyComplete: true };
      }
      // The .part is longer than the file on the server (it changed): only a fresh start can be right.
      await truncate(options.partPath, 0);
      return await transferToPart(options);
    }
    const ranged = response.status === 206 && offset > 0 && contentRangeStart(response) === offset;
    if (!response.ok || (response.status === 206 && !ranged)) {
      await response.body?.cancel();
      if (response.status === 206) throw failed(`${options.url} answered a range that does not start at byte ${offset}; cancel and download again.`);
      throw httpStatusError(response.status, opened.url);
    }
    const start: TransferStart = {
      totalBytes: ranged ? (contentRangeTotal(response) ?? opened.linkedSize) : (parseSize(response.headers.get('content-length')) ?? opened.linkedSize),
      resumedFrom: ranged ? offset : 0,
      restarted: offset > 0 && !ranged,
      serverSha256: opened.linkedSha256,
    };
    try {
      await options.onStart(start);
    } catch (err) {
      await response.body?.cancel();
      throw err;
    }
    const received = await writeBody(response, options.partPath, start.resumedFrom, idle, options.onProgress, opened.url);
    if (start.totalBytes !== null && received !== start.totalBytes) {
      throw failed(`The connection closed after ${received} of ${start.totalBytes} bytes. Resume to fetch the rest.`);
    }
    return { ...start, alreadyComplete: false };
  } catch (err) {
    if (idle.fired && !options.signal.aborted) {
      throw failed(`No data arrived for ${Math.round(idle.timeoutMs / 1000)} s from ${new URL(options.url).host}. Resume to try again.`);
    }
    throw err;
  } finally {
    idle.stop();
  }
}

async function writeBody(
  response: Response,
  partPath: string,
  from: number,
  idle: IdleWatchdog,
  onProgress: (received: number) => void,
  url: string,
): Promise<number> {
  const file = await open(partPath, from === 0 ? 'w' : 'a');
  let received = from;
  try {
    if (!response.body) return received;
    idle.kick();
    try {
      for await (const chunk of response.body) {
        await file.write(chunk);
        received += chunk.byteLength;
        idle.kick();
        onProgress(received);
      }
    } catch (err) {
      if (err instanceof HearthError || (err as Error).name === 'AbortError') throw err;
      // undici ends a body cut short by the server with "terminated" and the socket error as its cause.
      throw networkError(err, url);
    }
    return received;
  } finally {
    await file.close();
  }
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
}

function contentRangeStart(response: Response): number | null {
  return parseSize(/^bytes\s+(\d+)-/.exec(response.headers.get('content-range') ?? '')?.[1] ?? null);
}

function contentRangeTotal(response: Response): number | null {
  return parseSize(/\/(\d+)\s*$/.exec(response.headers.get('content-range') ?? '')?.[1] ?? null);
}

/** Aborts its signal when `kick()` has not been called for `timeoutMs`. */
class IdleWatchdog {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  fired = false;

  constructor(readonly timeoutMs: number) {
    this.kick();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  kick(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.fired = true;
      this.controller.abort(new Error('idle timeout'));
    }, this.timeoutMs);
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
