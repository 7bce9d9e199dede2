import { z } from 'zod';
import { envName, flag, positiveInt, positiveNumber } from './schema-values.js';

/** `terminal.*`: where and how the terminal tool runs commands (one section per execution backend). */

const DockerBackendSection = z.object({
  /** The image each session's container runs (it must have /bin/sh). */
  image: z.string().min(1).default('debian:bookworm-slim'),
  /** Network access inside the container; off unless configured. */
  network: flag().default(false),
  memory_mb: positiveInt('a positive number of megabytes').default(2048),
  cpus: positiveNumber('a positive number of CPUs').default(2),
  pids_limit: positiveInt('a positive integer').default(512),
  /** uid:gid the commands run as (never root). Unset: your own uid:gid, so the mounted workspace is writable (65534:65534 when Hearth runs as root). */
  user: z.string().regex(/^[1-9][0-9]*:[0-9]+$/, { error: 'expected "uid:gid" with a non-zero uid, e.g. "65534:65534"' }).optional(),
  /** Inside the sandbox, commands that are not hardline run without asking. */
  auto_approve: flag().default(false),
});

const SshBackendSection = z.object({
  host: z.string().min(1).optional(),
  port: z.number().int().min(1).max(65_535).default(22),
  user: z.string().min(1).optional(),
  /** Private key file; without it the SSH agent (SSH_AUTH_SOCK) is used. */
  identity_file: z.string().min(1).optional(),
  /** Host keys are checked against this file; an unknown host is refused, never trusted silently. */
  known_hosts: z.string().min(1).default('~/.ssh/known_hosts'),
  /** Directory commands start in on the remote host (default: the login directory). */
  cwd: z.string().min(1).optional(),
});

const SingularityBackendSection = z.object({
  /** A .sif file or an image URI the CLI understands (`docker://debian:bookworm-slim`, `library://…`). */
  image: z.string().min(1).optional(),
  /** Which CLI runs it: `auto` takes `apptainer`, then `singularity`, from PATH. */
  binary: z.enum(['auto', 'apptainer', 'singularity'], { error: 'expected auto, apptainer or singularity' }).default('auto'),
  /** Network access inside the container (`--net --network none` when false). */
  network: flag().default(false),
  /** Inside the container, commands that are not hardline run without asking. */
  auto_approve: flag().default(false),
});

const ModalBackendSection = z.object({
  /** The Modal app the sandboxes are created under (created when missing). */
  app_name: z.string().min(1).default('hearth'),
  /** A registry image the sandbox runs (it must have /bin/sh). */
  image: z.string().min(1).default('debian:bookworm-slim'),
  /** Seconds a sandbox may live before Modal stops it (each session gets one sandbox). */
  sandbox_timeout_s: positiveInt('a positive number of seconds').default(3600),
  cpus: positiveNumber('a positive number of CPUs').optional(),
  memory_mb: positiveInt('a positive number of megabytes').optional(),
  /** Network access inside the sandbox; off unless configured. */
  network: flag().default(false),
  auto_approve: flag().default(false),
});

const DaytonaBackendSection = z.object({
  /** The Daytona API (self-hosted installations have their own). */
  api_url: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL such as "https://app.daytona.io/api"' }).default('https://app.daytona.io/api'),
  /** Region/runner target; the account's default when unset. */
  target: z.string().min(1).optional(),
  /** A snapshot (or image) the sandbox starts from; Daytona's default when unset. */
  snapshot: z.string().min(1).optional(),
  /** Minutes of inactivity before Daytona stops the sandbox. */
  auto_stop_minutes: positiveInt('a positive number of minutes').default(30),
  /** Network access from the sandbox (Daytona's `networkBlockAll` when false). */
  network: flag().default(false),
  auto_approve: flag().default(false),
});

export const TERMINAL_BACKENDS = ['local', 'docker', 'ssh', 'singularity', 'modal', 'daytona'] as const;

export const TerminalSection = z.object({
  timeout_s: positiveNumber('a positive number of seconds').default(180),
  output_limit_chars: positiveInt('a positive integer').default(50_000),
  /** Where the terminal tool runs commands. */
  backend: z.enum(TERMINAL_BACKENDS, { error: `expected one of ${TERMINAL_BACKENDS.join(', ')}` }).default('local'),
  /**
   * Environment variables commands may see besides the fixed safe set (PATH, HOME, LANG…). Everything else
   * of Hearth's environment — API keys above all — stays out of the commands the model runs.
   */
  env_passthrough: z.array(envName, { error: 'expected a list of environment variable names' }).default([]),
  docker: DockerBackendSection.prefault({}),
  ssh: SshBackendSection.prefault({}),
  singularity: SingularityBackendSection.prefault({}),
  modal: ModalBackendSection.prefault({}),
  daytona: DaytonaBackendSection.prefault({}),
});
