import type { ContainerCreateOptions } from 'dockerode';
import type { HearthConfig } from '../config/schema.js';

export type DockerSandboxConfig = HearthConfig['terminal']['docker'];

/** Labels that mark a container as Hearth's: which session it serves and which process owns it. */
export const SESSION_LABEL = 'hearth.session';
export const OWNER_LABEL = 'hearth.owner';

export interface ContainerSpecInput {
  config: DockerSandboxConfig;
  /** Absolute host path; mounted read-write at the same path inside the container. */
  workspace: string;
  sessionId: string;
  /** `<hostname>:<pid>` of the process that creates the container (crash recovery reads it back). */
  owner: string;
  /** CPUs the daemon has: Docker refuses a NanoCpus above it, so the configured number is capped. */
  daemonCpus: number;
}

const MIB = 1024 * 1024;

/**
 * The sandbox: nothing of the host but the workspace, no network unless configured, read-only root,
 * no capabilities, no privilege gain through setuid binaries, a non-root user, and bounded
 * memory/CPU/process count so a runaway command (or a fork bomb) hurts only itself.
 */
export function containerSpec(input: ContainerSpecInput): ContainerCreateOptions {
  const { config } = input;
  const cpus = Math.min(config.cpus, Math.max(input.daemonCpus, 0.01));
  return {
    Image: config.image,
    name: `hearth-${input.sessionId.replace(/[^a-zA-Z0-9_.-]/g, '-').slice(0, 40)}-${Math.random().toString(36).slice(2, 8)}`,
    // Keepalive only; commands arrive as execs. The image's own entrypoint is replaced so it cannot start a service.
    Entrypoint: ['sleep', 'infinity'],
    Cmd: [],
    User: config.user ?? sandboxUser(),
    WorkingDir: input.workspace,
    // A home on the tmpfs: tools that write caches (~/.cache, ~/.npm) otherwise fail on the read-only root.
    Env: ['HOME=/tmp', 'PAGER=cat', 'GIT_PAGER=cat'],
    Labels: { [SESSION_LABEL]: input.sessionId, [OWNER_LABEL]: input.owner },
    NetworkDisabled: !config.network,
    HostConfig: {
      ReadonlyRootfs: true,
      // With network on, the daemon's default network (whatever the user set up); otherwise none at all.
      ...(config.network ? {} : { NetworkMode: 'none' }),
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      Privileged: false,
      PidsLimit: config.pids_limit,
      Memory: config.memory_mb * MIB,
      // Equal to Memory: no swap on top, so the limit is the limit.
      MemorySwap: config.memory_mb * MIB,
      NanoCpus: Math.round(cpus * 1e9),
      // docker-init as pid 1 reaps orphaned background jobs; without it zombies would eat the pids limit.
      Init: true,
      Tmpfs: { '/tmp': 'rw,nosuid,nodev,mode=1777' },
      Mounts: [{ Type: 'bind', Source: input.workspace, Target: input.workspace, ReadOnly: false }],
      AutoRemove: false,
    },
  };
}

/**
 * The user commands run as when config names none: the user running Hearth, so files written in the mounted
 * workspace belong to them and their files are writable; never root (65534, "nobody", when Hearth itself is root).
 */
export function sandboxUser(uid = process.getuid?.() ?? 65534, gid = process.getgid?.() ?? 65534): string {
  return uid === 0 ? '65534:65534' : `${uid}:${gid}`;
}
