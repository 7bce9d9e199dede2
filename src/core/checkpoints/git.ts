import { execFile, spawn } from 'node:child_process';
import { HearthError, errorMessage } from '../errors.js';

/** Where one project's shadow repository lives and which folder it snapshots. */
export interface ShadowLocation {
  /** The shadow store's folder under `<HEARTH_HOME>/checkpoints/`; also HOME for git, so no user config is read. */
  dir: string;
  /** GIT_DIR: `<dir>/git`. Never the project's own `.git`. */
  gitDir: string;
  /** GIT_WORK_TREE: the project root. */
  root: string;
}

const AUTHOR = 'Hearth checkpoints';
const AUTHOR_EMAIL = 'checkpoints@hearth.local';

/**
 * A clean environment built from nothing, not from process.env: variables such as GIT_INDEX_FILE or GIT_DIR
 * set by a hook Hearth runs under would otherwise point git at the project's own repository. No system or
 * user config (HOME is the shadow folder), literal pathspecs (file names are never globs), author fixed.
 */
export function gitEnvironment(location: ShadowLocation, epochSeconds?: number): NodeJS.ProcessEnv {
  const date = epochSeconds === undefined ? {} : { GIT_AUTHOR_DATE: `@${epochSeconds} +0000`, GIT_COMMITTER_DATE: `@${epochSeconds} +0000` };
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: location.dir,
    XDG_CONFIG_HOME: location.dir,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_DIR: location.gitDir,
    GIT_WORK_TREE: location.root,
    GIT_LITERAL_PATHSPECS: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C',
    GIT_AUTHOR_NAME: AUTHOR,
    GIT_AUTHOR_EMAIL: AUTHOR_EMAIL,
    GIT_COMMITTER_NAME: AUTHOR,
    GIT_COMMITTER_EMAIL: AUTHOR_EMAIL,
    ...date,
  };
}

/** Per-invocation settings that must hold even if the shadow config were edited: no hooks, no pager, no autocrlf. */
const SAFE_FLAGS = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.autocrlf=false', '-c', 'core.fsmonitor=false', '--no-pager'];

export interface GitOptions {
  input?: string;
  /** Commit dates for commit-tree (seconds since the epoch); the store's clock, so tests can age checkpoints. */
  epochSeconds?: number;
  /** Exit codes that are answers, not failures (`diff --quiet` exits 1 for "different"). */
  okCodes?: number[];
}

export interface GitResult {
  stdout: string;
  code: number;
}

/** Runs the real git binary (argument array, no shell) against the shadow repository. */
export function runGit(location: ShadowLocation, args: string[], options: GitOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      [...SAFE_FLAGS, ...args],
      { cwd: location.root, env: gitEnvironment(location, options.epochSeconds), maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (err === null) return resolve({ stdout, code: 0 });
        const code = typeof err.code === 'number' ? err.code : null;
        if (code !== null && options.okCodes?.includes(code)) return resolve({ stdout, code });
        reject(gitFailure(args, err, stderr));
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/**
 * Streams NUL-separated records from a git command and stops it early when `onRecord` returns false,
 * so counting a huge project never holds its whole file list in memory.
 */
export function streamGitRecords(location: ShadowLocation, args: string[], onRecord: (record: string) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...SAFE_FLAGS, ...args], { cwd: location.root, env: gitEnvironment(location), stdio: ['ignore', 'pipe', 'pipe'] });
    let pending = '';
    let stderr = '';
    let stopped = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stopped) return;
      const parts = (pending + chunk).split('\0');
      pending = parts.pop() ?? '';
      for (const part of parts) {
        if (!onRecord(part)) {
          stopped = true;
          child.kill('SIGKILL');
          return;
        }
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (err) => reject(gitFailure(args, err, stderr)));
    child.on('close', (code) => {
      if (stopped || code === 0) return resolve();
      reject(gitFailure(args, Object.assign(new Error(`exit code ${code}`), { code }), stderr));
    });
  });
}

function gitFailure(args: string[], err: Error & { code?: unknown }, stderr: string): HearthError {
  if (err.code === 'ENOENT') {
    return new HearthError('checkpoint_failed', 'Checkpoints need git, and no `git` program was found on PATH: install git, or set checkpoints.enabled: false.', {
      cause: err,
    });
  }
  const detail = stderr.trim().split('\n').slice(-3).join(' ') || errorMessage(err);
  return new HearthError('checkpoint_failed', `The checkpoint store's git ${args[0] ?? ''} failed: ${detail}`, { cause: err });
}
