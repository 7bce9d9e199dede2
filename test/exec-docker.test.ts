import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Dockerode from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHearthError } from '../src/core/errors.js';
import { DockerBackend } from '../src/core/exec/docker.js';
import { ownerLabel } from '../src/core/exec/docker-stale.js';
import { hearthContainers, makeWorkspace, runIn, sandboxTestConfig, useTestDockerd } from './fixtures/docker-backend-harness.js';
import { dockerdMissingMessage, findDockerd } from './fixtures/dockerd.js';

const dockerdPath = findDockerd();
if (dockerdPath === null) console.warn(dockerdMissingMessage());

describe.skipIf(dockerdPath === null)('DockerBackend against a real dockerd', () => {
  const dockerd = useTestDockerd(dockerdPath as string);
  let workspace: ReturnType<typeof makeWorkspace>;
  let backend: DockerBackend;
  const run = (command: string, options: Parameters<typeof runIn>[3] = {}) => runIn(backend, workspace.path, command, options);

  beforeAll(async () => {
    workspace = makeWorkspace();
    backend = new DockerBackend(sandboxTestConfig(), { workspace: workspace.path, docker: dockerd.daemon.docker });
  }, 60_000);

  afterAll(async () => {
    await backend?.dispose();
    workspace?.remove();
  }, 30_000);

  it('returns stdout, stderr and the exit code, without the end-of-command marker (catches marker leaks, lost exit codes)', async () => {
    const result = await run('echo hello; echo oops >&2; exit 3');
    expect(result.exitCode).toBe(3);
    expect(result.output).toContain('hello\n');
    expect(result.output).toContain('oops\n');
    expect(result.output).not.toContain('hearth_done');
    expect(result.timedOut).toBe(false);
  });

  it('keeps the working directory across calls (catches cwd reset between execs)', async () => {
    const moved = await run('cd /tmp');
    expect(moved.cwd).toBe('/tmp');
    const here = await run('pwd', { cwd: moved.cwd });
    expect(here.output.trim()).toBe('/tmp');
    const sub = await run('mkdir -p sub && cd sub');
    expect(sub.cwd).toBe(join(workspace.path, 'sub'));
  });

  it('falls back to the workspace, with a note, when the cwd does not exist in the container', async () => {
    const result = await run('pwd', { cwd: '/no/such/dir' });
    expect(result.output).toContain('/no/such/dir does not exist in the container');
    expect(result.cwd).toBe(workspace.path);
  });

  it('streams output while the command still runs (catches buffering until exit)', async () => {
    const chunks: string[] = [];
    let resolved = false;
    let sawFirstWhileRunning = false;
    const pending = run('echo first; sleep 1; echo second', {
      onOutput: (chunk) => {
        chunks.push(chunk);
        if (chunk.includes('first') && !resolved) sawFirstWhileRunning = true;
      },
    }).then((result) => {
      resolved = true;
      return result;
    });
    const result = await pending;
    expect(sawFirstWhileRunning).toBe(true);
    expect(chunks[0]).toContain('first');
    expect(chunks[0]).not.toContain('second');
    expect(chunks.join('')).toBe(result.output);
  });

  it('feeds stdin, and without stdin a reading command gets EOF instead of hanging', async () => {
    expect((await run('cat', { stdin: 'piped text\n' })).output).toBe('piped text\n');
    expect((await run('wc -c')).output.trim()).toBe('0');
  });

  it('caps huge output to head and tail (catches unbounded memory on `yes`)', async () => {
    const result = await run('seq 1 200000', { outputLimit: 1000 });
    expect(result.truncated).toBe(true);
    expect(result.output.length).toBeLessThan(1200);
    expect(result.output.startsWith('1\n2\n')).toBe(true);
    expect(result.output.trimEnd().endsWith('200000')).toBe(true);
  });

  it('kills a command on timeout, process group and all, in the same container (catches orphaned sleeps)', async () => {
    const before = (await run('hostname')).output;
    const result = await run('sleep 30 | cat', { timeoutMs: 1500 });
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).not.toBe(0);
    const ps = await run('ps -o pid,args');
    expect(ps.output).not.toContain('sleep 30');
    expect((await run('hostname')).output).toBe(before);
  });

  it('interrupt rejects with aborted, kills the command, and the next command works', async () => {
    const controller = new AbortController();
    const pending = run('echo started; sleep 30', {
      signal: controller.signal,
      onOutput: (chunk) => {
        if (chunk.includes('started')) controller.abort(new Error('user pressed stop'));
      },
    });
    await expect(pending).rejects.toSatisfy((err: unknown) => isHearthError(err, 'aborted'));
    const next = await run('echo still here; ps -o args');
    expect(next.output).toContain('still here');
    expect(next.output).not.toContain('sleep 30');
  });

  it('mounts the workspace read-write at its host path (catches a read-only or misplaced mount)', async () => {
    writeFileSync(join(workspace.path, 'from-host.txt'), 'host says hi');
    const result = await run('cat from-host.txt && echo container wrote this > from-container.txt');
    expect(result.output).toBe('host says hi');
    expect(readFileSync(join(workspace.path, 'from-container.txt'), 'utf8')).toBe('container wrote this\n');
  });

  it('keeps one container per session, and endSession removes only that one', async () => {
    await run('true', { sessionId: 'other' });
    expect(await hearthContainers(dockerd.daemon.docker, 'other')).toHaveLength(1);
    expect(await hearthContainers(dockerd.daemon.docker, 's1')).toHaveLength(1);
    await backend.endSession('other');
    expect(await hearthContainers(dockerd.daemon.docker, 'other')).toHaveLength(0);
    expect(await hearthContainers(dockerd.daemon.docker, 's1')).toHaveLength(1);
  });

  it('reports a container that died, then starts a fresh one (catches endless failures on a dead container)', async () => {
    await run('true', { sessionId: 'dies' });
    const [id] = await hearthContainers(dockerd.daemon.docker, 'dies');
    await dockerd.daemon.docker.getContainer(id as string).kill();
    await expect(run('true', { sessionId: 'dies' })).rejects.toSatisfy(
      (err: unknown) => isHearthError(err, 'backend_failed') && /stopped/.test((err as Error).message),
    );
    expect((await run('echo back', { sessionId: 'dies' })).output).toBe('back\n');
  });

  it('dispose removes every container it created, and is safe to call twice', async () => {
    const own = new DockerBackend(sandboxTestConfig(), { workspace: workspace.path, docker: dockerd.daemon.docker });
    await runIn(own, workspace.path, 'true', { sessionId: 'd1' });
    await runIn(own, workspace.path, 'true', { sessionId: 'd2' });
    expect((await hearthContainers(dockerd.daemon.docker, 'd1')).length + (await hearthContainers(dockerd.daemon.docker, 'd2')).length).toBe(2);
    await own.dispose();
    await own.dispose();
    expect((await hearthContainers(dockerd.daemon.docker, 'd1')).length + (await hearthContainers(dockerd.daemon.docker, 'd2')).length).toBe(0);
  });

  it('crash recovery removes containers of a dead owner and keeps those of a live one', async () => {
    const deadPid = spawnSync('true').pid as number;
    const crashed = new DockerBackend(sandboxTestConfig(), { workspace: workspace.path, docker: dockerd.daemon.docker, owner: ownerLabel(deadPid) });
    await runIn(crashed, workspace.path, 'true', { sessionId: 'crashed' });
    expect(await hearthContainers(dockerd.daemon.docker, 'crashed')).toHaveLength(1);
    // A fresh backend (a restarted Hearth) cleans up before creating its first container.
    const restarted = new DockerBackend(sandboxTestConfig(), { workspace: workspace.path, docker: dockerd.daemon.docker });
    await runIn(restarted, workspace.path, 'true', { sessionId: 'restarted' });
    expect(await hearthContainers(dockerd.daemon.docker, 'crashed')).toHaveLength(0);
    expect(await hearthContainers(dockerd.daemon.docker, 's1')).toHaveLength(1);
    await restarted.dispose();
  });

  it('says how to fix an unreachable daemon and a missing image', async () => {
    const nowhere = new DockerBackend(sandboxTestConfig(), {
      workspace: workspace.path,
      docker: new Dockerode({ socketPath: join(workspace.path, 'no-docker.sock') }),
    });
    await expect(runIn(nowhere, workspace.path, 'true')).rejects.toSatisfy(
      (err: unknown) => isHearthError(err, 'backend_unavailable') && /DOCKER_HOST/.test((err as Error).message),
    );
    const noImage = new DockerBackend(sandboxTestConfig({ image: 'hearth/not-built' }), { workspace: workspace.path, docker: dockerd.daemon.docker });
    await expect(runIn(noImage, workspace.path, 'true')).rejects.toSatisfy(
      (err: unknown) => isHearthError(err, 'backend_unavailable') && /docker pull hearth\/not-built/.test((err as Error).message),
    );
  });
});
