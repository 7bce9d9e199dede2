import { readFileSync, statSync } from 'node:fs';
import ssh2 from 'ssh2';
import type { AuthenticationType, Client, ConnectConfig, ServerHostKeyAlgorithm } from 'ssh2';
import { HearthError, errorMessage } from '../errors.js';
// ssh2 is CommonJS; Node's ESM loader cannot see its `utils` export by name, so use the default export.
import { hostKeyRefusal } from './ssh-host-key-errors.js';
import { checkHostKey, knownKeyTypes, readKnownHosts } from './ssh-known-hosts.js';
import type { KnownHosts } from './ssh-known-hosts.js';

export interface SshTarget {
  host: string;
  port: number;
  user: string;
  /** Private key file (absolute). Without it the agent at `agentSocket` is used. */
  identityFile?: string;
  /** Passphrase for an encrypted `identityFile` (from the keychain, never from config files). */
  passphrase?: string;
  /** SSH agent socket (`SSH_AUTH_SOCK`). */
  agentSocket?: string;
  knownHostsFile: string;
  connectTimeoutMs: number;
}

/** Host key algorithms ssh2 offers, in its default order; reordered per host below. */
const HOST_KEY_ALGORITHMS: ServerHostKeyAlgorithm[] = [
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'rsa-sha2-512',
  'rsa-sha2-256',
  'ssh-rsa',
];

/**
 * Opens an authenticated connection. Rejects with a HearthError whose code says what to fix:
 * `ssh_host_unknown` / `ssh_host_key_changed` / `ssh_host_key_revoked` (trust), `ssh_auth` (keys),
 * `ssh_connection` (network), `config_io` (unreadable known_hosts).
 */
export async function openSshConnection(target: SshTarget): Promise<Client> {
  const auth = authConfig(target);
  let known: KnownHosts;
  try {
    known = readKnownHosts(target.knownHostsFile);
  } catch (err) {
    throw new HearthError('config_io', `cannot read terminal.ssh.known_hosts = ${target.knownHostsFile}: ${errorMessage(err)}`, { cause: err });
  }
  // ssh2 only says "verification failed"; the verifier keeps the precise reason for the rejection.
  let refusal: HearthError | null = null;
  const client = new ssh2.Client();
  return new Promise<Client>((resolve, reject) => {
    const onError = (err: Error & { level?: string }): void => {
      client.off('ready', onReady);
      client.off('close', onClose);
      client.end();
      reject(refusal ?? connectError(err, target));
    };
    const onClose = (): void => {
      client.off('error', onError);
      client.off('ready', onReady);
      reject(refusal ?? new HearthError('ssh_connection', `${describe(target)} closed the connection during the handshake.`));
    };
    const onReady = (): void => {
      client.off('error', onError);
      client.off('close', onClose);
      resolve(client);
    };
    client.once('ready', onReady);
    client.once('error', onError);
    client.once('close', onClose);
    client.connect({
      host: target.host,
      port: target.port,
      username: target.user,
      readyTimeout: target.connectTimeoutMs,
      // Notices a dead link within ~45 s so the next command reconnects instead of hanging.
      keepaliveInterval: 15_000,
      keepaliveCountMax: 3,
      ...auth,
      algorithms: { serverHostKey: preferredHostKeyAlgorithms(knownKeyTypes(known, target.host, target.port)) },
      hostVerifier: (key: Buffer): boolean => {
        const verdict = checkHostKey(known, target.host, target.port, key);
        if (verdict.kind === 'trusted') return true;
        refusal = hostKeyRefusal(verdict, known, target.host, target.port, key);
        return false;
      },
    });
  });
}

/** Key or agent, never a password: ssh2 tries only the method listed in `authHandler`. */
function authConfig(target: SshTarget): Pick<ConnectConfig, 'privateKey' | 'passphrase' | 'agent' | 'authHandler'> {
  if (target.identityFile !== undefined) {
    const file = target.identityFile;
    let data: Buffer;
    try {
      data = readFileSync(file);
    } catch (err) {
      throw new HearthError('ssh_auth', `cannot read the SSH key terminal.ssh.identity_file = ${file}: ${errorMessage(err)}`, { cause: err });
    }
    const parsed = ssh2.utils.parseKey(data, target.passphrase);
    if (parsed instanceof Error) throw keyParseError(file, parsed, target.passphrase !== undefined);
    const methods: AuthenticationType[] = ['publickey'];
    return { privateKey: data, ...(target.passphrase === undefined ? {} : { passphrase: target.passphrase }), authHandler: methods };
  }
  const socket = target.agentSocket;
  if (socket === undefined || socket === '') {
    throw new HearthError(
      'ssh_auth',
      `No way to log in to ${describe(target)}: terminal.ssh.identity_file is not set and no SSH agent is running (SSH_AUTH_SOCK is empty). Set identity_file to a private key, or start ssh-agent and ssh-add your key.`,
    );
  }
  try {
    statSync(socket);
  } catch (err) {
    throw new HearthError('ssh_auth', `The SSH agent socket ${socket} (SSH_AUTH_SOCK) is gone: restart ssh-agent and ssh-add your key, or set terminal.ssh.identity_file.`, { cause: err });
  }
  const methods: AuthenticationType[] = ['agent'];
  return { agent: socket, authHandler: methods };
}

function keyParseError(file: string, err: Error, hadPassphrase: boolean): HearthError {
  if (/encrypted/i.test(err.message) && !hadPassphrase) {
    return new HearthError(
      'ssh_auth',
      `The SSH key ${file} is protected by a passphrase and Hearth has none for it. Either load it into your SSH agent (ssh-add ${file}) and remove terminal.ssh.identity_file from the config so the agent is used, or point identity_file at a key without a passphrase made for Hearth (ssh-keygen -t ed25519 -N '' -f ~/.ssh/hearth_ed25519).`,
      { cause: err },
    );
  }
  if (hadPassphrase && /passphrase|decrypt|integrity/i.test(err.message)) {
    return new HearthError('ssh_auth', `Could not decrypt the SSH key ${file}: the passphrase is wrong (${err.message}).`, { cause: err });
  }
  return new HearthError('ssh_auth', `${file} is not a private key Hearth can use: ${err.message}`, { cause: err });
}

function connectError(err: Error & { level?: string; code?: string }, target: SshTarget): HearthError {
  const who = describe(target);
  if (err.level === 'client-authentication') {
    const key = target.identityFile === undefined ? 'any key in the SSH agent' : `the key ${target.identityFile}`;
    return new HearthError(
      'ssh_auth',
      `${who} refused ${key} (only key authentication is used, never passwords). Add the matching public key to ~${target.user}/.ssh/authorized_keys on ${target.host}, or check terminal.ssh.user.`,
      { cause: err },
    );
  }
  if (err.level === 'client-timeout') {
    return new HearthError('ssh_connection', `${who} did not complete the SSH handshake within ${target.connectTimeoutMs} ms.`, { cause: err });
  }
  if (err.code === 'ECONNREFUSED') return new HearthError('ssh_connection', `Nothing accepts SSH connections at ${who} (connection refused): check terminal.ssh.host and port.`, { cause: err });
  if (err.code === 'ENOTFOUND') return new HearthError('ssh_connection', `Cannot resolve the SSH host ${target.host}: check terminal.ssh.host.`, { cause: err });
  return new HearthError('ssh_connection', `Cannot connect to ${who}: ${err.message}`, { cause: err });
}

/** Key types the user already trusts for this host come first, so the server presents one of those (as `ssh` does). */
function preferredHostKeyAlgorithms(knownTypes: string[]): ServerHostKeyAlgorithm[] {
  const wanted = new Set(knownTypes.flatMap((t) => (t === 'ssh-rsa' ? ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'] : [t])));
  return [...HOST_KEY_ALGORITHMS.filter((a) => wanted.has(a)), ...HOST_KEY_ALGORITHMS.filter((a) => !wanted.has(a))];
}

export function describe(target: Pick<SshTarget, 'host' | 'port' | 'user'>): string {
  return `${target.user}@${target.host}:${target.port}`;
}
