import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHearthError } from '../src/core/errors.js';
import type { ExecOptions } from '../src/core/exec/backend.js';
import { SshBackend } from '../src/core/exec/ssh.js';
import { sshdAvailable, startSshd } from './fixtures/sshd.js';
import type { SshdFixture } from './fixtures/sshd.js';

/**
 * SshBackend against a real OpenSSH server on loopback. The remote host is this machine, so the
 * tests can look at remote files and processes directly, but every command goes through sshd.
 */
if (!sshdAvailable) console.warn('exec-ssh tests skipped: /usr/sbin/sshd is not installed (apt-get install openssh-server)');

describe.skipIf(!sshdAvailable)('SshBackend', () => {
  let sshd: SshdFixture;
  let backend: SshBackend;
  let dir: string;
  let base: ExecOptions;

  beforeAll(async () => {
    sshd = await startSshd();
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-ssh-work-')));
    backend = new SshBackend({
      host: sshd.host,
      port: sshd.port,
      user: sshd.user,
      identityFile: sshd.userKey,
      knownHostsFile: sshd.writeKnownHosts('known_hosts', `${sshd.knownHostsLine}\n`),
      killGraceMs: 300,
    });
    base = { cwd: dir, timeoutMs: 10_000, signal: new AbortController().signal, outputLimit: 10_000 };
  }, 20_000);

  afterAll(async () => {
    await backend?.dispose();
    await sshd?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Remote processes whose command line starts with `prefix` (zombies have an empty cmdline and do not count). */
  async function remoteProcesses(prefix: string): Promise<string[]> {
    const result = await backend.run(
      `for p in /proc/[0-9]*; do tr '\\0\\n' '  ' 2>/dev/null < "$p/cmdline"; echo; done | grep '^${prefix}' || true`,
      base,
    );
    return result.output.split('\n').filter((line) => line !== '');
  }

  it('returns stdout and stderr, the exit code, and no trace of the control markers', async () => {
    const result = await backend.run('echo out; echo err >&2; exit 3', base);
    expect(result.exitCode).toBe(3);
    expect(result.output).toContain('out\n');
    expect(result.output).toContain('err\n');
    expect(result.output).not.toMatch(/HEARTH|pgid/);
    expect(result.timedOut).toBe(false);
  });

  it('runs the command under bash when the host has it (the model writes bash, e.g. [[ ]])', async () => {
    const result = await backend.run('[[ -n "$BASH_VERSION" ]] && echo bash', base);
    expect(result.output.trim()).toBe('bash');
  });

  it('reports 128 + signal when the command dies of a signal (as bash does)', async () => {
    const result = await backend.run('kill -TERM $$', base);
    expect(result.exitCode).toBe(143);
  });

  it('the working directory persists from one command to the next, even after `exit`', async () => {
    const first = await backend.run('mkdir -p sub/deeper && cd sub/deeper && exit 4', base);
    expect(first.exitCode).toBe(4);
    expect(first.cwd).toBe(join(dir, 'sub', 'deeper'));
    const second = await backend.run('pwd', { ...base, cwd: first.cwd });
    expect(second.output.trim()).toBe(join(dir, 'sub', 'deeper'));
  });

  it('a start directory missing on the remote host falls back to the login directory and says so', async () => {
    const result = await backend.run('pwd', { ...base, cwd: '/no/such/dir/on/remote' });
    expect(result.output).toContain('/no/such/dir/on/remote does not exist on 127.0.0.1');
    expect(result.cwd).not.toBe('/no/such/dir/on/remote');
    expect(result.output.trim().split('\n').at(-1)).toBe(result.cwd);
  });

  it('passes env values verbatim (quotes, $, newlines) and stdin', async () => {
    const tricky = `it's "quoted" $HOME \`x\`\nline2`;
    const result = await backend.run('read line; printf "%s|%s" "$line" "$TRICKY"', { ...base, stdin: 'hello\n', env: { TRICKY: tricky } });
    expect(result.output).toBe(`hello|${tricky}`);
  });

  it('rejects an environment variable name that would be shell code', async () => {
    const attempt = backend.run('true', { ...base, env: { 'X=1; touch /tmp/pwned #': 'v' } });
    await expect(attempt).rejects.toSatisfy((err) => isHearthError(err, 'tool_input_invalid'));
  });

  it('stdin is empty by default, so a command that reads input does not hang', async () => {
    const result = await backend.run('cat; echo done', base);
    expect(result.output.trim()).toBe('done');
  });

  it('streams output while the command runs', async () => {
    // The command only finishes once the client has SEEN its first line: buffering until exit would hang here.
    const flag = join(dir, 'seen-first-line');
    const chunks: string[] = [];
    const result = await backend.run(`echo first; while [ ! -f ${flag} ]; do sleep 0.05; done; echo second`, {
      ...base,
      onOutput: (chunk) => {
        chunks.push(chunk);
        if (chunks.join('').includes('first')) writeFileSync(flag, '');
      },
    });
    expect(result.output).toBe('first\nsecond\n');
    expect(chunks.join('')).toBe('first\nsecond\n');
  });

  it('caps output to the head and tail with a note', async () => {
    const result = await backend.run(`head -c 100000 /dev/zero | tr '\\0' a; echo; echo THE-END`, { ...base, outputLimit: 1000 });
    expect(result.truncated).toBe(true);
    expect(result.output.length).toBeLessThan(1200);
    expect(result.output).toContain('characters of output omitted');
    expect(result.output).toContain('THE-END');
  });

  it('a timeout kills the remote process group, including a child that ignores SIGTERM', async () => {
    // Closing the channel alone leaves `sleep` running on the server; the group kill must reach it.
    // The timeout leaves room for the remote login shell to start; `ready` proves the TERM-proof child was running.
    const result = await backend.run(`sleep 30.101 | cat & sh -c "trap '' TERM; echo ready; exec sleep 30.102"; wait`, { ...base, timeoutMs: 2500 });
    expect(result.output).toContain('ready');
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeGreaterThan(128);
    expect(await remoteProcesses('sleep 30.10')).toEqual([]);
  });

  it('an interrupt rejects with aborted, leaves nothing running, and the next command works', async () => {
    const controller = new AbortController();
    const attempt = backend.run('echo started; sleep 30.201', {
      ...base,
      signal: controller.signal,
      onOutput: (chunk) => {
        if (chunk.includes('started')) controller.abort(new Error('user pressed stop'));
      },
    });
    await expect(attempt).rejects.toSatisfy((err) => isHearthError(err, 'aborted'));
    expect(await remoteProcesses('sleep 30.201')).toEqual([]);
    const next = await backend.run('echo still-works', base);
    expect(next.output.trim()).toBe('still-works');
  });

  it('reconnects when the connection dropped', async () => {
    // Killing the sshd process that serves this session (the wrapper shell's parent) drops the TCP connection.
    const dropped = backend.run('kill -KILL $(ps -o ppid= -p $PPID); sleep 5', base);
    await expect(dropped).rejects.toSatisfy((err) => isHearthError(err, 'ssh_connection'));
    const next = await backend.run('echo reconnected', base);
    expect(next.output.trim()).toBe('reconnected');
  });

  it('runs commands concurrently over the one connection', async () => {
    const results = await Promise.all([1, 2, 3].map((n) => backend.run(`sleep 0.2; echo ${n}`, base)));
    expect(results.map((r) => r.output.trim())).toEqual(['1', '2', '3']);
  });

  it('dispose closes the connection and is safe twice', async () => {
    const own = new SshBackend({
      host: sshd.host,
      port: sshd.port,
      user: sshd.user,
      identityFile: sshd.userKey,
      knownHostsFile: join(sshd.dir, 'known_hosts'),
    });
    await own.run('true', base);
    await own.dispose();
    await own.dispose();
    await expect(own.run('true', base)).rejects.toSatisfy((err) => isHearthError(err, 'ssh_connection'));
    expect(existsSync(dir)).toBe(true);
  });
});
