/**
 * Round trip of `echo hi` through DockerBackend vs a raw dockerode exec, same container, same run.
 *
 *   node --import tsx bench/docker-exec.ts
 *
 * Starts an isolated dockerd (test/fixtures/dockerd.ts) and imports the busybox test image. The raw
 * baseline is the minimum plain dockerode needs for output plus exit code: exec create, start
 * (hijacked), demux to the end, exec inspect. The backend adds its wrapper script (pid file, EXIT
 * trap with status and cwd) and output handling, but reads the exit status from the trap line
 * instead of an inspect call. Runs alternate so drift in the daemon hits both equally.
 * Prints p50/p95 of each and the ratio (target ≤ 1.2). Env: BENCH_N (default 50).
 */
import type { Duplex } from 'node:stream';
import type Dockerode from 'dockerode';
import { DockerBackend } from '../src/core/exec/docker.js';
import { DockerStreamDemuxer } from '../src/core/exec/docker-demux.js';
import { hearthContainers, makeWorkspace, runIn, sandboxTestConfig } from '../test/fixtures/docker-backend-harness.js';
import { buildSandboxTestImage, findDockerd, startTestDockerd } from '../test/fixtures/dockerd.js';

const N = Number(process.env.BENCH_N ?? 50);
const WARMUP = 5;

async function rawExec(container: Dockerode.Container): Promise<string> {
  const exec = await container.exec({ Cmd: ['/bin/sh', '-c', 'echo hi'], AttachStdout: true, AttachStderr: true });
  const stream = (await exec.start({ hijack: true, stdin: false })) as Duplex;
  let output = '';
  const demux = new DockerStreamDemuxer((b) => (output += b.toString('utf8')), (b) => (output += b.toString('utf8')));
  await new Promise<void>((resolve, reject) => {
    stream.on('data', (d: Buffer) => demux.push(d));
    stream.once('end', resolve);
    stream.once('error', reject);
  });
  const info = await exec.inspect();
  if (info.ExitCode !== 0 || output !== 'hi\n') throw new Error(`raw exec gave ${info.ExitCode} ${JSON.stringify(output)}`);
  return output;
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function main(): Promise<void> {
  const dockerd = findDockerd();
  if (dockerd === null) throw new Error('dockerd is not installed (apt-get install docker.io)');
  const daemon = await startTestDockerd(dockerd);
  const workspace = makeWorkspace();
  const backend = new DockerBackend(sandboxTestConfig(), { workspace: workspace.path, docker: daemon.docker });
  try {
    await buildSandboxTestImage(daemon.docker);
    const viaBackend = async (): Promise<void> => {
      const result = await runIn(backend, workspace.path, 'echo hi', { sessionId: 'bench' });
      if (result.exitCode !== 0 || result.output !== 'hi\n') throw new Error(`backend gave ${result.exitCode} ${JSON.stringify(result.output)}`);
    };
    await viaBackend(); // creates the session's container; the raw runs use the same one
    const [id] = await hearthContainers(daemon.docker, 'bench');
    const container = daemon.docker.getContainer(id as string);
    for (let i = 0; i < WARMUP; i++) {
      await viaBackend();
      await rawExec(container);
    }
    const raw: number[] = [];
    const ours: number[] = [];
    for (let i = 0; i < N; i++) {
      raw.push(await timed(() => rawExec(container)));
      ours.push(await timed(viaBackend));
    }
    raw.sort((a, b) => a - b);
    ours.sort((a, b) => a - b);
    const row = (name: string, xs: number[]) =>
      `${name.padEnd(22)} p50 ${percentile(xs, 50).toFixed(1).padStart(7)} ms   p95 ${percentile(xs, 95).toFixed(1).padStart(7)} ms`;
    console.log(`echo hi round trip, N=${N} each (alternating)`);
    console.log(row('raw dockerode exec', raw));
    console.log(row('DockerBackend.run', ours));
    console.log(`ratio backend/raw      p50 ${(percentile(ours, 50) / percentile(raw, 50)).toFixed(3)}        p95 ${(percentile(ours, 95) / percentile(raw, 95)).toFixed(3)}   (target ≤ 1.2)`);
  } finally {
    await backend.dispose();
    workspace.remove();
    await daemon.stop();
  }
}

await main();
