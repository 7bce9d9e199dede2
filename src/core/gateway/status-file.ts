import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { isAlive } from './token-lock.js';
import type { AdapterState } from './types.js';

/**
 * The running gateway's adapter states, in a small file under HEARTH_HOME that `hearth gateway status` (and the
 * desktop) read without talking to the process. Written whole and renamed into place, so a reader never sees
 * half a file; the pid says whether the writer still runs.
 */
export const GATEWAY_STATUS_FILE = 'gateway-status.json';

const StoredAdapterState = z.union([
  z.object({ state: z.literal('stopped') }),
  z.object({ state: z.literal('connecting') }),
  z.object({ state: z.literal('connected'), since: z.number(), account: z.string().optional() }),
  z.object({ state: z.literal('retrying'), attempt: z.number(), nextRetryAt: z.number(), reason: z.string() }),
  z.object({ state: z.literal('bad_token'), reason: z.string() }),
  z.object({ state: z.literal('failed'), reason: z.string() }),
]);

const StatusFile = z.object({
  pid: z.number().int(),
  startedAt: z.number(),
  updatedAt: z.number(),
  adapters: z.record(z.string(), StoredAdapterState),
});
export type GatewayStatusFile = z.infer<typeof StatusFile>;

export interface GatewayStatus {
  running: boolean;
  pid: number | null;
  startedAt: number | null;
  /** Every configured platform; one the running gateway does not report is `stopped`. */
  adapters: { platform: string; state: AdapterState }[];
  /** Set when the file exists but cannot be read: said, not hidden. */
  problem?: string;
}

export function statusFilePath(home: string): string {
  return join(home, GATEWAY_STATUS_FILE);
}

export class StatusWriter {
  private readonly adapters: Record<string, AdapterState> = {};
  private readonly startedAt = Date.now();

  constructor(
    private readonly home: string,
    private readonly pid: number = process.pid,
  ) {}

  set(platform: string, state: AdapterState): void {
    this.adapters[platform] = state;
    this.write();
  }

  write(): void {
    const content: GatewayStatusFile = { pid: this.pid, startedAt: this.startedAt, updatedAt: Date.now(), adapters: this.adapters };
    const path = statusFilePath(this.home);
    const temporary = `${path}.${this.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(content, null, 2), { mode: 0o600 });
    renameSync(temporary, path);
  }
}

/** What `hearth gateway status` shows: the file's states while its writer lives; every adapter stopped otherwise. */
export function readGatewayStatus(home: string, configured: readonly string[]): GatewayStatus {
  const stopped = (platforms: readonly string[]) => platforms.map((platform) => ({ platform, state: { state: 'stopped' } as AdapterState }));
  let raw: string;
  try {
    raw = readFileSync(statusFilePath(home), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { running: false, pid: null, startedAt: null, adapters: stopped(configured) };
    return { running: false, pid: null, startedAt: null, adapters: stopped(configured), problem: `cannot read ${statusFilePath(home)}: ${(err as Error).message}` };
  }
  let parsed: GatewayStatusFile;
  try {
    parsed = StatusFile.parse(JSON.parse(raw));
  } catch (err) {
    return { running: false, pid: null, startedAt: null, adapters: stopped(configured), problem: `${statusFilePath(home)} is not a gateway status file: ${(err as Error).message.slice(0, 200)}` };
  }
  if (!isAlive(parsed.pid)) return { running: false, pid: parsed.pid, startedAt: parsed.startedAt, adapters: stopped(configured) };
  const platforms = [...new Set([...configured, ...Object.keys(parsed.adapters)])];
  return {
    running: true,
    pid: parsed.pid,
    startedAt: parsed.startedAt,
    adapters: platforms.map((platform) => ({ platform, state: parsed.adapters[platform] ?? { state: 'stopped' } })),
  };
}
