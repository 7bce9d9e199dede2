import { REASONS } from '../reasons.js';
import { flag, runRemoteShell, UNKNOWN, type Scan } from '../scan.js';
import type { Stdin } from '../invocation.js';
import type { Command, CommandSpec } from './spec.js';
import { asBash } from './shell-dialects.js';

/**
 * Shells, `eval` and `source`: where text becomes commands. `bash -c CODE` and `eval` parse their text as
 * shell; a shell with no script reads its code from stdin (a heredoc, a here-string, a pipe). Code that was
 * downloaded is refused to run unasked; code that was decoded (base64, hex, reversal) is obfuscated.
 */
const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ksh93', 'mksh', 'oksh', 'loksh', 'pdksh', 'posh', 'fish', 'ash', 'csh', 'tcsh', 'yash', 'rbash', 'xonsh', 'nu', 'elvish']);

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
  const flagAt = command.args.findIndex((a) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a) && !a.startsWith('--'));
  // `bash -c -- 'cmd'`: the code is the first word after the options.
  const codeAt = flagAt !== -1 && command.args[flagAt + 1] === '--' ? flagAt + 1 : flagAt;
  if (codeAt !== -1) {
    const code = command.args[codeAt + 1];
    if (invocation.downloaded) flag(scan, REASONS.pipeToShell);
    if (invocation.decoded) flag(scan, REASONS.obfuscatedCode);
    if (code === undefined) return;
    const outer = scan.vars.get('BASH_EXECUTION_STRING');
    scan.vars.set('BASH_EXECUTION_STRING', code);
    // `sh -c 'rm -rf "$0"' ~`, `sh -c '…$1…' _ x`: the words after the code are $0, $1, ….
    const zero = command.args[codeAt + 2];
    const outerZero = scan.vars.get('0');
    const outerPositional = scan.positional;
    if (zero !== undefined) {
      scan.vars.set('0', zero);
      scan.positional = command.args.slice(codeAt + 3);
    }
    try {
      // `zsh -c '…'`, `fish -c '…'`: their own syntax, read as its bash equivalent.
      runCode(asBash(command.name, code), command, scan);
    } finally {
      if (outer === undefined) scan.vars.delete('BASH_EXECUTION_STRING');
      else scan.vars.set('BASH_EXECUTION_STRING', outer);
      if (zero !== undefined) {
        if (outerZero === undefined) scan.vars.delete('0');
        else scan.vars.set('0', outerZero);
        scan.positional = outerPositional;
      }
    }
    return;
  }
  const script = scriptOperand(command.operands);
  if (invocation.downloaded || runsDownloadedFile(script, scan)) flag(scan, REASONS.pipeToShell);
  if (script !== undefined) runWrittenFile(script, scan);
  if (script === undefined || script === '-' || script === '/dev/stdin' || command.options.includes('-s')) {
    judgePipedCode(invocation.stdin, scan);
    runStdinCode(invocation.stdin, scan, (code) => scan.runShell(asBash(command.name, code)));
  }
}

/**
 * The script a shell runs: its first operand, past `+o name` and `+x`-style options (which do not start with a dash).
 * With none, the shell reads its code from stdin (`bash -eo pipefail <<'EOF'`).
 */
function scriptOperand(operands: readonly string[]): string | undefined {
  for (let i = 0; i < operands.length; i += 1) {
    const word = operands[i] as string;
    if (word === '+o' || word === '+O') i += 1;
    else if (!/^\+[a-zA-Z]+$/.test(word)) return word;
  }
  return undefined;
}

/** Text a shell reads from the network (`telnet … | bash`) is a remote shell; text a filter generated is unknown code. */
const NETWORK_CLIENTS = new Set(['nc', 'ncat', 'netcat', 'telnet', 'socat', 'openssl', 'ssh', 'websocat', 'cryptcat']);
const GENERATORS = new Set(['sed', 'awk', 'gawk', 'perl', 'printf', 'echo', 'tr', 'jq', 'yq', 'gojq', 'jaq', 'xq', 'tomlq', 'dasel', 'xargs', 'python', 'python3', 'node', 'ruby', 'cut', 'paste']);

function judgePipedCode(stdin: Stdin | null, scan: Scan): void {
  if (stdin?.kind !== 'pipe') return;
  if (stdin.upstream.some((u) => NETWORK_CLIENTS.has(u))) flag(scan, REASONS.remoteShell);
  else if (stdin.text === null && !stdin.downloaded && stdin.upstream.some((u) => GENERATORS.has(u))) flag(scan, REASONS.dynamicCommand);
}

/** A file this line wrote (`cat > x.sh <<EOF`, `printf … > b.sh`) is run: its text is the code. */
export function runWrittenFile(path: string, scan: Scan): boolean {
  const text = scan.files.get(path.slice(path.lastIndexOf('/') + 1));
  if (text === undefined) return false;
  const self = scan.vars.get('0');
  scan.vars.set('0', path);
  try {
    scan.runShell(text);
  } finally {
    if (self === undefined) scan.vars.delete('0');
    else scan.vars.set('0', self);
  }
  return true;
}

function evaluate(command: Command, scan: Scan): void {
  if (command.invocation.downloaded) flag(scan, REASONS.pipeToShell);
  if (command.invocation.decoded) flag(scan, REASONS.obfuscatedCode);
  // `eval -- 'cmd'`: bash's eval takes `--` as the end of (no) options.
  runCode((command.args[0] === '--' ? command.args.slice(1) : command.args).join(' '), command, scan);
}

/** Code that is only a download's unknown output says nothing more than "runs a download". */
function runCode(code: string, command: Command, scan: Scan): void {
  if (command.invocation.downloaded && code.trim() === UNKNOWN) return;
  scan.runShell(code);
}

function source(command: Command, scan: Scan): void {
  if (command.invocation.downloaded || runsDownloadedFile(command.operands[0], scan)) flag(scan, REASONS.pipeToShell);
  if (command.operands[0] !== undefined) runWrittenFile(command.operands[0], scan);
  if (command.operands[0] === '/dev/stdin' || command.operands[0] === '-') runStdinCode(command.invocation.stdin, scan, (code) => scan.runShell(code));
}

export const SHELL_SPECS: readonly CommandSpec[] = [
  // Task runners whose operands are whole shell commands (`concurrently "npm:dev" "rm -rf /"`).
  { names: ['concurrently', 'npm-run-all2'], values: ['-n', '--names', '-c', '--prefix-colors', '-p', '--prefix', '--success', '--kill-signal', '-m', '--max-processes', '--restart-tries', '--restart-after', '--default-input-target', '--handle-input', '-l', '--prefix-length', '-t', '--timestamp-format', '--passthrough-arguments', '-P'], check: (c, s) => {
    for (const operand of c.operands) if (!operand.startsWith('npm:')) s.runShell(operand);
  } },
  // Clustered, so that `-eo pipefail` takes `pipefail` as the option's value, not as the script.
  { names: [...SHELLS], values: ['-o', '+o', '-O', '+O', '--rcfile', '--init-file'], clusters: true, check: shell },
  { names: ['eval'], check: evaluate },
  // `salt '*' cmd.run 'cmd'`: the execution functions run their argument as shell on every targeted minion.
  { names: ['salt', 'salt-ssh', 'salt-call'], values: ['-t', '--timeout', '--out', '-b', '--batch-size', '-c', '--config-dir', '--out-file', '-l', '--log-level'], check: (c, s) => {
    const at = c.operands.findIndex((o) => /^cmd\.(run|shell|run_all|run_stdout|run_bg|script|exec_code|powershell)$/.test(o));
    if (at !== -1 && c.operands[at + 1] !== undefined) runRemoteShell(s, c.operands.slice(at + 1).join(' '));
  } },
  { names: ['source', '.'], check: source },
];
