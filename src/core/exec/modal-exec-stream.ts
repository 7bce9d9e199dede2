import { ExecRun, type ExecOutcome, type ExecRunParams } from './exec-run.js';

export interface ModalCollectParams extends ExecRunParams {
  stdout: ReadableStream<Uint8Array>;
  stderr: ReadableStream<Uint8Array>;
}

/** Reads one Modal exec's stdout and stderr (each its own streaming RPC) until the command is over (see ExecRun). */
export function collectModalExec(params: ModalCollectParams): Promise<ExecOutcome> {
  const readers = [params.stdout.getReader(), params.stderr.getReader()] as const;
  return new Promise<ExecOutcome>((resolve) => {
    let finished = false;
    const run = new ExecRun(
      params,
      () => {
        finished = true;
        // Cancelling ends the SDK's streaming RPC; a reader that already ended has nothing to cancel.
        for (const reader of readers) reader.cancel().catch((err: unknown) => void err);
      },
      resolve,
    );
    let open = readers.length;
    const pump = async (reader: ReadableStreamDefaultReader<Uint8Array>, take: (chunk: Buffer) => void): Promise<void> => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done || finished) break;
          take(Buffer.from(value));
        }
      } catch (err) {
        // Once we stop the command or stop reading, a broken stream is our own doing.
        if (!finished && !run.isStopping) run.fail(err);
      }
      open -= 1;
      if (open === 0) run.finish();
    };
    void pump(readers[0], (chunk) => run.stdout(chunk));
    void pump(readers[1], (chunk) => run.stderr(chunk));
  });
}
