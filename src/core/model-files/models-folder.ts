/**
 * The layout of HEARTH_HOME/models: finished models are `<name>.gguf`; a download in progress is
 * `<name>.gguf.part` with `<name>.gguf.part.json` beside it (where it comes from, the expected digest), so
 * a download interrupted by quitting Hearth can be resumed after a restart. A split model is its parts side by
 * side (`<base>-00001-of-0000N.gguf`, …), downloading as one `.part` each and one sidecar, beside the first part.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { errorMessage, HearthError } from '../errors.js';
import { isLaterPart, partNames } from './split-parts.js';

export const PART_SUFFIX = '.part';
const SIDECAR_SUFFIX = '.part.json';

export interface ModelFile {
  name: string;
  path: string;
  sizeBytes: number;
}

export function modelsFolder(home: string): string {
  return join(home, 'models');
}

export function partPathFor(finalPath: string): string {
  return finalPath + PART_SUFFIX;
}

export function sidecarPathFor(finalPath: string): string {
  return finalPath + SIDECAR_SUFFIX;
}

/** What a `.part` needs to be resumed: stored beside it before the first byte is written. */
export const PartSidecar = z.object({
  source: z.string(),
  url: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/).nullable(),
  totalBytes: z.number().nullable(),
  /** Every part of a split model, first first; absent for a single file (and in sidecars from before splits). */
  parts: z.array(z.object({ url: z.string(), fileName: z.string() })).optional(),
});
export type PartSidecar = z.infer<typeof PartSidecar>;

/**
 * Finished GGUF files, by name. A split model is listed once, as its first part (the path llama.cpp is given),
 * with the size of all its parts. A missing folder is an empty list (nothing downloaded yet), not an error.
 */
export function listModelFiles(folder: string): ModelFile[] {
  const sizeOf = (name: string) => {
    const stat = statSync(join(folder, name), { throwIfNoEntry: false });
    return stat?.isFile() ? stat.size : null;
  };
  return readFolder(folder)
    .filter((name) => /\.gguf$/i.test(name) && !isLaterPart(name))
    .flatMap((name) => {
      if (sizeOf(name) === null) return [];
      const sizeBytes = partNames(name).reduce((sum, part) => sum + (sizeOf(part) ?? 0), 0);
      return [{ name, path: join(folder, name), sizeBytes }];
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Names of the finished files that `.part` files in the folder would become. */
export function listPartTargets(folder: string): string[] {
  return readFolder(folder)
    .filter((name) => name.endsWith(`.gguf${PART_SUFFIX}`))
    .map((name) => name.slice(0, -PART_SUFFIX.length))
    .sort();
}

function readFolder(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new HearthError('config_io', `Cannot read the models folder ${folder}: ${errorMessage(err)}`, { cause: err });
  }
}
