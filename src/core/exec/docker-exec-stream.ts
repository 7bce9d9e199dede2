import type { Duplex } from 'node:stream';
import type Dockerode from 'dockerode';
import { HearthError } from '../errors.js';
import { DockerStreamDemuxer } from './docker-demux.js';
import { ExecRun, type ExecOutcome, type ExecRunParams } from './exec-run.js';

export interface CollectParams extends ExecRunParams {
  stream: Duplex;
  stdin: string | undefined;
}

/** Reads one Docker exec's multiplexed stream until the command is over (see ExecRun), feeding it stdin first. */
export function collectExec(params: CollectParams): Promise<ExecOutcome> {
  const { stream } = params;
  return new Promise<ExecOutcome>((resolve) => {
    const run = new ExecRun(
      params,
      () => {
        stream.removeListener('data', onData);
        stream.destroy();
      },
      resolve,
    );
    const demux = new DockerStreamDemuxer(
      (chunk) => run.stdout(chunk),
      (chunk) => run.stderr(chunk),
    );
    const onData = (data: Buffer): void => demux.push(data);
    stream.on('data', onData);
    stream.once('end', () => run.finish());
    stream.once('close', () => run.finish());
    stream.once('error', (err: Error) => {
      run.fail(err);
      run.finish();
    });
    if (params.stdin !== undefined) stream.end(params.stdin);
  });
}

/** Waits until a stream has closed, discarding what it carries (the kill exec's output is of no interest). */
export function waitForStreamEnd(stream: Duplex): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => resolve();
    stream.once('end', done);
    stream.once('close', done);
    stream.once('error', done);
    stream.resume();
  });
}

/**
 * The exit status from Docker when the shell's own report is missing. The exec may still be winding
 * down for a moment after its stream closed, so it is polled briefly.
 */
export async function execExitCode(exec: Dockerode.Exec, stopped: boolean): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    let info: Dockerode.ExecInspectInfo;
    try {
      info = await exec.inspect();
    } catch (err) {
      // The container was removed to stop the command: it died of SIGKILL, as bash would report it.
      if (stopped) return 128 + 9;
      throw err;
    }
    if (!info.Running && info.ExitCode !== null) return info.ExitCode;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  if (stopped) return 128 + 9;
  throw new HearthError('backend_failed', 'The command\'s output closed but Docker still reports it running.');
}
