/**
 * The download manager: model files fetched into HEARTH_HOME/models with progress, pause/resume (HTTP
 * Range), cancel, and verification (sha256, GGUF header) before a file gets its final name. A file
 * without its final name is never loaded, so an interrupted or corrupt download cannot be mistaken for a
 * model. Leftover `.part` files from an earlier run come back as paused downloads. A split model is one
 * download of all its parts, one after another; none gets its final name until every part is verified.
 * (Why this is Hearth's code and not node-llama-cpp's `createModelDownloader`: decision 0020.)
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { errorMessage, HearthError } from '../errors.js';
import { findCuratedBySource } from './curated-models.js';
import { assertDiskSpace, freeDiskBytes } from './disk-space.js';
import { ACTIVE_STATES, DownloadEntry, SETTLED_STATES, type DownloadPart, type DownloadStatus } from './download-entry.js';
import { verifyModelFile } from './verify-model-file.js';
import { listPartTargets, partPathFor, PartSidecar, sidecarPathFor } from './models-folder.js';
import { remoteSize } from './model-size.js';
import { parseModelSource } from './model-source.js';
import { isLaterPart } from './split-parts.js';
import { transferToPart, type TransferStart } from './part-transfer.js';

export type { DownloadStatus } from './download-entry.js';

export interface ModelDownloadsOptions {
  /** HEARTH_HOME/models. */
  folder: string;
  env: NodeJS.ProcessEnv;
  /** Every state change, and progress at most every `progressIntervalMs`. */
  onChange(download: DownloadStatus): void;
  maxConcurrent?: number;
  progressIntervalMs?: number;
  idleTimeoutMs?: number;
  /** Free bytes where the folder lives (statfs); replaceable so a full disk can be simulated. */
  freeDiskBytes?: (folder: string) => Promise<number>;
}

export interface StartRequest {
  source: string;
  sha256?: string;
  /** Resolves relative local paths. */
  cwd?: string;
}

export class ModelDownloads {
  private readonly entries = new Map<string, DownloadEntry>();
  private closed = false;

  constructor(private readonly options: ModelDownloadsOptions) {
    const targets = listPartTargets(options.folder);
    const owned = new Set<string>();
    for (const fileName of targets.filter((name) => !isLaterPart(name))) {
      for (const part of this.restoreLeftover(join(options.folder, fileName))) owned.add(part);
    }
    // A later part whose first part has no sidecar left: nothing says where it came from.
    for (const fileName of targets.filter((name) => isLaterPart(name) && !owned.has(name))) this.restoreLeftover(join(options.folder, fileName));
  }

  list(): DownloadStatus[] {
    return [...this.entries.values()].map((e) => e.view());
  }

  get(id: string): DownloadStatus {
    return this.entry(id).view();
  }

  /** Starts (or queues) a download; failures after this point arrive as a `failed` state, not a throw. */
  start(request: StartRequest): DownloadStatus {
    if (this.closed) throw new HearthError('download_conflict', 'The model manager is shutting down; start the download again after Hearth restarts.');
    const parsed = parseModelSource(request.source, { env: this.options.env, cwd: request.cwd });
    const curated = findCuratedBySource(parsed.source);
    const expected = request.sha256?.toLowerCase() ?? curated?.sha256 ?? null;
    if (parsed.parts.length > 1 && request.sha256) {
      throw new HearthError(
        'model_source_invalid',
        `${parsed.fileName} is the first of ${parsed.parts.length} parts of a split model, and one checksum cannot cover them all. Start it without --sha256: Hearth checks each part against the digest its server publishes, and that each part is a GGUF file.`,
      );
    }
    if (parsed.kind === 'local') {
      const later = parsed.parts.slice(1).map((part) => ({ url: '', finalPath: part.path }));
      const entry = new DownloadEntry(randomUUID(), parsed.source, '', parsed.path, true, expected, 'verifying', later);
      this.entries.set(entry.id, entry);
      this.launch(entry, () => this.verifyLocal(entry));
      return entry.view();
    }
    const finalPath = join(this.options.folder, curated?.fileName ?? parsed.fileName);
    const existing = [...this.entries.values()].find((e) => e.finalPath === finalPath && e.state !== 'done' && e.state !== 'cancelled');
    if (existing?.url === '') throw new HearthError('download_conflict', existing.error ?? `${finalPath}.part is in the way.`);
    if (existing && (ACTIVE_STATES.has(existing.state) || existing.url !== parsed.url)) {
      throw new HearthError('download_conflict', `${finalPath} is already being downloaded (download ${existing.id}, ${existing.state}, from ${existing.source}). Resume or cancel that one.`);
    }
    if (existing) {
      // The same file from the same place, paused or failed: carry on with it rather than start a twin.
      if (request.sha256) existing.expectedSha256 = request.sha256.toLowerCase();
      this.queue(existing);
      return existing.view();
    }
    const later = parsed.parts.slice(1).map((part) => ({ url: part.url, finalPath: join(this.options.folder, part.fileName) }));
    const there = [finalPath, ...later.map((part) => part.finalPath)].find((path) => existsSync(path));
    if (there) {
      throw new HearthError('download_conflict', `${there} already exists. Use it, or delete it first to download it again.`);
    }
    const entry = new DownloadEntry(randomUUID(), parsed.source, parsed.url, finalPath, false, expected, 'queued', later);
    this.entries.set(entry.id, entry);
    this.queue(entry);
    return entry.view();
  }

  /** Stops the transfer and keeps the `.part`; resolves once the file is closed. */
  async pause(id: string): Promise<DownloadStatus> {
    const entry = this.entry(id);
    if (entry.state === 'paused') return entry.view();
    if (entry.local || !ACTIVE_STATES.has(entry.state)) {
      throw new HearthError('download_conflict', `Download ${id} is ${entry.state}${entry.local ? ' (a local file)' : ''}; it cannot be paused.`);
    }
    if (entry.running) await this.stop(entry, 'pause');
    else this.transition(entry, 'paused');
    return entry.view();
  }

  resume(id: string): DownloadStatus {
    const entry = this.entry(id);
    if (ACTIVE_STATES.has(entry.state)) return entry.view();
    if (entry.local || (entry.state !== 'paused' && entry.state !== 'failed')) {
      throw new HearthError('download_conflict', `Download ${id} is ${entry.state}; only paused or failed downloads can be resumed.`);
    }
    if (entry.url === '') throw new HearthError('download_conflict', entry.error ?? `Download ${id} cannot be resumed.`);
    this.queue(entry);
    return entry.view();
  }

  /** Stops the transfer and deletes the `.part`. */
  async cancel(id: string): Promise<DownloadStatus> {
    const entry = this.entry(id);
    if (entry.state === 'cancelled') return entry.view();
    if (entry.state === 'done') throw new HearthError('download_conflict', `Download ${id} has finished; delete ${entry.finalPath} instead.`);
    if (entry.running) await this.stop(entry, 'cancel');
    else {
      await this.removePart(entry);
      this.transition(entry, 'cancelled');
    }
    return entry.view();
  }

  /** Resolves when the download next rests: done, failed, paused or cancelled. */
  settled(id: string): Promise<DownloadStatus> {
    const entry = this.entry(id);
    if (SETTLED_STATES.has(entry.state) && !entry.running) return Promise.resolve(entry.view());
    return new Promise((resolve) => entry.waiters.push(resolve));
  }

  /** Pauses everything (the `.part` files stay for the next start) and waits until every file is closed. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      [...this.entries.values()].map(async (e) => {
        if (e.running) await this.stop(e, 'pause');
        else if (e.state === 'queued') this.transition(e, 'paused');
      }),
    );
  }

  private entry(id: string): DownloadEntry {
    const entry = this.entries.get(id);
    if (!entry) throw new HearthError('download_not_found', `No download with id ${id}. List them with models.list.`);
    return entry;
  }

  private queue(entry: DownloadEntry): void {
    entry.error = null;
    this.transition(entry, 'queued');
    this.pump();
  }

  /** Starts queued downloads, oldest first, up to the concurrency limit. */
  private pump(): void {
    if (this.closed) return;
    const limit = this.options.maxConcurrent ?? 2;
    let running = [...this.entries.values()].filter((e) => e.running).length;
    for (const entry of this.entries.values()) {
      if (running >= limit) break;
      if (entry.state !== 'queued' || entry.running) continue;
      this.launch(entry, () => this.download(entry));
      running++;
    }
  }

  private launch(entry: DownloadEntry, work: () => Promise<void>): void {
    entry.controller = new AbortController();
    entry.stopReason = undefined;
    entry.task = work()
      .catch(async (err: unknown) => {
        if (entry.controller?.signal.aborted && entry.stopReason === 'cancel') {
          if (!entry.local) await this.removePart(entry);
          this.transition(entry, 'cancelled');
        } else if (entry.controller?.signal.aborted) {
          this.transition(entry, entry.local ? 'cancelled' : 'paused');
        } else {
          entry.error = errorMessage(err);
          this.transition(entry, 'failed');
        }
      })
      .catch((err: unknown) => {
        // Cleanup itself failed (the .part could not be deleted): the download still has to end in a state.
        entry.error = `Could not clean up ${partPathFor(entry.finalPath)}: ${errorMessage(err)}`;
        this.transition(entry, 'failed');
      })
      .finally(() => {
        entry.task = undefined;
        entry.controller = undefined;
        this.notifySettled(entry);
        this.pump();
      });
  }

  private async stop(entry: DownloadEntry, reason: 'pause' | 'cancel'): Promise<void> {
    entry.stopReason = reason;
    entry.controller?.abort(new Error(reason === 'pause' ? 'paused' : 'cancelled'));
    await entry.task;
  }

  private async download(entry: DownloadEntry): Promise<void> {
    const signal = (entry.controller as AbortController).signal;
    this.transition(entry, 'downloading');
    await mkdir(this.options.folder, { recursive: true });
    await this.writeSidecar(entry);
    const split = entry.parts.length > 1;
    if (split) await this.sizeParts(entry, signal);
    let before = 0;
    for (const [index, part] of entry.parts.entries()) {
      const result = await transferToPart({
        url: part.url,
        partPath: partPathFor(part.finalPath),
        signal,
        idleTimeoutMs: this.options.idleTimeoutMs,
        onStart: (start) => this.onTransferStart(entry, start, index, before),
        onProgress: (received) => this.onProgress(entry, before + received),
      });
      if (result.alreadyComplete && !split) entry.notice = 'The file was already complete on disk; verifying it.';
      part.serverSha256 = result.serverSha256;
      before += result.totalBytes ?? (statSync(partPathFor(part.finalPath), { throwIfNoEntry: false })?.size ?? 0);
    }
    const first = entry.parts[0] as DownloadPart;
    if (!split && first.serverSha256 && entry.expectedSha256 === null) entry.expectedSha256 = first.serverSha256;
    this.transition(entry, 'verifying');
    for (const part of entry.parts) {
      const problem = await verifyModelFile(partPathFor(part.finalPath), split ? part.serverSha256 : entry.expectedSha256, signal);
      if (problem) {
        // A file that fails verification is wrong, not incomplete: resuming it could never fix it.
        await this.removePart(entry);
        throw new HearthError('download_failed', `${entry.source}: ${split ? `${basename(part.finalPath)}: ` : ''}${problem}`);
      }
    }
    // The first part's name is what makes the model visible (listed, loadable), so it is given last.
    for (const part of [...entry.parts.slice(1), first]) await rename(partPathFor(part.finalPath), part.finalPath);
    await rm(sidecarPathFor(entry.finalPath), { force: true });
    this.transition(entry, 'done');
  }

  /** A split model's total size, asked of the server part by part, and the disk-space check against it, before any part is fetched. */
  private async sizeParts(entry: DownloadEntry, signal: AbortSignal): Promise<void> {
    const sizes = await Promise.all(entry.parts.map((part) => remoteSize(part.url, signal)));
    entry.totalBytes = sizes.reduce((a, b) => a + b, 0);
    const onDisk = entry.parts.reduce((sum, part) => sum + (statSync(partPathFor(part.finalPath), { throwIfNoEntry: false })?.size ?? 0), 0);
    const free = await (this.options.freeDiskBytes ?? freeDiskBytes)(this.options.folder);
    assertDiskSpace(entry.finalPath, this.options.folder, entry.totalBytes - onDisk, free);
    await this.writeSidecar(entry);
  }

  private async verifyLocal(entry: DownloadEntry): Promise<void> {
    const split = entry.parts.length > 1;
    let total = 0;
    for (const [index, part] of entry.parts.entries()) {
      const stat = statSync(part.finalPath, { throwIfNoEntry: false });
      if (!stat?.isFile()) {
        const which = split ? ` (part ${index + 1} of ${entry.parts.length} of a split model: llama.cpp needs every part in the same folder)` : '';
        throw new HearthError('download_failed', `${part.finalPath} does not exist or is not a file${which}.`);
      }
      total += stat.size;
    }
    entry.totalBytes = entry.receivedBytes = total;
    // Used in place, not copied: model files are gigabytes, and the user chose where this one lives.
    entry.notice = 'A file on this computer: Hearth uses it where it is and does not copy it.';
    for (const part of entry.parts) {
      const problem = await verifyModelFile(part.finalPath, split ? null : entry.expectedSha256, (entry.controller as AbortController).signal);
      if (problem) throw new HearthError('download_failed', `${part.finalPath}: ${problem}`);
    }
    this.transition(entry, 'done');
  }

  /** `before`: bytes of the parts already fetched (a split model's progress counts all its parts). */
  private async onTransferStart(entry: DownloadEntry, start: TransferStart, index: number, before: number): Promise<void> {
    const split = entry.parts.length > 1;
    if (!split) entry.totalBytes = start.totalBytes;
    entry.receivedBytes = before + start.resumedFrom;
    if (index === 0 || start.restarted) entry.rate.reset();
    entry.rate.record(entry.receivedBytes);
    if (start.restarted) entry.notice = 'The server cannot resume downloads, so this one started again from the beginning.';
    // A split model's disk space was checked against all its parts before the first one (sizeParts).
    if (!split && start.totalBytes !== null) {
      const free = await (this.options.freeDiskBytes ?? freeDiskBytes)(this.options.folder);
      assertDiskSpace(entry.finalPath, this.options.folder, start.totalBytes - start.resumedFrom, free);
      await this.writeSidecar(entry);
    }
    this.emit(entry);
  }

  private onProgress(entry: DownloadEntry, received: number): void {
    entry.receivedBytes = received;
    entry.rate.record(received);
    const now = performance.now();
    if (now - entry.lastProgressAt < (this.options.progressIntervalMs ?? 250)) return;
    this.emit(entry);
  }

  private transition(entry: DownloadEntry, state: DownloadStatus['state']): void {
    entry.state = state;
    this.emit(entry);
    if (!entry.running) this.notifySettled(entry);
  }

  private emit(entry: DownloadEntry): void {
    entry.lastProgressAt = performance.now();
    this.options.onChange(entry.view());
  }

  private notifySettled(entry: DownloadEntry): void {
    if (!SETTLED_STATES.has(entry.state)) return;
    const view = entry.view();
    for (const resolve of entry.waiters.splice(0)) resolve(view);
  }

  private async writeSidecar(entry: DownloadEntry): Promise<void> {
    const parts = entry.parts.length > 1 ? entry.parts.map((part) => ({ url: part.url, fileName: basename(part.finalPath) })) : undefined;
    const sidecar: PartSidecar = { source: entry.source, url: entry.url, sha256: entry.expectedSha256, totalBytes: entry.totalBytes, ...(parts ? { parts } : {}) };
    await writeFile(sidecarPathFor(entry.finalPath), JSON.stringify(sidecar));
  }

  private async removePart(entry: DownloadEntry): Promise<void> {
    for (const part of entry.parts) await rm(partPathFor(part.finalPath), { force: true });
    await rm(sidecarPathFor(entry.finalPath), { force: true });
    entry.receivedBytes = 0;
  }

  /**
   * A `.part` left by an earlier run: paused if its sidecar says where it comes from, otherwise only cancellable.
   * Returns the file names of the parts it stands for (a split model's sidecar lists them all).
   */
  private restoreLeftover(finalPath: string): string[] {
    let sidecar: PartSidecar | null = null;
    let why = '';
    try {
      sidecar = PartSidecar.parse(JSON.parse(readFileSync(sidecarPathFor(finalPath), 'utf8')));
    } catch (err) {
      why = errorMessage(err);
    }
    const folder = this.options.folder;
    const later = (sidecar?.parts ?? []).slice(1).map((part) => ({ url: part.url, finalPath: join(folder, part.fileName) }));
    const entry = sidecar
      ? new DownloadEntry(randomUUID(), sidecar.source, sidecar.url, finalPath, false, sidecar.sha256, 'paused', later)
      : new DownloadEntry(randomUUID(), '', '', finalPath, false, null, 'failed');
    entry.receivedBytes = entry.parts.reduce((sum, part) => sum + (statSync(partPathFor(part.finalPath), { throwIfNoEntry: false })?.size ?? 0), 0);
    entry.totalBytes = sidecar?.totalBytes ?? null;
    if (!sidecar) entry.error = `Hearth does not know where ${partPathFor(finalPath)} came from (${why}); cancel it to delete the partial file, then download again.`;
    this.entries.set(entry.id, entry);
    return entry.parts.map((part) => basename(part.finalPath));
  }
}
