import { randomUUID } from 'node:crypto';
import { HearthError } from '../errors.js';
import { shellQuote } from './local.js';

/**
 * The text sent to Daytona's `POST /process/execute`. The sandbox daemon (0.218-era) starts its shell with
 * `Setpgid` and writes the request's command to that shell's STDIN, so:
 *   - everything is one line that `exec`s `/bin/sh -c '<script>'`: the shell reads no further, the user's
 *     command can never read the rest of our script as its input, and `$$` stays the process-group leader;
 *   - the script writes `$$` to a pid file, so a second execute can kill the group (the API cannot cancel one);
 *   - an EXIT trap prints the marker, exit status and final `$PWD` (the MarkedStdout format), so `cd`
 *     persists to the next command.
 */
export interface DaytonaScriptParts {
  command: string;
  /** Directory to start in; when the sandbox lacks it, the sandbox user's home with a note. */
  cwd: string;
  env: Record<string, string>;
  /** Text for the command's stdin; without it stdin is /dev/null. */
  stdin?: string;
  marker: string;
  pidFile: string;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function newRunIds(): { marker: string; pidFile: string; stdinFile: string } {
  const id = randomUUID();
  return { marker: `HEARTH-END-${id}:`, pidFile: `/tmp/hearth-${id}.pid`, stdinFile: `/tmp/hearth-${id}.in` };
}

export function daytonaCommand(parts: DaytonaScriptParts, stdinFile: string): string {
  // The daemon's own environment parameter is not honoured by every daemon version; exports always are.
  const exports = Object.entries({ PAGER: 'cat', GIT_PAGER: 'cat', ...parts.env }).map(([name, value]) => {
    if (!ENV_NAME.test(name)) {
      throw new HearthError('tool_input_invalid', `invalid environment variable name ${JSON.stringify(name)}: names must match [A-Za-z_][A-Za-z0-9_]*`);
    }
    return `export ${name}=${shellQuote(value)}`;
  });
  const trap = `s=$?; rm -f ${shellQuote(parts.pidFile)}; printf '%s%d:%s\\n' ${shellQuote(parts.marker)} "$s" "$PWD"`;
  // Opened, then unlinked: the command reads it as stdin and nothing is left behind.
  const stdin =
    parts.stdin === undefined
      ? []
      : [`printf '%s' ${shellQuote(parts.stdin)} > ${shellQuote(stdinFile)}`, `exec < ${shellQuote(stdinFile)}`, `rm -f ${shellQuote(stdinFile)}`];
  const script = [
    `echo $$ > ${shellQuote(parts.pidFile)}`,
    `trap ${shellQuote(trap)} EXIT`,
    ...exports,
    ...stdin,
    `cd -- ${shellQuote(parts.cwd)} 2>/dev/null || { printf '[%s does not exist in the Daytona sandbox; started in %s]\\n' ${shellQuote(parts.cwd)} "$HOME" >&2; cd; }`,
    parts.command,
  ].join('\n');
  return `exec /bin/sh -c ${shellQuote(script)} </dev/null`;
}
