import { randomUUID } from 'node:crypto';
import { HearthError } from '../errors.js';
import { shellQuote } from './local.js';

/**
 * The shell text each SSH command runs as. sshd hands an exec request to the user's login shell, so
 * everything here is plain POSIX sh; the user's command itself runs under bash when the host has it.
 *
 * An outer sh reports two control lines on stdout, tagged with a per-command random marker that the
 * client strips (see ControlLineParser): first its process group id (sshd gives every session its own
 * session and group, so a second exec can `kill -TERM -PGID` grandchildren that closing the channel
 * would leave running), and at the end the exit status and final directory. The directory comes from
 * an EXIT trap in the inner shell, written to a temp file, so it survives `exit 3` and never mixes
 * with the command's own output.
 */
export interface RemoteScriptOptions {
  /** Directory to start in (the previous command's final directory). */
  cwd: string;
  /** Where to start when `cwd` does not exist there: a path, `~/…`, or null for the login directory. */
  fallbackCwd: string | null;
  env: Record<string, string>;
  /** Host name for the note printed when `cwd` is missing. */
  hostLabel: string;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function newMarker(): string {
  return `HEARTH-CTL-${randomUUID()}`;
}

export function buildRemoteCommand(command: string, marker: string, options: RemoteScriptOptions): string {
  // sshd's AcceptEnv usually drops client-sent variables, so they are exported by the script itself.
  const exports = Object.entries({ PAGER: 'cat', GIT_PAGER: 'cat', ...options.env }).map(([name, value]) => {
    if (!ENV_NAME.test(name)) {
      throw new HearthError('tool_input_invalid', `invalid environment variable name ${JSON.stringify(name)}: names must match [A-Za-z_][A-Za-z0-9_]*`);
    }
    return `export ${name}=${shellQuote(value)}`;
  });
  const fallback = options.fallbackCwd === null ? '"$HOME"' : remotePath(options.fallbackCwd);
  const missingNote = `[hearth: ${options.cwd} does not exist on ${options.hostLabel}; started in `;
  const inner = [
    '__hearth_cwd_file=$1; shift',
    `trap 'command pwd > "$__hearth_cwd_file"' EXIT`,
    ...exports,
    `if ! cd -- ${shellQuote(options.cwd)} 2>/dev/null; then cd -- ${fallback} 2>/dev/null; printf '%s%s]\\n' ${shellQuote(missingNote)} "$(command pwd)"; fi`,
    command,
  ].join('\n');
  const outer = [
    `pg=$(ps -o pgid= -p $$ 2>/dev/null | tr -d ' ')`,
    `case $pg in ''|*[!0-9]*) pg=$$;; esac`,
    `printf '%s pgid %s\\n' ${marker} "$pg"`,
    `f=$(mktemp 2>/dev/null) || f="\${TMPDIR:-/tmp}/hearth-cwd-$$"`,
    // --norc: bash started under sshd would source ~/.bashrc again, which the login shell already did.
    `if command -v bash >/dev/null 2>&1; then set -- bash --norc; else set -- sh; fi`,
    `"$@" -c ${shellQuote(inner)} hearth "$f"`,
    'status=$?',
    `dir=$(cat "$f" 2>/dev/null); rm -f "$f"`,
    `printf '%s end %s %s\\n' ${marker} "$status" "$dir"`,
    'exit "$status"',
  ].join('\n');
  return `exec /bin/sh -c ${shellQuote(outer)}`;
}

/** A command for a second channel that stops a process group: TERM, up to `graceMs` to exit, then KILL. */
export function killGroupCommand(pgid: number, graceMs: number): string {
  // Never a group id below 2: `kill -TERM -1` would signal every process the user owns.
  if (!Number.isInteger(pgid) || pgid < 2) throw new Error(`refusing to signal process group ${pgid}`);
  const polls = Math.max(1, Math.ceil(graceMs / 100));
  return [
    `kill -TERM -${pgid} 2>/dev/null || exit 0`,
    `i=0; while [ $i -lt ${polls} ] && kill -0 -${pgid} 2>/dev/null; do sleep 0.1; i=$((i+1)); done`,
    `kill -KILL -${pgid} 2>/dev/null; exit 0`,
  ].join('\n');
}

/** `~/x` must stay outside quotes to expand; the rest is quoted. */
function remotePath(path: string): string {
  if (path === '~') return '"$HOME"';
  if (path.startsWith('~/')) return `"$HOME"/${shellQuote(path.slice(2))}`;
  return shellQuote(path);
}

/**
 * Removes the control lines from the stdout stream as it arrives, holding back only a tail that
 * could be the start of a marker split across chunks, so live output stays live.
 */
export class ControlLineParser {
  pgid: number | null = null;
  end: { exitCode: number; cwd: string } | null = null;
  private pending = '';

  constructor(private readonly marker: string) {}

  /** Returns the part of the chunk that is the command's own output. */
  push(chunk: string): string {
    this.pending += chunk;
    let visible = '';
    for (;;) {
      const at = this.pending.indexOf(this.marker);
      if (at === -1) {
        const keep = this.partialMarkerLength();
        visible += this.pending.slice(0, this.pending.length - keep);
        this.pending = this.pending.slice(this.pending.length - keep);
        return visible;
      }
      const newline = this.pending.indexOf('\n', at);
      visible += this.pending.slice(0, at);
      if (newline === -1) {
        this.pending = this.pending.slice(at);
        return visible;
      }
      this.readControl(this.pending.slice(at + this.marker.length + 1, newline));
      this.pending = this.pending.slice(newline + 1);
    }
  }

  /** At end of stream: whatever was held back was not a marker after all. */
  flush(): string {
    const rest = this.pending;
    this.pending = '';
    return rest;
  }

  private readControl(line: string): void {
    const pgid = /^pgid (\d+)$/.exec(line);
    if (pgid?.[1] !== undefined) {
      this.pgid = Number(pgid[1]);
      return;
    }
    const end = /^end (\d+) ?(.*)$/s.exec(line);
    if (end?.[1] !== undefined) this.end = { exitCode: Number(end[1]), cwd: end[2] ?? '' };
  }

  private partialMarkerLength(): number {
    for (let n = Math.min(this.marker.length - 1, this.pending.length); n > 0; n -= 1) {
      if (this.pending.endsWith(this.marker.slice(0, n))) return n;
    }
    return 0;
  }
}
