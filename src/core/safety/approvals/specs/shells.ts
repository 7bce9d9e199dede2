import { REASONS } from '../reasons.js';
import { flag, type Scan } from '../scan.js';
import type { Stdin } from '../invocation.js';
import type { Command, CommandSpec } from './spec.js';

/**
 * Shells, `eval` and `source`: where text becomes commands. `bash -c CODE` and `eval` parse their text as
 * shell; a shell with no script reads its code from stdin (a heredoc, a here-string, a pipe). Code that was
 * downloaded is refused to run unasked; code that was decoded (base64, hex, reversal) is obfuscated.
 */
export const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'ash', 'csh', 'tcsh', 'yash', 'rbash']);

/** What arrives on stdin when it is code: run it, or flag what cannot be read. */
export function runStdinCode(stdin: Stdin | null, scan: Scan, read: (code: string) => void): void {
  if (stdin === null) return;
  if (stdin.kind === 'text') {
    read(stdin.text);
    return;
  }
  if (stdin.downloaded) flag(scan, REASONS.pipeToShell);
  if (stdin.decoded) flag(scan, REASONS.obfuscatedCode);
  if (stdin.text !== null) read(stdin.text);
}

/** A script operand written by a download earlier on the line (`curl -o x.sh …; sh x.sh`). */
export function runsDownloadedFile(file: string | undefined, scan: Scan): boolean {
  return file !== undefined && scan.downloads.has(file.slice(file.lastIndexOf('/') + 1));
}

function shell(command: Command, scan: Scan): void {
  const { invocation } = command;
  const codeAt = command.args.findIndex((a) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a) && !a.startsWith('--'));
  if (codeAt !== -1) {
    const code = command.args[codeAt + 1];
    if (invocation.downloaded) flag(scan, REASONS.pipeToShell);
    if (invocation.decoded) flag(scan, REASONS.obfuscatedCode);
    if (code !== undefined) scan.runShell(code);
    return;
  }
  const script = command.operands[0];
  if (invocation.downloaded || runsDownloadedFile(script, scan)) flag(scan, REASONS.pipeToShell);
  if (script === undefined || script === '-' || command.options.includes('-s')) runStdinCode(invocation.stdin, scan, (code) => scan.runShell(code));
}

function evaluate(command: Command, scan: Scan): void {
  if (command.invocation.downloaded) flag(scan, REASONS.pipeToShell);
  if (command.invocation.decoded) flag(scan, REASONS.obfuscatedCode);
  scan.runShell(command.args.join(' '));
}

function source(command: Command, scan: Scan): void {
  if (command.invocation.downloaded || runsDownloadedFile(command.operands[0], scan)) flag(scan, REASONS.pipeToShell);
  if (command.operands[0] === '/dev/stdin' || command.operands[0] === '-') runStdinCode(command.invocation.stdin, scan, (code) => scan.runShell(code));
}

export const SHELL_SPECS: readonly CommandSpec[] = [
  { names: [...SHELLS], values: ['-o', '+o', '-O', '+O', '--rcfile', '--init-file'], check: shell },
  { names: ['eval'], check: evaluate },
  { names: ['source', '.'], check: source },
];
