import { HearthError } from '../errors.js';
import type { HostKeyVerdict, KnownHosts } from './ssh-known-hosts.js';
import { keyTypeOf, lookupName, sshFingerprint } from './ssh-known-hosts.js';

/**
 * The refusals a user reads when a host key is not trusted. Each names the host, the key type and
 * fingerprint it presented, and the exact command that fixes it once the user has checked the
 * fingerprint out of band: trust is always the user's decision, never Hearth's.
 */
export function hostKeyRefusal(
  verdict: Exclude<HostKeyVerdict, { kind: 'trusted' }>,
  known: KnownHosts,
  host: string,
  port: number,
  presented: Buffer,
): HearthError {
  const type = keyTypeOf(presented);
  const fingerprint = sshFingerprint(presented);
  const where = port === 22 ? host : `${host} port ${port}`;
  const details = { host, port, keyType: type, fingerprint, knownHosts: known.file };
  switch (verdict.kind) {
    case 'unknown': {
      const notes: string[] = [];
      if (!known.exists) notes.push(`(${known.file} does not exist yet.)`);
      if (verdict.otherKeyTypes.length > 0) {
        notes.push(`(${known.file} only has ${verdict.otherKeyTypes.join(', ')} keys for this host, and the server offered none of them.)`);
      }
      if (known.skippedCertAuthorities > 0) {
        notes.push(`(${known.skippedCertAuthorities} @cert-authority line(s) were skipped: Hearth does not support certificate host keys; add the host's own key.)`);
      }
      return new HearthError(
        'ssh_host_unknown',
        [
          `The SSH host ${where} is not in ${known.file}, so Hearth did not connect (host keys are never trusted silently).`,
          `It presented an ${type} key with fingerprint ${fingerprint}.`,
          `Compare that fingerprint with the one the server's administrator sees (on the server: ssh-keygen -lf /etc/ssh/ssh_host_${keygenName(type)}_key.pub); if they match, add the host:`,
          `  ${keyscanCommand(host, port, type)} >> ${known.file}`,
          ...notes,
        ].join('\n'),
        { details },
      );
    }
    case 'changed':
      return new HearthError(
        'ssh_host_key_changed',
        [
          `WARNING: THE SSH HOST KEY FOR ${where.toUpperCase()} HAS CHANGED. Hearth refused to connect.`,
          `Someone may be intercepting the connection (a man-in-the-middle attack), or the server was reinstalled or its keys replaced.`,
          `The server presented an ${type} key with fingerprint ${fingerprint}; ${known.file} line ${verdict.expected.line} expects ${sshFingerprint(verdict.expected.key)}.`,
          `Only if the server's administrator confirms the new fingerprint, remove the old entry and add the new one:`,
          `  ssh-keygen -R '${lookupName(host, port)}' -f ${known.file}`,
          `  ${keyscanCommand(host, port, type)} >> ${known.file}`,
        ].join('\n'),
        { details: { ...details, expectedFingerprint: sshFingerprint(verdict.expected.key), line: verdict.expected.line } },
      );
    case 'revoked':
      return new HearthError(
        'ssh_host_key_revoked',
        [
          `The SSH host ${where} presented an ${type} key (${fingerprint}) that ${known.file} line ${verdict.entry.line} marks @revoked. Hearth refused to connect.`,
          `A revoked key means it was compromised or retired; the server must be given a new host key before anyone connects to it.`,
        ].join('\n'),
        { details: { ...details, line: verdict.entry.line } },
      );
  }
}

function keyscanCommand(host: string, port: number, type: string): string {
  return `ssh-keyscan${port === 22 ? '' : ` -p ${port}`} -t ${keygenName(type)} ${host}`;
}

/** The short name `ssh-keyscan -t` and host key file names use. */
function keygenName(type: string): string {
  if (type === 'ssh-ed25519') return 'ed25519';
  if (type.startsWith('ecdsa-')) return 'ecdsa';
  if (type === 'ssh-rsa') return 'rsa';
  if (type === 'ssh-dss') return 'dsa';
  return type;
}
