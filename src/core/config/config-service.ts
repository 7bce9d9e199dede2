import { statSync } from 'node:fs';
import { errorMessage } from '../errors.js';
import { configPath, loadConfig, saveConfig } from './load.js';
import type { HearthConfig } from './schema.js';

/** Called with the configuration after a change and the one before it. A returned promise is awaited by `update`. */
export type ConfigListener = (next: HearthConfig, previous: HearthConfig) => void | Promise<void>;

export interface ConfigServiceOptions {
  /** Problems that did not stop loading (unknown keys, a migration that ran), and listeners that failed on an outside edit. */
  onWarning?: (message: string) => void;
}

/** What identifies one version of the file: a save replaces it (new inode), an editor rewrites it (new mtime or size). */
interface FileStamp {
  mtimeMs: number;
  size: number;
  ino: number;
}

/**
 * `HEARTH_HOME/config.yaml` for one process: the validated configuration, cached and re-read when the file changed
 * on disk (an edit by hand or by another Hearth process is seen at the next `current()`), and the one
 * read-modify-write of it (`update`). Live settings subscribe with `onChange` instead of re-reading the file.
 */
export class ConfigService {
  readonly path: string;
  private readonly listeners = new Set<ConfigListener>();
  private readonly warn: (message: string) => void;
  private cached: HearthConfig | null = null;
  private stamp: FileStamp | null = null;

  constructor(
    readonly home: string,
    options: ConfigServiceOptions = {},
  ) {
    this.path = configPath(home);
    this.warn = options.onWarning ?? (() => undefined);
  }

  /**
   * The configuration as the file holds it now. Cheap when nothing changed (one stat). When the file changed
   * outside this service, listeners hear of it; their failures are warnings, since the caller only asked to read.
   */
  current(): HearthConfig {
    const previous = this.cached;
    const next = this.refresh();
    if (previous !== null && next !== previous && !sameConfig(previous, next)) {
      void this.emit(next, previous).catch((err: unknown) => this.warn(`A setting changed in ${this.path} could not be applied: ${errorMessage(err)}`));
    }
    return next;
  }

  /**
   * The one read-modify-write of config.yaml: re-reads the file (so an edit made meanwhile is kept), applies
   * `mutate` to a copy, validates and saves it (comments and untouched keys stay as written). An invalid result is
   * refused with a `config_invalid` error naming the key, and the file is left as it was. The read, change and
   * write happen without a pause, so updates started together in this process apply one after the other.
   * Resolves once every listener has applied the change; a listener's failure rejects it (the file is saved).
   */
  async update(mutate: (draft: HearthConfig) => HearthConfig | void): Promise<HearthConfig> {
    const before = this.current();
    const draft = structuredClone(before);
    const result = mutate(draft) ?? draft;
    saveConfig(this.home, result);
    const next = this.refresh();
    if (!sameConfig(before, next)) await this.emit(next, before);
    return next;
  }

  /** Hear of every change from now on (updates through any service in this process, and outside edits once seen). */
  onChange(listener: ConfigListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** The cached configuration, re-read when the file's stamp changed since the last read. */
  private refresh(): HearthConfig {
    const stamp = fileStamp(this.path);
    if (this.cached !== null && sameStamp(stamp, this.stamp)) return this.cached;
    const loaded = loadConfig(this.home);
    loaded.warnings.forEach((warning) => this.warn(warning));
    // A migration rewrote the file while loading: stamp what is there now, or the next call reads it again.
    this.stamp = loaded.backupPath === undefined ? stamp : fileStamp(this.path);
    this.cached = loaded.config;
    return loaded.config;
  }

  private async emit(next: HearthConfig, previous: HearthConfig): Promise<void> {
    const failures: unknown[] = [];
    for (const listener of [...this.listeners]) {
      try {
        await listener(next, previous);
      } catch (err) {
        failures.push(err);
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, `${failures.length} settings could not be applied`);
  }
}

function fileStamp(path: string): FileStamp | null {
  try {
    const stat = statSync(path);
    return { mtimeMs: stat.mtimeMs, size: stat.size, ino: stat.ino };
  } catch {
    // No file is the default configuration; loadConfig reports any other reason the file cannot be read.
    return null;
  }
}

function sameStamp(a: FileStamp | null, b: FileStamp | null): boolean {
  if (a === null || b === null) return a === b;
  return a.mtimeMs === b.mtimeMs && a.size === b.size && a.ino === b.ino;
}

function sameConfig(a: HearthConfig, b: HearthConfig): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
