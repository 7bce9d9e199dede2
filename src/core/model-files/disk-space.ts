import { statfs } from 'node:fs/promises';
import { failed } from './http-request.js';

/** Bytes an unprivileged user may still write on the file system holding `folder`. */
export async function freeDiskBytes(folder: string): Promise<number> {
  const stats = await statfs(folder);
  return stats.bavail * stats.bsize;
}

/** Room left for the file system itself, so a download never fills the disk to the last byte. */
const HEADROOM_BYTES = 64 * 1024 * 1024;

/** Throws a `download_failed` that says how much is needed and how much is free. */
export function assertDiskSpace(fileName: string, folder: string, neededBytes: number, freeBytes: number): void {
  if (neededBytes + HEADROOM_BYTES <= freeBytes) return;
  throw failed(
    `Not enough disk space for ${fileName}: it needs ${formatBytes(neededBytes)} more and only ${formatBytes(freeBytes)} is free in ${folder}. Free some space, then resume.`,
    { neededBytes, freeBytes },
  );
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
