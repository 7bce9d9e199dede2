import { statSync } from 'node:fs';
import { z } from 'zod';
import type { ExecutionBackend } from '../exec/backend.js';
import { isDestructive } from '../safety/approvals/destructive.js';
import { refusalReason } from '../safety/approvals/refusal.js';
import { defineTool, type ToolContext } from './define.js';
import { resolveToolPath } from './tool-paths.js';

const DEFAULT_TIMEOUT_S = 180;
const MAX_TIMEOUT_S = 3600;

const Input = z.object({
  command: z.string().min(1).describe('Shell command, run with bash -c. The working directory carries over between calls.'),
  timeout: z.number().min(1).max(MAX_TIMEOUT_S).optional().describe(`Seconds before the command is killed (default ${DEFAULT_TIMEOUT_S}).`),
  workdir: z.string().optional().describe('Run in this directory for this one command (default: where the last command finished).'),
});

export interface TerminalToolOptions {
  backend: ExecutionBackend;
  /** Most characters of output returned (head and tail kept). */
  outputLimit?: number;
  defaultTimeoutSeconds?: number;
}

interface TerminalState {
  cwd: string;
}

export function createTerminalTool(options: TerminalToolOptions) {
  const outputLimit = options.outputLimit ?? 50_000;
  return defineTool({
    name: 'terminal',
    description: 'Run a shell command (bash) and get its combined output and exit code. Dangerous commands need the user\'s approval.',
    input: Input,
    parallelSafe: false,
    async run(input, ctx) {
      const state = sessionState(ctx);
      const notes: string[] = [];
      // Only directories of this machine can be checked here; a container or remote host checks its own.
      const checkable = options.backend.localPaths === true;
      if (checkable && !isDirectory(state.cwd)) {
        notes.push(`[The previous directory ${state.cwd} no longer exists; starting in the workspace.]`);
        state.cwd = ctx.workspace;
      }
      const oneOffDir = input.workdir === undefined ? null : resolveToolPath(state.cwd, input.workdir);
      if (checkable && oneOffDir !== null && !isDirectory(oneOffDir)) return { isError: true, content: `workdir does not exist or is not a directory: ${oneOffDir}` };
      const cwd = oneOffDir ?? state.cwd;
      // The policy judges relative paths from where the command runs: `rm -rf build` in the workspace is routine.
      // Over SSH the policy knows no workspace, so a remote cwd exempts nothing.
      const outcome = await ctx.approvals.check(ctx.sessionId, input.command, ctx.signal, {
        cwd,
        ...(ctx.origin === undefined ? {} : { origin: ctx.origin }),
      });
      if (!outcome.approved) return { isError: true, content: `Command not run. It ${refusalReason(outcome)}. Try a safer way, or ask the user.` };
      if (options.backend.sharesWorkspace === true && isDestructive(input.command)) await ctx.checkpoint?.({ reason: `before ${oneLine(input.command)}`, cwd });

      const timeoutSeconds = input.timeout ?? options.defaultTimeoutSeconds ?? DEFAULT_TIMEOUT_S;
      const result = await options.backend.run(input.command, {
        cwd,
        timeoutMs: timeoutSeconds * 1000,
        signal: ctx.signal,
        outputLimit,
        sessionId: ctx.sessionId,
        onOutput: (chunk) => ctx.progress(chunk),
      });
      // A one-off workdir does not move the session's directory; a plain `cd` does.
      if (oneOffDir === null && result.cwd !== state.cwd) {
        state.cwd = result.cwd;
        notes.push(`[cwd is now ${result.cwd}]`);
      }
      if (result.timedOut) notes.push(`[Timed out after ${timeoutSeconds}s; the command and its child processes were killed.]`);
      if (result.truncated) notes.push(`[Output was longer than ${outputLimit} characters; the middle was cut. Redirect to a file and read parts of it if you need all of it.]`);
      const output = result.output.length > 0 ? result.output.replace(/\n$/, '') : '(no output)';
      return { content: [output, `[exit code ${result.exitCode}]`, ...notes].join('\n'), isError: result.timedOut };
    },
  });
}

function oneLine(command: string): string {
  const line = command.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

function sessionState(ctx: ToolContext): TerminalState {
  let state = ctx.state.get('terminal') as TerminalState | undefined;
  if (state === undefined) {
    state = { cwd: ctx.workspace };
    ctx.state.set('terminal', state);
  }
  return state;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch (err) {
    // Missing or unreadable: either way commands cannot start there, which is all we need to know.
    if (['ENOENT', 'ENOTDIR', 'EACCES'].includes((err as NodeJS.ErrnoException).code ?? '')) return false;
    throw err;
  }
}
