import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { HearthError, abortError } from '../errors.js';
import type { ExecOptions, ExecResult, ExecutionBackend } from './backend.js';
import { HeadTailBuffer } from './output-cap.js';
import { runProcessGroup } from './process-group.js';

export interface LocalBackendOptions {
  /** Environment every command starts from (default: this process's). */
  baseEnv?: NodeJS.ProcessEnv;
  /** Time between SIGTERM and SIGKILL when a command is stopped (default 1 s, as Hermes does). */
  killGraceMs?: number;
}

/**
 * Runs each command as its own `bash -c` on this machine. The shell is spawned `detached`, so it
 * leads a new process group: a timeout or an interrupt signals the whole group, reaching grandchildren
 * (`sleep` inside a pipeline, a compiler's workers) that a plain `child.kill()` would orphan.
 */
export class LocalBackend implements ExecutionBackend {
  readonly name = 'local';
  readonly localPaths = true;
  readonly sharesWorkspace = true;
  private readonly baseEnv: NodeJS.ProcessEnv;
  private readonly killGraceMs: number;
  private tempDir: string | null = null;

  constructor(options: LocalBackendOptions = {}) {
    this.baseEnv = options.baseEnv ?? process.env;
    this.killGraceMs = options.killGraceMs ?? 1000;
  }

  async run(command: string, options: ExecOptions): Promise<ExecResult> {
    if (options.signal.aborted) throw abortError(options.signal);
    assertDirectory(options.cwd);
    // The final directory is written by an EXIT trap to a file, so it survives `exit 3` and never
    // mixes with the command's own output.
    const cwdFile = join(this.ensureTempDir(), `${randomUUID()}.cwd`);
    const script = `trap ${shellQuote(`builtin pwd > ${shellQuote(cwdFile)}`)} EXIT\n${command}`;
    try {
      return await this.spawnAndWait(script, cwdFile, options);
    } finally {
      rmSync(cwdFile, { force: true });
    }
  }

  async dispose(): Promise<void> {
    if (this.tempDir !== null) rmSync(this.tempDir, { recursive: true, force: true });
    this.tempDir = null;
  }

  private async spawnAndWait(script: string, cwdFile: string, options: ExecOptions): Promise<ExecResult> {
    const output = new HeadTailBuffer(options.outputLimit);
    const decoders = [new StringDecoder('utf8'), new StringDecoder('utf8')] as const;
    const onData = (text: string): void => {
      if (text.length === 0) return;
      output.push(text);
      options.onOutput?.(text);
    };
    const exit = await runProcessGroup(
      {
        file: 'bash',
        args: ['-c', script],
        cwd: options.cwd,
        // Pagers would wait forever for a keypress nobody can give.
        env: { ...this.baseEnv, PAGER: 'cat', GIT_PAGER: 'cat', ...options.env },
        killGraceMs: this.killGraceMs,
        onStdout: (chunk) => onData(decoders[0].write(chunk)),
        onStderr: (chunk) => onData(decoders[1].write(chunk)),
        spawnError: (err) => new Error(`could not start bash: ${err.message}`, { cause: err }),
      },
      options,
    );
    for (const decoder of decoders) onData(decoder.end());
    return { exitCode: exit.exitCode, output: output.toString(), timedOut: exit.timedOut, truncated: output.truncated, cwd: readFinalCwd(cwdFile) ?? options.cwd };
  }

  private ensureTempDir(): string {
    this.tempDir ??= mkdtempSync(join(tmpdir(), 'hearth-exec-'));
    return this.tempDir;
  }
}

function assertDirectory(cwd: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(cwd).isDirectory();
  } catch (err) {
    throw new HearthError('tool_input_invalid', `working directory does not exist: ${cwd}`, { cause: err });
  }
  if (!isDirectory) throw new HearthError('tool_input_invalid', `working directory is not a directory: ${cwd}`);
}

function readFinalCwd(file: string): string | null {
  try {
    const dir = readFileSync(file, 'utf8').trim();
    return dir.length > 0 ? dir : null;
  } catch (err) {
    // No file: the shell was killed before its EXIT trap ran (timeout, SIGKILL); the caller keeps the old cwd.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Single-quote for bash: the only character that needs care inside '...' is ' itself. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
