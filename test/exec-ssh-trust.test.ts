import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/core/config/schema.js';
import { HearthError, isHearthError } from '../src/core/errors.js';
import type { HearthErrorCode } from '../src/core/errors.js';
import { SshBackend, createSshBackend } from '../src/core/exec/ssh.js';
import type { SshBackendOptions } from '../src/core/exec/ssh.js';
import { sshdAvailable, startSshd } from './fixtures/sshd.js';
import type { SshdFixture } from './fixtures/sshd.js';

/** Host key trust and authentication against a real OpenSSH server: every refusal must be loud and say what to do. */
if (!sshdAvailable) console.warn('exec-ssh-trust tests skipped: /usr/sbin/sshd is not installed (apt-get install openssh-server)');

describe.skipIf(!sshdAvailable)('SshBackend trust and authentication', () => {
  let sshd: SshdFixture;
  let goodKnownHosts: string;
  const base = { cwd: tmpdir(), timeoutMs: 10_000, signal: new AbortController().signal, outputLimit: 10_000 };

  beforeAll(async () => {
    sshd = await startSshd();
    goodKnownHosts = sshd.writeKnownHosts('known_hosts', `${sshd.knownHostsLine}\n`);
  }, 20_000);
  afterAll(async () => {
    await sshd?.stop();
  });

  function options(overrides: Partial<SshBackendOptions>): SshBackendOptions {
    return { host: sshd.host, port: sshd.port, user: sshd.user, identityFile: sshd.userKey, knownHostsFile: goodKnownHosts, ...overrides };
  }

  /** Runs `echo ok` with a fresh backend; returns the output or the HearthError it failed with. */
  async function attempt(overrides: Partial<SshBackendOptions>): Promise<string | HearthError> {
    const backend = new SshBackend(options(overrides));
    try {
      return (await backend.run('echo ok', base)).output.trim();
    } catch (err) {
      if (err instanceof HearthError) return err;
      throw err;
    } finally {
      await backend.dispose();
    }
  }

  function expectRefusal(result: string | HearthError, code: HearthErrorCode): HearthError {
    expect(result).toBeInstanceOf(HearthError);
    const err = result as HearthError;
    expect(err.code).toBe(code);
    return err;
  }

  it('refuses an unknown host, naming its key type, its SHA256 fingerprint (as ssh-keygen prints it) and the fix', async () => {
    const err = expectRefusal(await attempt({ knownHostsFile: sshd.writeKnownHosts('empty', '') }), 'ssh_host_unknown');
    expect(err.message).toContain(sshd.hostFingerprint);
    expect(err.message).toContain('ssh-ed25519');
    expect(err.message).toContain(`ssh-keyscan -p ${sshd.port} -t ed25519 127.0.0.1 >>`);
  });

  it('a missing known_hosts file means unknown, not trusted', async () => {
    const err = expectRefusal(await attempt({ knownHostsFile: join(sshd.dir, 'absent') }), 'ssh_host_unknown');
    expect(err.message).toContain('does not exist yet');
  });

  it('an entry without a port is for port 22 and does not vouch for another port', async () => {
    const keyOnly = sshd.hostPublicKey.split(' ').slice(0, 2).join(' ');
    expectRefusal(await attempt({ knownHostsFile: sshd.writeKnownHosts('port22', `127.0.0.1 ${keyOnly}\n`) }), 'ssh_host_unknown');
  });

  it('a different key for the host is refused as a possible man-in-the-middle', async () => {
    const impostor = readFileSync(`${sshd.newKey('impostor_host')}.pub`, 'utf8').split(' ').slice(0, 2).join(' ');
    const file = sshd.writeKnownHosts('changed', `[127.0.0.1]:${sshd.port} ${impostor}\n`);
    const err = expectRefusal(await attempt({ knownHostsFile: file }), 'ssh_host_key_changed');
    expect(err.message).toContain('man-in-the-middle');
    expect(err.message).toContain(sshd.hostFingerprint);
    expect(err.message).toContain(`${file} line 1`);
  });

  it('accepts hashed entries written by ssh-keygen -H (HMAC-SHA1 of [host]:port)', async () => {
    const file = sshd.writeKnownHosts('hashed', `# comment line\n${sshd.knownHostsLine}\n`);
    execFileSync('ssh-keygen', ['-H', '-f', file], { stdio: 'ignore' });
    const hashed = readFileSync(file, 'utf8');
    expect(hashed).toContain('|1|');
    expect(hashed).not.toContain('127.0.0.1');
    expect(await attempt({ knownHostsFile: file })).toBe('ok');
  });

  it('a key marked @revoked is refused even when another line trusts it', async () => {
    const keyOnly = sshd.hostPublicKey.split(' ').slice(0, 2).join(' ');
    const file = sshd.writeKnownHosts('revoked', `${sshd.knownHostsLine}\n@revoked * ${keyOnly}\n`);
    const err = expectRefusal(await attempt({ knownHostsFile: file }), 'ssh_host_key_revoked');
    expect(err.message).toContain('line 2');
  });

  it('@cert-authority lines are not taken as trust for the host key itself, and the refusal says they were skipped', async () => {
    const keyOnly = sshd.hostPublicKey.split(' ').slice(0, 2).join(' ');
    const file = sshd.writeKnownHosts('ca', `@cert-authority * ${keyOnly}\n`);
    const err = expectRefusal(await attempt({ knownHostsFile: file }), 'ssh_host_unknown');
    expect(err.message).toContain('@cert-authority');
  });

  it('a key the server does not authorize is refused with advice about authorized_keys', async () => {
    const err = expectRefusal(await attempt({ identityFile: sshd.newKey('stranger') }), 'ssh_auth');
    expect(err.message).toContain('authorized_keys');
    expect(err.message).toContain('stranger');
  });

  it('an encrypted key without a passphrase gets an error that says what to do; with the passphrase it works', async () => {
    const encrypted = sshd.newKey('locked', 'correct horse');
    // Authorize it, so the only obstacle is the passphrase.
    execFileSync('sh', ['-c', `cat ${encrypted}.pub >> ${join(sshd.dir, 'authorized_keys')}`]);
    const err = expectRefusal(await attempt({ identityFile: encrypted }), 'ssh_auth');
    expect(err.message).toContain(`ssh-add ${encrypted}`);
    expectRefusal(await attempt({ identityFile: encrypted, passphrase: 'wrong' }), 'ssh_auth');
    expect(await attempt({ identityFile: encrypted, passphrase: 'correct horse' })).toBe('ok');
  });

  it('logs in through a real ssh-agent when no identity_file is set', async () => {
    const socket = join(sshd.dir, 'agent.sock');
    const started = execFileSync('ssh-agent', ['-s', '-a', socket], { encoding: 'utf8' });
    const pid = /SSH_AGENT_PID=(\d+)/.exec(started)?.[1];
    expect(pid).toBeDefined();
    try {
      // An empty agent must be refused: proves the login below used the agent's key, not something else.
      expectRefusal(await attempt({ identityFile: undefined, agentSocket: socket }), 'ssh_auth');
      execFileSync('ssh-add', ['-q', sshd.userKey], { env: { ...process.env, SSH_AUTH_SOCK: socket }, stdio: 'ignore' });
      expect(await attempt({ identityFile: undefined, agentSocket: socket })).toBe('ok');
    } finally {
      process.kill(Number(pid), 'SIGTERM');
    }
  });

  it('without identity_file or an agent, says how to provide one', async () => {
    const err = expectRefusal(await attempt({ identityFile: undefined }), 'ssh_auth');
    expect(err.message).toContain('SSH_AUTH_SOCK');
  });

  it('createSshBackend expands ~ against the given home and refuses a config without host or user', async () => {
    const section = { ...defaultConfig().terminal.ssh, host: sshd.host, port: sshd.port, user: sshd.user };
    const backend = createSshBackend({ ...section, identity_file: '~/user_ed25519', known_hosts: '~/known_hosts' }, { home: sshd.dir, env: {} });
    try {
      expect((await backend.run('echo ok', base)).output.trim()).toBe('ok');
    } finally {
      await backend.dispose();
    }
    const missing = (() => {
      try {
        createSshBackend({ ...defaultConfig().terminal.ssh, host: 'build.example.com' }, { home: sshd.dir });
        return null;
      } catch (err) {
        return err;
      }
    })();
    expect(isHearthError(missing, 'config_invalid')).toBe(true);
    expect((missing as HearthError).message).toContain('terminal.ssh.user');
  });
});
