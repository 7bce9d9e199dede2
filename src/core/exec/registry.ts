import Dockerode from 'dockerode';
import type { HearthConfig } from '../config/schema.js';
import type { ExecutionBackend } from './backend.js';
import { createDaytonaBackend } from './daytona.js';
import { createDockerBackend } from './docker.js';
import { LocalBackend } from './local.js';
import { commandEnvironment } from './subprocess-env.js';
import { createModalBackend } from './modal.js';
import { createSingularityBackend } from './singularity.js';
import { createSshBackend } from './ssh.js';

type TerminalConfig = HearthConfig['terminal'];

export interface BackendContext {
  /** The project directory: mounted into the docker sandbox, the local working directory. */
  workspace: string;
  /** The user's home directory, for `~` in SSH key and known_hosts paths. */
  userHome: string;
  env: NodeJS.ProcessEnv;
}

/** One entry per `terminal.backend` value: adding a backend is a file in exec/ and a line here. */
const BACKENDS: Record<TerminalConfig['backend'], (config: TerminalConfig, ctx: BackendContext) => ExecutionBackend> = {
  local: (config, ctx) => new LocalBackend({ baseEnv: commandEnvironment(ctx.env, config.env_passthrough) }),
  docker: (config, ctx) => createDockerBackend(config.docker, { workspace: ctx.workspace, ...dockerClient(ctx.env) }),
  ssh: (config, ctx) => createSshBackend(config.ssh, { home: ctx.userHome, env: ctx.env }),
  singularity: (config, ctx) => createSingularityBackend(config.singularity, { ...ctx, passthrough: config.env_passthrough }),
  modal: (config, ctx) => createModalBackend(config.modal, ctx),
  daytona: (config, ctx) => createDaytonaBackend(config.daytona, ctx),
};

/** Where the terminal tool runs commands (`terminal.backend`). Misconfiguration fails here, at start, with the key named. */
export function createBackend(config: TerminalConfig, ctx: BackendContext): ExecutionBackend {
  return BACKENDS[config.backend](config, ctx);
}

/** A disposable sandbox configured to run what is not hardline without asking (it can only harm itself and the mounted workspace). */
export function autoApproves(config: TerminalConfig): boolean {
  switch (config.backend) {
    case 'docker':
    case 'singularity':
    case 'modal':
    case 'daytona':
      return config[config.backend].auto_approve;
    default:
      return false;
  }
}

/**
 * The engine's environment may not be the process's (tests, a surface that sets DOCKER_HOST for Hearth only):
 * a unix-socket DOCKER_HOST there is honoured; otherwise dockerode reads the process environment as usual.
 */
function dockerClient(env: NodeJS.ProcessEnv): { docker?: Dockerode } {
  const host = env.DOCKER_HOST;
  return host?.startsWith('unix://') ? { docker: new Dockerode({ socketPath: host.slice('unix://'.length) }) } : {};
}
