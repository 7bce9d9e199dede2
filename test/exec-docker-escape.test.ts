import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerBackend } from '../src/core/exec/docker.js';
import { makeWorkspace, runIn, sandboxTestConfig, useTestDockerd } from './fixtures/docker-backend-harness.js';
import { dockerdMissingMessage, findDockerd } from './fixtures/dockerd.js';

const dockerdPath = findDockerd();
if (dockerdPath === null) console.warn(dockerdMissingMessage());

/**
 * What a hostile or confused command tries inside the sandbox. Each test runs the attempt for real
 * and checks both that it failed and why (the mechanism), so a sandbox that fails for an unrelated
 * reason (a missing binary, say) does not pass by accident.
 */
describe.skipIf(dockerdPath === null)('DockerBackend sandbox: escape attempts fail', () => {
  const dockerd = useTestDockerd(dockerdPath as string);
  let workspace: ReturnType<typeof makeWorkspace>;
  let secretDir: string;
  let backend: DockerBackend;
  const run = (command: string, options: Parameters<typeof runIn>[3] = {}) => runIn(backend, workspace.path, command, options);

  beforeAll(async () => {
    workspace = makeWorkspace();
    // A host secret right next to the workspace, readable by everyone on the host: only the mount keeps it out.
    secretDir = mkdtempSync(join(tmpdir(), 'hearth-secret-'));
    writeFileSync(join(secretDir, 'secret.txt'), 'TOP SECRET', { mode: 0o644 });
    backend = new DockerBackend(sandboxTestConfig(), { workspace: workspace.path, docker: dockerd.daemon.docker });
  }, 60_000);

  afterAll(async () => {
    await backend?.dispose();
    workspace?.remove();
    rmSync(secretDir, { recursive: true, force: true });
  }, 30_000);

  it('cannot write the root filesystem (read-only root)', async () => {
    const result = await run('touch /etc/x; echo "status $?"; touch /bin/x 2>&1');
    expect(result.output).toMatch(/Read-only file system/);
    expect(result.output).toContain('status 1');
  });

  it('can write /tmp (tmpfs) so ordinary tools still work', async () => {
    expect((await run('echo ok > /tmp/f && cat /tmp/f')).output).toBe('ok\n');
  });

  it('has no network: only the loopback interface, and connections fail', async () => {
    const interfaces = await run('ls /sys/class/net');
    expect(interfaces.output.trim().split(/\s+/)).toEqual(['lo']);
    const wget = await run('wget -T 3 -q -O- http://1.1.1.1/ 2>&1; echo "wget $?"; nc -w 2 1.1.1.1 80 </dev/null 2>&1; echo "nc $?"');
    expect(wget.output).not.toContain('wget 0');
    expect(wget.output).not.toContain('nc 0');
    expect(wget.output).toMatch(/Network is unreachable|network unreachable/i);
  });

  it('cannot read a host file outside the workspace mount', async () => {
    const result = await run(`cat ${join(secretDir, 'secret.txt')} 2>&1; ls ${secretDir} 2>&1`);
    expect(result.output).not.toContain('TOP SECRET');
    expect(result.output).toMatch(/No such file or directory/);
  });

  it('runs as a non-root user with no capabilities and no way to gain privileges', async () => {
    expect((await run('id -u')).output.trim()).toBe('65534');
    const status = await run('grep -E "^(Cap|NoNewPrivs)" /proc/self/status');
    const caps = status.output.split('\n').filter((line) => line.startsWith('Cap'));
    expect(caps.length).toBeGreaterThanOrEqual(4);
    for (const line of caps) expect(line).toMatch(/:\s+0+$/);
    expect(status.output).toMatch(/NoNewPrivs:\s+1/);
    const su = await run('su -c "id -u" root </dev/null 2>&1; echo "su $?"');
    expect(su.output).not.toMatch(/^0$/m);
    expect(su.output).not.toContain('su 0');
  });

  it('contains a fork bomb with the pids limit, and the backend keeps working afterwards', async () => {
    const limit = await run('cat /sys/fs/cgroup/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids/pids.max');
    expect(limit.output.trim()).toBe('64');
    const bomb = await run('bomb() { bomb | bomb; }; bomb', { timeoutMs: 5000 });
    expect(bomb.output).toMatch(/can't fork: Resource temporarily unavailable/);
    // The bomb's last processes may still be exiting when the next command starts (on a loaded machine its first
    // fork can fail); the sandbox must be clean again within seconds.
    await expect.poll(async () => (await run('echo survived')).output, { timeout: 15_000, interval: 500 }).toBe('survived\n');
  }, 40_000);

  it('a flood that holds every pid cannot be killed from inside: the container is replaced and the next command runs', async () => {
    const before = (await run('hostname')).output;
    // Keeps all 64 pids busy, so the second exec that would kill it cannot even start.
    const flood = await run('while :; do sleep 30 & done 2>/dev/null', { timeoutMs: 2000 });
    expect(flood.timedOut).toBe(true);
    // On a loaded machine the old container's teardown can still be under way for the first command after it.
    let after = '';
    await expect
      .poll(
        async () => {
          after = (await run('echo survived; hostname')).output;
          return after;
        },
        { timeout: 15_000, interval: 500 },
      )
      .toMatch(/^survived\n/);
    expect(after).not.toContain(before.trim());
  }, 40_000);
});
