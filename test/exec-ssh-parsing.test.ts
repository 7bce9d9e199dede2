import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isHearthError } from '../src/core/errors.js';
import { ControlLineParser, buildRemoteCommand, killGroupCommand, newMarker } from '../src/core/exec/ssh-remote-script.js';
import { checkHostKey, hostFieldMatches, parseKnownHosts, sshFingerprint } from '../src/core/exec/ssh-known-hosts.js';

/** The pure parts of the SSH backend, where a slip would let the wrong host in or leak control text into output. */

/** An SSH public key blob: length-prefixed type followed by some key bytes. */
function blob(type: string, body: Buffer = randomBytes(32)): Buffer {
  const name = Buffer.from(type);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(name.length);
  return Buffer.concat([length, name, body]);
}

describe('known_hosts host patterns', () => {
  it('matches [host]:port only for that port, bare names only for port 22', () => {
    expect(hostFieldMatches('[10.0.0.5]:2222', '10.0.0.5', 2222)).toBe(true);
    expect(hostFieldMatches('[10.0.0.5]:2222', '10.0.0.5', 22)).toBe(false);
    expect(hostFieldMatches('10.0.0.5', '10.0.0.5', 2222)).toBe(false);
    expect(hostFieldMatches('build,10.0.0.5', '10.0.0.5', 22)).toBe(true);
  });

  it('supports wildcards and a negation that overrides a match, case-insensitively', () => {
    expect(hostFieldMatches('*.example.com', 'Build.Example.com', 22)).toBe(true);
    expect(hostFieldMatches('*.example.com,!secret.example.com', 'secret.example.com', 22)).toBe(false);
    expect(hostFieldMatches('build?.example.com', 'build1.example.com', 22)).toBe(true);
    // A dot in a pattern is literal, not "any character".
    expect(hostFieldMatches('10.0.0.5', '10a0b0c5', 22)).toBe(false);
  });

  it('matches hashed entries by HMAC-SHA1 of the lookup name, and nothing else', () => {
    const salt = randomBytes(20);
    const hash = createHmac('sha1', salt).update('[example.org]:2200').digest();
    const field = `|1|${salt.toString('base64')}|${hash.toString('base64')}`;
    expect(hostFieldMatches(field, 'example.org', 2200)).toBe(true);
    expect(hostFieldMatches(field, 'example.org', 22)).toBe(false);
    expect(hostFieldMatches(field, 'example.net', 2200)).toBe(false);
  });

  it('tells trusted, changed (same type, other key), unknown (no key of that type) and revoked apart', () => {
    const good = blob('ssh-ed25519');
    const other = blob('ssh-ed25519');
    const rsa = blob('ssh-rsa');
    const line = (b: Buffer, prefix = 'h'): string => `${prefix} ${b.subarray(4, 15).toString()} ${b.toString('base64')}`;
    expect(checkHostKey(parseKnownHosts(line(good), 'kh'), 'h', 22, good).kind).toBe('trusted');
    expect(checkHostKey(parseKnownHosts(line(other), 'kh'), 'h', 22, good).kind).toBe('changed');
    const onlyRsa = checkHostKey(parseKnownHosts(`h ssh-rsa ${rsa.toString('base64')}`, 'kh'), 'h', 22, good);
    expect(onlyRsa).toEqual({ kind: 'unknown', otherKeyTypes: ['ssh-rsa'] });
    expect(checkHostKey(parseKnownHosts(`${line(good)}\n@revoked ${line(good, '*')}`, 'kh'), 'h', 22, good).kind).toBe('revoked');
  });

  it('fingerprints like ssh-keygen: SHA256 in unpadded base64', () => {
    expect(sshFingerprint(Buffer.from('abc'))).toBe('SHA256:ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0');
  });
});

describe('control lines in the stdout stream', () => {
  it('strips markers split across chunks at any point, keeping everything else in order', () => {
    const marker = newMarker();
    const stream = `${marker} pgid 4242\nhello ${marker.slice(0, 5)} not a marker\nworld${marker} end 3 /srv/app dir\n`;
    for (let cut = 1; cut < stream.length; cut += 7) {
      const parser = new ControlLineParser(marker);
      const visible = parser.push(stream.slice(0, cut)) + parser.push(stream.slice(cut)) + parser.flush();
      expect(visible).toBe(`hello ${marker.slice(0, 5)} not a marker\nworld`);
      expect(parser.pgid).toBe(4242);
      expect(parser.end).toEqual({ exitCode: 3, cwd: '/srv/app dir' });
    }
  });

  it('releases a held-back partial marker at end of stream', () => {
    const marker = newMarker();
    const parser = new ControlLineParser(marker);
    expect(parser.push(`tail ${marker.slice(0, 8)}`)).toBe('tail ');
    expect(parser.flush()).toBe(marker.slice(0, 8));
  });
});

describe('remote script building', () => {
  it('refuses env names that are not plain identifiers (they would be shell code)', () => {
    let thrown: unknown = null;
    try {
      buildRemoteCommand('true', newMarker(), { cwd: '/', fallbackCwd: null, env: { 'A;rm -rf ~': 'x' }, hostLabel: 'h' });
    } catch (err) {
      thrown = err;
    }
    expect(isHearthError(thrown, 'tool_input_invalid')).toBe(true);
  });

  it('never builds a kill for process group 0 or 1 (that would signal everything the user owns)', () => {
    expect(() => killGroupCommand(1, 1000)).toThrow();
    expect(() => killGroupCommand(0, 1000)).toThrow();
    expect(killGroupCommand(4242, 300)).toContain('kill -KILL -4242');
  });
});
