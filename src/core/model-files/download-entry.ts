/** One download as the manager tracks it, and the view of it a UI sees. */
import type { z } from 'zod';
import type { DownloadState, DownloadView } from '../../shared/contract.js';
import { TransferRate } from './transfer-rate.js';

export type DownloadStatus = z.infer<typeof DownloadView>;
export type DownloadStateName = z.infer<typeof DownloadState>;

/** States a download rests in until someone acts on it. */
export const SETTLED_STATES: ReadonlySet<DownloadStateName> = new Set(['paused', 'done', 'cancelled', 'failed']);
/** States in which the entry owns its target file: a second download to the same file is refused. */
export const ACTIVE_STATES: ReadonlySet<DownloadStateName> = new Set(['queued', 'downloading', 'verifying']);

/** One file of a download: the whole model, or one part of a split model. */
export interface DownloadPart {
  url: string;
  /** Absolute path the part gets once every part is verified. */
  finalPath: string;
  /** The server's own digest of this part (Hugging Face's LFS sha256), learned when its transfer starts. */
  serverSha256: string | null;
}

export class DownloadEntry {
  state: DownloadStateName;
  receivedBytes = 0;
  totalBytes: number | null = null;
  error: string | null = null;
  notice: string | null = null;
  /** What the finished file must hash to: the caller's digest, the curated one, or the server's LFS digest. */
  expectedSha256: string | null;
  readonly rate = new TransferRate();
  controller: AbortController | undefined;
  task: Promise<void> | undefined;
  /** Why the controller was aborted: pause keeps the `.part`, cancel deletes it. */
  stopReason: 'pause' | 'cancel' | undefined;
  lastProgressAt = 0;
  readonly waiters: Array<(view: DownloadStatus) => void> = [];
  /** Every file the model is made of, the one named `finalPath` first. */
  readonly parts: DownloadPart[];

  constructor(
    readonly id: string,
    readonly source: string,
    /** Empty when a leftover `.part` has lost its sidecar: it can only be cancelled. */
    readonly url: string,
    /** Absolute path of the finished file. */
    readonly finalPath: string,
    /** A local file is verified in place: it is the user's, so it is never moved or deleted. */
    readonly local: boolean,
    expectedSha256: string | null,
    state: DownloadStateName,
    /** The other parts of a split model, in order after the first. */
    laterParts: Array<{ url: string; finalPath: string }> = [],
  ) {
    this.expectedSha256 = expectedSha256;
    this.state = state;
    this.parts = [{ url, finalPath }, ...laterParts].map((part) => ({ ...part, serverSha256: null }));
  }

  get running(): boolean {
    return this.task !== undefined;
  }

  view(): DownloadStatus {
    const moving = this.state === 'downloading';
    return {
      id: this.id,
      source: this.source,
      file: this.finalPath,
      state: this.state,
      receivedBytes: this.receivedBytes,
      totalBytes: this.totalBytes,
      bytesPerSecond: moving ? Math.round(this.rate.bytesPerSecond()) : 0,
      etaSeconds: moving ? this.rate.etaSeconds(this.receivedBytes, this.totalBytes) : null,
      error: this.error,
      notice: this.notice,
    };
  }
}
