import { HearthError } from '../errors.js';

/** Socket-level failures that mean "no daemon there", as opposed to the daemon refusing a request. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOENT', 'EACCES', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);

interface DockerodeError {
  code?: string;
  statusCode?: number;
  json?: { message?: string } | null;
  message?: string;
}

/** Where the client is pointed, for messages: the socket path or the DOCKER_HOST value. */
export function describeDaemonAddress(modem: { socketPath?: unknown; host?: unknown; port?: unknown }): string {
  if (typeof modem.socketPath === 'string' && modem.socketPath.length > 0) return `unix://${modem.socketPath}`;
  if (typeof modem.host === 'string') return `${modem.host}:${String(modem.port ?? '')}`;
  return process.env.DOCKER_HOST ?? 'the default Docker socket';
}

export function dockerMessage(err: unknown): string {
  const e = err as DockerodeError;
  return e.json?.message ?? e.message ?? String(err);
}

export function isDaemonUnreachable(err: unknown): boolean {
  const code = (err as DockerodeError).code;
  return code !== undefined && UNREACHABLE_CODES.has(code);
}

export function isNotFound(err: unknown): boolean {
  return (err as DockerodeError).statusCode === 404;
}

/** 409: the container exists but is not running (it died, or someone stopped it). */
export function isNotRunning(err: unknown): boolean {
  return (err as DockerodeError).statusCode === 409;
}

export function daemonUnreachableError(err: unknown, address: string): HearthError {
  const code = (err as DockerodeError).code ?? 'error';
  const permission =
    code === 'EACCES' ? ' This user may not access the Docker socket: add it to the `docker` group or use rootless Docker.' : '';
  return new HearthError(
    'backend_unavailable',
    `The Docker daemon is not reachable at ${address} (${code}). Start Docker (\`sudo systemctl start docker\`, or open ` +
      `Docker Desktop), or set DOCKER_HOST to where it listens.${permission}`,
    { cause: err, details: { address, code } },
  );
}

export function imageMissingError(err: unknown, image: string): HearthError {
  return new HearthError(
    'backend_unavailable',
    `The Docker image "${image}" is not on this machine. Pull it (\`docker pull ${image}\`, which needs network access), ` +
      `build or import it locally (\`docker build -t ${image} .\`), or set terminal.docker.image to an image you have.`,
    { cause: err, details: { image } },
  );
}

/** Turns any dockerode failure into a HearthError that says what to do; `doing` names the step that failed. */
export function toHearthError(err: unknown, doing: string, address: string): HearthError {
  if (err instanceof HearthError) return err;
  if (isDaemonUnreachable(err)) return daemonUnreachableError(err, address);
  return new HearthError('backend_failed', `Docker could not ${doing}: ${dockerMessage(err)}`, { cause: err });
}
