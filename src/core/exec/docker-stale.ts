import { hostname } from 'node:os';
import type Dockerode from 'dockerode';
import { OWNER_LABEL } from './docker-container-spec.js';
import { isNotFound } from './docker-errors.js';

/** `<hostname>:<pid>`: the pid alone would be ambiguous when several machines share one daemon. */
export function ownerLabel(pid: number = process.pid): string {
  return `${hostname()}:${pid}`;
}

/**
 * Crash recovery: removes containers a Hearth process on this machine created and left behind when
 * it died (kill -9, power loss). Containers owned by live processes or by other machines are left alone.
 * Returns how many were removed.
 */
export async function removeStaleContainers(docker: Dockerode): Promise<number> {
  const containers = await docker.listContainers({ all: true, filters: { label: [OWNER_LABEL] } });
  const thisHost = hostname();
  let removed = 0;
  for (const info of containers) {
    const owner = info.Labels[OWNER_LABEL] ?? '';
    const colon = owner.lastIndexOf(':');
    const host = owner.slice(0, colon);
    const pid = Number.parseInt(owner.slice(colon + 1), 10);
    if (host !== thisHost || !Number.isInteger(pid) || pid <= 0 || processIsAlive(pid)) continue;
    try {
      await docker.getContainer(info.Id).remove({ force: true });
      removed += 1;
    } catch (err) {
      // Another Hearth process recovering at the same moment removed it first: the goal is met.
      if (!isNotFound(err)) throw err;
    }
  }
  return removed;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user, so it is alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
