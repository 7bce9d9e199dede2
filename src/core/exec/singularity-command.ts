import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { HearthError } from '../errors.js';
import { shellQuote } from './local.js';

/**
 * The `apptainer exec` / `singularity exec` command line each command runs as. Pure functions, so the
 * isolation flags can be checked without the CLI (it is not packaged for Debian, so it cannot run here).
 */
export type SingularityBinaryChoice = 'auto' | 'apptainer' | 'singularity';

export interface SingularityInvocation {
  /** A .sif file or an image URI (`docker://…`, `library://…`). */
  image: string;
  /** Host directory bound read-write at the same path, so paths agree with the file tools. */
  workspace: string;
  /** Directory the container process starts in (see `startDirectory`). */
  pwd: string;
  network: boolean;
  /** The only variables the command sees: `--cleanenv` drops the rest of the CLI's environment. */
  env: Record<string, string>;
  /** Shell text run by `/bin/sh -c` inside the container. */
  script: string;
}

/**
 * `--containall`: own PID and IPC namespaces, a private /tmp and /dev, no host home; `--cleanenv`: the host
 * environment stays out; `--no-home`: not even an empty home is bound. Only the workspace is shared.
 */
export function singularityExecArgs(invocation: SingularityInvocation): string[] {
  const args = ['exec', '--containall', '--cleanenv', '--no-home', '--bind', `${invocation.workspace}:${invocation.workspace}`, '--pwd', invocation.pwd];
  // `--net` alone gives a bridge network; `--network none` gives only a loopback interface.
  if (!invocation.network) args.push('--net', '--network', 'none');
  for (const [name, value] of Object.entries(invocation.env)) args.push('--env', envFlagValue(name, value));
  args.push(invocation.image, '/bin/sh', '-c', invocation.script);
  return args;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * `--env` is a string-to-string flag: the CLI reads its value as one CSV record, so `A=1,B=2` sets two
 * variables. A value with a comma, quote or newline is therefore written as one quoted CSV field.
 */
export function envFlagValue(name: string, value: string): string {
  if (!ENV_NAME.test(name)) {
    throw new HearthError('tool_input_invalid', `invalid environment variable name ${JSON.stringify(name)}: names must match [A-Za-z_][A-Za-z0-9_]*`);
  }
  const pair = `${name}=${value}`;
  return /[",\r\n]/.test(pair) ? `"${pair.replaceAll('"', '""')}"` : pair;
}

/**
 * The container may lack a directory the previous command ended in (outside the workspace), and the CLI
 * refuses a `--pwd` that does not exist; inside the workspace it always exists (it is bound), elsewhere the
 * script's own `cd` tries it and falls back.
 */
export function startDirectory(cwd: string, workspace: string): string {
  return cwd === workspace || cwd.startsWith(`${workspace}/`) ? cwd : workspace;
}

/**
 * The shell text: an EXIT trap prints the marker with the exit status and final `$PWD` (the format
 * MarkedStdout reads), so `cd` persists to the next command and survives `exit 3`.
 */
export function containerScript(command: string, cwd: string, fallbackCwd: string, marker: string): string {
  const trap = `s=$?; printf '%s%d:%s\\n' ${shellQuote(marker)} "$s" "$PWD"`;
  return [
    `trap ${shellQuote(trap)} EXIT`,
    `cd -- ${shellQuote(cwd)} 2>/dev/null || { printf '[%s does not exist in the container; running in %s]\\n' ${shellQuote(cwd)} ${shellQuote(fallbackCwd)} >&2; cd -- ${shellQuote(fallbackCwd)}; }`,
    command,
  ].join('\n');
}

/** Finds the CLI on the engine's PATH: `auto` prefers `apptainer` (the project's current name), then `singularity`. */
export function resolveSingularityBinary(choice: SingularityBinaryChoice, path: string | undefined): string {
  const names = choice === 'auto' ? ['apptainer', 'singularity'] : [choice];
  const dirs = (path ?? '').split(delimiter).filter((dir) => dir.length > 0);
  for (const name of names) {
    for (const dir of dirs) {
      const candidate = join(dir, name);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  throw new HearthError(
    'backend_unavailable',
    `terminal.backend is "singularity" but ${names.map((n) => `\`${n}\``).join(' or ')} is not on PATH. Install Apptainer ` +
      '(https://apptainer.org/docs/admin/main/installation.html: the project ships .deb and .rpm packages, Ubuntu has ' +
      '`ppa:apptainer/ppa`, Fedora/EPEL `dnf install apptainer`), or set terminal.backend to docker or local.',
    { details: { searched: names, key: 'terminal.singularity.binary' } },
  );
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, fsConstants.X_OK);
    return true;
  } catch (err) {
    // Missing or not executable: this directory does not provide the CLI; the next one is tried.
    void err;
    return false;
  }
}
