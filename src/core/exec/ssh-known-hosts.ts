import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * OpenSSH `known_hosts` parsing and host key checks, written to match what `ssh` itself accepts:
 * plain and `[host]:port` patterns (with `*`/`?` wildcards and `!` negation), hashed `|1|salt|hash`
 * entries (HMAC-SHA1 of the host name keyed by the salt), `@revoked` keys. `@cert-authority` lines are
 * skipped (certificate host keys are not supported) and reported so a refusal can say why.
 */
export interface KnownHostEntry {
  /** 1-based line number, for messages the user can act on. */
  line: number;
  revoked: boolean;
  /** The host field: comma-separated patterns, or one hashed entry. */
  hosts: string;
  keyType: string;
  key: Buffer;
}

export interface KnownHosts {
  file: string;
  exists: boolean;
  entries: KnownHostEntry[];
  /** Lines marked @cert-authority, skipped. */
  skippedCertAuthorities: number;
}

export type HostKeyVerdict =
  | { kind: 'trusted'; entry: KnownHostEntry }
  | { kind: 'unknown'; otherKeyTypes: string[] }
  | { kind: 'changed'; expected: KnownHostEntry }
  | { kind: 'revoked'; entry: KnownHostEntry };

export function readKnownHosts(file: string): KnownHosts {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    // A missing file is an empty trust list: every host is unknown, which the refusal message explains.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { file, exists: false, entries: [], skippedCertAuthorities: 0 };
    throw err;
  }
  return parseKnownHosts(text, file);
}

export function parseKnownHosts(text: string, file: string): KnownHosts {
  const entries: KnownHostEntry[] = [];
  let skippedCertAuthorities = 0;
  text.split(/\r?\n/).forEach((raw, index) => {
    const fields = raw.trim().split(/\s+/);
    if (fields[0] === undefined || fields[0] === '' || fields[0].startsWith('#')) return;
    let revoked = false;
    if (fields[0].startsWith('@')) {
      const marker = fields.shift();
      if (marker === '@cert-authority') {
        skippedCertAuthorities += 1;
        return;
      }
      // An unknown marker is ignored by OpenSSH too; only @revoked changes the meaning of a line.
      if (marker !== '@revoked') return;
      revoked = true;
    }
    const [hosts, keyType, keyBase64] = fields;
    if (hosts === undefined || keyType === undefined || keyBase64 === undefined) return;
    entries.push({ line: index + 1, revoked, hosts, keyType, key: Buffer.from(keyBase64, 'base64') });
  });
  return { file, exists: true, entries, skippedCertAuthorities };
}

/** The name OpenSSH looks up: the bare host on port 22, `[host]:port` otherwise. */
export function lookupName(host: string, port: number): string {
  const lower = host.toLowerCase();
  return port === 22 ? lower : `[${lower}]:${port}`;
}

export function hostFieldMatches(hosts: string, host: string, port: number): boolean {
  const name = lookupName(host, port);
  if (hosts.startsWith('|1|')) return hashedEntryMatches(hosts, name);
  let matched = false;
  for (const pattern of hosts.toLowerCase().split(',')) {
    if (pattern.startsWith('!')) {
      // A matching negation excludes the host whatever else matches on the line.
      if (globMatches(pattern.slice(1), name)) return false;
    } else if (globMatches(pattern, name)) {
      matched = true;
    }
  }
  return matched;
}

function hashedEntryMatches(field: string, name: string): boolean {
  const [, , saltBase64, hashBase64] = field.split('|');
  if (saltBase64 === undefined || hashBase64 === undefined) return false;
  const expected = Buffer.from(hashBase64, 'base64');
  const actual = createHmac('sha1', Buffer.from(saltBase64, 'base64')).update(name).digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

function globMatches(pattern: string, name: string): boolean {
  const source = [...pattern].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${source}$`).test(name);
}

export function checkHostKey(known: KnownHosts, host: string, port: number, presented: Buffer): HostKeyVerdict {
  const type = keyTypeOf(presented);
  const forHost = known.entries.filter((e) => hostFieldMatches(e.hosts, host, port));
  const revoked = forHost.find((e) => e.revoked && e.key.equals(presented));
  if (revoked) return { kind: 'revoked', entry: revoked };
  const sameType = forHost.filter((e) => !e.revoked && e.keyType === type);
  const trusted = sameType.find((e) => e.key.equals(presented));
  if (trusted) return { kind: 'trusted', entry: trusted };
  if (sameType[0] !== undefined) return { kind: 'changed', expected: sameType[0] };
  return { kind: 'unknown', otherKeyTypes: [...new Set(forHost.filter((e) => !e.revoked).map((e) => e.keyType))] };
}

/** Key types known_hosts holds for this host, so the handshake can ask the server for one of those first (as `ssh` does). */
export function knownKeyTypes(known: KnownHosts, host: string, port: number): string[] {
  return [...new Set(known.entries.filter((e) => !e.revoked && hostFieldMatches(e.hosts, host, port)).map((e) => e.keyType))];
}

/** The algorithm name in an SSH public key blob (its first length-prefixed string). */
export function keyTypeOf(blob: Buffer): string {
  if (blob.length < 4) return 'unknown';
  const length = blob.readUInt32BE(0);
  return blob.subarray(4, 4 + length).toString('latin1');
}

/** `SHA256:…` as `ssh-keygen -l` and `ssh` print it. */
export function sshFingerprint(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}
