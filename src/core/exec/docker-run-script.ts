import { StringDecoder } from 'node:string_decoder';
import { shellQuote } from './local.js';

/**
 * The shell text each docker exec runs, and the reader that takes it apart again. Everything runs
 * through `/bin/sh` (any image has one, bash is optional), so only POSIX sh features are used.
 */
export interface RunScriptParts {
  command: string;
  /** Directory to start in (a host path; the workspace is mounted at the same path). */
  cwd: string;
  /** Where to start instead when `cwd` does not exist inside the container. */
  fallbackCwd: string;
  /** Unique per run; printed with the exit status and final directory when the shell exits. */
  marker: string;
  /** The shell writes its pid here: it leads its own process group, which is what a stop kills. */
  pidFile: string;
}

export function wrapCommand(parts: RunScriptParts): string {
  const cwd = shellQuote(parts.cwd);
  const fallback = shellQuote(parts.fallbackCwd);
  // The EXIT trap reports status and `$PWD` on stdout (no fork, no extra exec round trip); `$?` is read
  // first because `rm` would overwrite it. The user's command follows in the same shell so `cd` sticks.
  const trap = `s=$?; rm -f ${shellQuote(parts.pidFile)}; printf '%s%d:%s\\n' ${shellQuote(parts.marker)} "$s" "$PWD"`;
  return [
    `echo $$ > ${shellQuote(parts.pidFile)}`,
    `trap ${shellQuote(trap)} EXIT`,
    `cd -- ${cwd} 2>/dev/null || { printf '[%s does not exist in the container; running in %s]\\n' ${cwd} ${fallback} >&2; cd -- ${fallback}; }`,
    parts.command,
  ].join('\n');
}

/**
 * Runs in a second exec to stop a command: TERM to its process group, KILL after the grace period. Used by
 * every sandbox backend (docker, modal, daytona), so it is written for any /bin/sh an image may have: dash
 * (Debian's sh) rejects `kill -- -PID`, so the group is named as a bare negative pid. Exits 3 when there is
 * no pid file (the shell never started or already cleaned up).
 */
export function killScript(pidFile: string, graceMs: number): string {
  const rounds = Math.max(1, Math.ceil(graceMs / 100));
  return [
    `p=$(cat ${shellQuote(pidFile)} 2>/dev/null) || exit 3`,
    // Never a group below 2: `kill -TERM -1` would signal every process in the sandbox.
    `case $p in ''|*[!0-9]*|0|1) exit 3;; esac`,
    `kill -TERM "-$p" 2>/dev/null || exit 0`,
    `i=0; while [ "$i" -lt ${rounds} ] && kill -0 "-$p" 2>/dev/null; do sleep 0.1; i=$((i+1)); done`,
    `kill -KILL "-$p" 2>/dev/null; exit 0`,
  ].join('\n');
}

export interface ShellStatus {
  exitCode: number;
  cwd: string;
}

/**
 * Reads the command's stdout, passing text on as it arrives but holding back anything that could be
 * the start of the marker, so the marker line never reaches the user even when it is split across chunks.
 */
export class MarkedStdout {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  private afterMarker: string | null = null;
  private parsed: ShellStatus | null = null;

  constructor(
    private readonly marker: string,
    private readonly emit: (text: string) => void,
  ) {}

  /** The shell's exit status and final directory, once its EXIT trap line has arrived. */
  get status(): ShellStatus | null {
    return this.parsed;
  }

  push(chunk: Buffer): void {
    const text = this.decoder.write(chunk);
    if (this.afterMarker !== null) {
      this.takeAfterMarker(text);
      return;
    }
    this.pending += text;
    const at = this.pending.indexOf(this.marker);
    if (at >= 0) {
      this.emitText(this.pending.slice(0, at));
      const rest = this.pending.slice(at + this.marker.length);
      this.pending = '';
      this.afterMarker = '';
      this.takeAfterMarker(rest);
      return;
    }
    const keep = longestSuffixThatStarts(this.pending, this.marker);
    this.emitText(this.pending.slice(0, this.pending.length - keep));
    this.pending = this.pending.slice(this.pending.length - keep);
  }

  /** The stream ended: whatever was held back was not a marker after all. */
  end(): void {
    const text = this.pending + this.decoder.end();
    this.pending = '';
    if (this.afterMarker !== null) this.takeAfterMarker(text);
    else this.emitText(text);
  }

  private takeAfterMarker(text: string): void {
    if (this.parsed !== null) {
      // Output after the shell exited comes from a background job that still holds the pipe.
      this.emitText(text);
      return;
    }
    this.afterMarker = (this.afterMarker ?? '') + text;
    const newline = this.afterMarker.indexOf('\n');
    if (newline < 0) return;
    const line = this.afterMarker.slice(0, newline);
    const colon = line.indexOf(':');
    const exitCode = Number.parseInt(line.slice(0, colon), 10);
    this.parsed = { exitCode: Number.isNaN(exitCode) ? 1 : exitCode, cwd: line.slice(colon + 1) };
    this.emitText(this.afterMarker.slice(newline + 1));
  }

  private emitText(text: string): void {
    if (text.length > 0) this.emit(text);
  }
}

/** Length of the longest suffix of `text` that is a proper prefix of `marker`. */
function longestSuffixThatStarts(text: string, marker: string): number {
  for (let length = Math.min(text.length, marker.length - 1); length > 0; length--) {
    if (marker.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}
