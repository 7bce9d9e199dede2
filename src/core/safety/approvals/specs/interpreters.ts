import { readInterpreterCode, type Language } from '../interpreter-code.js';
import { REASONS } from '../reasons.js';
import { flag, UNKNOWN, type Scan } from '../scan.js';
import { checkWriteTarget } from '../write-targets.js';
import { runsDownloadedFile, runStdinCode } from './shells.js';
import { valuesOf, type Command, type CommandSpec } from './spec.js';

/**
 * Interpreters: the code they are given inline (`-c`, `-e`, `-r`, `eval`…) or on stdin is read by
 * interpreter-code.ts; awk programs, vim's `:!cmd` (and `:lua`/`:py3` code), AppleScript's `do shell script` and PowerShell cmdlets
 * have their own small readers here.
 */
interface Interpreter {
  names: string[];
  language: Language;
  codeOptions: string[];
  /** A subcommand that takes code as its operand (`deno eval CODE`). */
  codeSub?: string;
  /** A subcommand that runs a script named by its operand (`deno run x.ts`). */
  runSub?: string;
}

const INTERPRETERS: readonly Interpreter[] = [
  { names: ['python', 'python2', 'python3', 'pypy', 'pypy3', 'python3.8', 'python3.9', 'python3.10', 'python3.11', 'python3.12', 'python3.13'], language: 'python', codeOptions: ['-c'] },
  { names: ['node', 'nodejs'], language: 'node', codeOptions: ['-e', '--eval', '-p', '--print'] },
  { names: ['bun'], language: 'node', codeOptions: ['-e', '--eval', '-p', '--print'], runSub: 'run' },
  { names: ['deno'], language: 'node', codeOptions: [], codeSub: 'eval', runSub: 'run' },
  { names: ['perl'], language: 'perl', codeOptions: ['-e', '-E'] },
  { names: ['ruby', 'jruby'], language: 'ruby', codeOptions: ['-e'] },
  { names: ['php'], language: 'php', codeOptions: ['-r'] },
  { names: ['lua', 'luajit', 'lua5.1', 'lua5.3', 'lua5.4'], language: 'lua', codeOptions: ['-e'] },
  { names: ['Rscript', 'R'], language: 'r', codeOptions: ['-e'] },
  { names: ['julia'], language: 'julia', codeOptions: ['-e', '--eval'] },
  { names: ['tclsh', 'wish', 'expect'], language: 'tcl', codeOptions: ['-c'] },
  { names: ['groovy'], language: 'groovy', codeOptions: ['-e'] },
  { names: ['emacs'], language: 'elisp', codeOptions: ['--eval', '-eval'] },
  { names: ['elixir'], language: 'elixir', codeOptions: ['-e', '--eval'] },
];

/** Framework task runners (`python manage.py flush`, `php artisan migrate:fresh`): the tasks that empty or drop the database. */
const SCRIPT_TASKS_THAT_DROP: ReadonlyArray<readonly [string, RegExp]> = [
  ['manage.py', /^(flush|reset_db|sqlflush)$/],
  ['artisan', /^(migrate:(fresh|reset|refresh)|db:wipe)$/],
];

function interpreterCheck(interpreter: Interpreter) {
  return (command: Command, scan: Scan): void => {
    const { args, invocation } = command;
    const read = (code: string): void => readInterpreterCode(code, interpreter.language, scan);
    let inline = false;
    args.forEach((arg, i) => {
      const cluster = interpreter.codeOptions.find((o) => arg === o || (o.length === 2 && arg.startsWith('-') && !arg.startsWith('--') && arg.endsWith(o[1] as string) && /^-[a-zA-Z]+$/.test(arg)));
      if (cluster !== undefined && args[i + 1] !== undefined) {
        inline = true;
        read(args[i + 1] as string);
      } else if (arg.startsWith('--eval=') || arg.startsWith('--print=')) {
        inline = true;
        read(arg.slice(arg.indexOf('=') + 1));
      }
    });
    if (interpreter.codeSub !== undefined && command.operands[0] === interpreter.codeSub) {
      inline = true;
      read(command.operands.slice(1).join(' '));
    }
    if (command.name === 'perl' && command.options.some((a) => /^-[a-zA-Z]*i/.test(a))) for (const target of command.operands) checkWriteTarget(target, scan);
    if (inline) return;
    // `python -m pip uninstall x` is pip.
    const module = valuesOf(command, '-m')[0];
    if (module !== undefined) {
      scan.runArgv([module, ...command.args.slice(command.args.indexOf(module) + 1)]);
      return;
    }
    // `deno run -A https://…/x.ts`, `bun run https://…`: code fetched from the network and run.
    const script = interpreter.runSub !== undefined && command.operands[0] === interpreter.runSub ? command.operands[1] : command.operands[0];
    // Deno's sandbox holds remote code with no permission granted; `-A`/`--allow-*` lets it out.
    const sandboxed = command.name === 'deno' && !command.options.some((o) => /^(-A|--allow-(?!none).*)$/.test(o));
    if (invocation.downloaded || runsDownloadedFile(script, scan) || (/^https?:\/\//.test(script ?? '') && !sandboxed)) flag(scan, REASONS.pipeToShell);
    const written = script === undefined ? undefined : scan.files.get(script.slice(script.lastIndexOf('/') + 1));
    if (written !== undefined) read(written);
    if (script === undefined || script === '-') runStdinCode(invocation.stdin, scan, read);
    const tasks = SCRIPT_TASKS_THAT_DROP.find(([name]) => script === name || script?.endsWith(`/${name}`) === true)?.[1];
    if (tasks?.test(command.operands[1] ?? '') === true) flag(scan, REASONS.sqlDrop);
    // `manage.py migrate app zero`: every migration of the app unapplied, its tables dropped.
    if (tasks !== undefined && script?.endsWith('manage.py') === true && command.operands[1] === 'migrate' && command.operands.slice(2).includes('zero')) flag(scan, REASONS.sqlDrop);
  };
}

/** One awk string expression: literals, `ENVIRON["X"]`, variables, fields, glued by juxtaposition (awk's concatenation). */
const AWK_TERM = String.raw`(?:"(?:[^"\\]|\\.)*"|ENVIRON\[\s*"\w+"\s*\]|\$\w+\b|(?!(?:print|printf|getline|close|in|if|while|for|do|return|else|BEGIN|END)\b)[A-Za-z_]\w*\b)`;
const AWK_EXPR = String.raw`${AWK_TERM}(?:[ \t]*${AWK_TERM})*`;
/** Where awk runs a command: `system(E)`, `print … | E`, `print … |& E` (gawk's coprocess), `E | getline`, `E |& getline`. */
const AWK_COMMANDS: readonly RegExp[] = [
  new RegExp(String.raw`\bsystem\s*\(\s*(${AWK_EXPR})\s*\)`, 'g'),
  new RegExp(String.raw`\bprintf?\b[^;}|]*\|&?\s*(${AWK_EXPR})`, 'g'),
  new RegExp(String.raw`(${AWK_EXPR})\s*\|&?\s*getline\b`, 'g'),
];
/** `print "rm -rf /" | "sh"`: what is printed into a shell is the shell's script. */
const AWK_PRINT_TO_SHELL = new RegExp(String.raw`\bprintf?\s*\(?\s*(${AWK_EXPR})\s*\)?\s*\|&?\s*"\s*(?:/usr)?(?:/bin/)?(?:ba|z|da|k|mk)?sh(?:\s+-\w+)*\s*"`, 'g');

/**
 * An awk string expression as the shell text it builds: a literal is itself, `ENVIRON["HOME"]` the shell's `$HOME`,
 * a variable the expression it was last assigned (in the program or by `-v`), anything else (a field) unknown.
 */
function awkString(expr: string, program: string, assigned: ReadonlyMap<string, string>, depth = 0): string {
  return [...expr.matchAll(new RegExp(AWK_TERM, 'g'))].map(([term]) => {
    if (term.startsWith('"')) return term.slice(1, -1).replace(/\\(["\\/])/g, '$1').replace(/\\n/g, '\n');
    const env = /^ENVIRON\[\s*"(\w+)"/.exec(term);
    if (env !== null) return `"$${env[1] as string}"`;
    if (term.startsWith('$') || depth > 3) return UNKNOWN;
    const assignments = [...program.matchAll(new RegExp(String.raw`(?<![\w$])${term}\s*=(?!=)\s*(${AWK_EXPR})`, 'g'))];
    const last = assignments.at(-1)?.[1];
    if (last !== undefined) return awkString(last, program, assigned, depth + 1);
    return assigned.get(term) ?? UNKNOWN;
  }).join('');
}

/** awk's `system()`, pipes to and from commands (`print | "cmd"`, `"cmd" | getline`, gawk's `|&`), `print > "/etc/x"`. */
function awk(command: Command, scan: Scan): void {
  const program = valuesOf(command, '-f').length > 0 ? undefined : command.operands[0];
  if (program === undefined) return;
  const assigned = new Map(valuesOf(command, '-v').map((v) => [v.slice(0, Math.max(0, v.indexOf('='))), v.slice(v.indexOf('=') + 1)] as const));
  // A command is a subprocess however harmless; its text, where the program spells it, is classified as shell code.
  for (const pattern of AWK_COMMANDS) {
    for (const match of program.matchAll(pattern)) {
      flag(scan, REASONS.interpreterExec);
      const text = awkString(match[1] as string, program, assigned);
      if (text.replace(new RegExp(UNKNOWN, 'g'), '').trim() !== '') scan.runShell(text);
    }
  }
  for (const match of program.matchAll(AWK_PRINT_TO_SHELL)) {
    const text = awkString(match[1] as string, program, assigned);
    if (text.replace(new RegExp(UNKNOWN, 'g'), '').trim() !== '') scan.runShell(text);
  }
  // Commands the program computes (`system($0)`, `cmd | getline` of a field); a `|` inside a string (`print $1 "|" $2`) is text.
  const code = program.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  if (/\bsystem\s*\(/.test(code) || /\|&?\s*getline|print[^;}]*\|&?\s*"|\|&/.test(code)) flag(scan, REASONS.interpreterExec);
  // gawk's network special files: a socket the program reads commands from or writes output to.
  if (/\/inet[46]?\/(tcp|udp)\//.test(program)) flag(scan, REASONS.remoteShell);
  for (const match of program.matchAll(/print[^;}]*>>?\s*"([^"]+)"/g)) checkWriteTarget(match[1] as string, scan);
  // gawk's `-i inplace` (`--include=inplace`): the files after the program are rewritten with its output.
  if (valuesOf(command, '-i', '--include').some((lib) => /^inplace(\.awk)?$/.test(lib))) for (const target of command.operands.slice(1)) checkWriteTarget(target, scan);
}

/** Ex commands that run the rest of the line as code of an embedded language (`:lua …`, `:py3 …`, `:perl …`). */
const VIM_EMBEDDED: ReadonlyArray<readonly [RegExp, Language]> = [
  [/^:?\s*(?:silent!?\s+)?lua\s+(.*)$/s, 'lua'],
  [/^:?\s*(?:silent!?\s+)?(?:py3?|python3?|pyx|pythonx)\s+(.*)$/s, 'python'],
  [/^:?\s*(?:silent!?\s+)?(?:perl|pe)\s+(.*)$/s, 'perl'],
  [/^:?\s*(?:silent!?\s+)?(?:ruby|rub)\s+(.*)$/s, 'ruby'],
];

/**
 * Ex commands that write the buffer to a file (`:w! /etc/hosts`, `:wq FILE`, `:saveas FILE`, `:w >> FILE`), and those
 * that hand it to a command (`:w !sh`, where `w!` alone only forces) or read a command's output (`:r !cmd`).
 */
const VIM_WRITE = /^:?\s*(?:silent!?\s+)?(?:\d+,\d+|%)?\s*(?:w|write|wq|wqa|wqall|x|xit|exit|xa|xall|up|update|sav|saveas)(?![a-z])!?\s*(?:>>\s*)?([^\s!|][^|]*)/;
const VIM_COMMAND = /^:?\s*(?:silent!?\s+)?(?:\d+,\d+|%|\d+)?\s*(?:w|write|r|read)\s+!(.*)$/s;

/** `vim -c ':!rm -rf ~'`, `vim +'!cmd'`, `--cmd`, `:call system(…)`, `:lua vim.fn.system({…})`, `:w! /etc/hosts`. */
/** Ex commands that write the buffer back to its own file (no file name), `|`-chained ones included (`%d|wq`). */
const VIM_WRITE_BACK = /(?:^|\|)\s*:?\s*(?:silent!?\s+)?(?:w|wq|wqa|wqall|x|xa|xall|xit|exi|exit|up|update|wa|wall)!?\s*(?:$|\|)/;

function vim(command: Command, scan: Scan): void {
  const commands = [...valuesOf(command, '-c', '--cmd'), ...command.args.filter((a) => a.startsWith('+')).map((a) => a.slice(1))];
  for (const exCommand of commands) {
    const piped = VIM_COMMAND.exec(exCommand.trim())?.[1];
    const written = VIM_WRITE.exec(exCommand.trim())?.[1]?.trim();
    if (piped !== undefined) {
      flag(scan, REASONS.interpreterExec);
      scan.runShell(piped);
      continue;
    }
    if (written !== undefined) {
      checkWriteTarget(written, scan);
      continue;
    }
    // `:wq`, `:x`, `:w!`, `:update`, `:wall` with no file name: the edit goes back to the files being edited.
    if (VIM_WRITE_BACK.test(exCommand.trim())) {
      for (const target of command.operands) checkWriteTarget(target, scan);
      continue;
    }
    const embedded = VIM_EMBEDDED.map(([pattern, language]) => [pattern.exec(exCommand.trim())?.[1], language] as const).find(([code]) => code !== undefined);
    if (embedded !== undefined) {
      readInterpreterCode(embedded[0] as string, embedded[1], scan);
      continue;
    }
    const bang = /^:?\s*(?:silent\s*)?!(.*)$/s.exec(exCommand.trim());
    const system = /system\s*\(\s*['"](.*?)['"]/.exec(exCommand);
    const shell = bang?.[1] ?? system?.[1];
    if (shell === undefined) continue;
    flag(scan, REASONS.interpreterExec);
    scan.runShell(shell);
  }
}

/** AppleScript: `do shell script "…"`, and telling System Events to shut down or restart. */
function osascript(command: Command, scan: Scan): void {
  const script = valuesOf(command, '-e').join('\n');
  for (const match of script.matchAll(/do\s+shell\s+script\s+"((?:[^"\\]|\\.)*)"/g)) {
    flag(scan, REASONS.interpreterExec);
    scan.runShell((match[1] as string).replace(/\\"/g, '"'));
  }
  if (/\b(shut\s*down|restart)\b/i.test(script) && /System Events|Finder|loginwindow/i.test(script)) flag(scan, REASONS.shutdown);
  // The raw Apple events behind them, sent to loginwindow or System Events: «event aevtrrst» (restart), aevtrsdn
  // (shut down), aevtshut (shut down without asking).
  if (/\baevt(rrst|rsdn|shut)\b/i.test(script)) flag(scan, REASONS.shutdown);
  if (/\blogin\s+item\b/i.test(script) && /\bmake\b/i.test(script)) flag(scan, REASONS.persistence);
  if (/\b(delete|empty\s+(the\s+)?trash)\b/i.test(script) && /\btell\s+app(lication)?\b/i.test(script)) flag(scan, REASONS.destructiveVerb);
}

/**
 * A `Where-Object` stage whose every condition only leaves something out (`$_.Id -ne $PID`, `Name -notlike 'explorer*'`):
 * what passes is every process but a few. Not empty or null (`$_.MainWindowTitle -ne ""`): that selects what has one.
 */
const PS_NEGATIVE = String.raw`\$_\.\w+\s+-(?:c|i)?(?:ne|notlike|notmatch|notin|notcontains)\s+(?!''|""|\$null\b|0\b)(?:\$\w+|'[^']*'|"[^"]*"|[\w.*]+)`;
const PS_EXCLUDING_FILTER = String.raw`(?:Where-Object|where|\?)\s*(?:\{\s*${PS_NEGATIVE}(?:\s+-and\s+${PS_NEGATIVE})*\s*\}|\w+\s+-(?:c|i)?(?:ne|notlike|notmatch|notin)\s+\S+)`;

/** PowerShell cmdlets with a shell equivalent that asks. */
const POWERSHELL: ReadonlyArray<[RegExp, string]> = [
  [/\b(Stop-Computer|Restart-Computer)\b/i, REASONS.shutdown],
  // Formatting and wiping are mkfs and wipefs (hardline); a new partition table or a removed partition is `parted
  // mklabel` or `parted rm`, outside the narrow hardline list.
  [/\b(Format-Volume|Clear-Disk)\b/i, REASONS.rawDisk],
  [/\b(Initialize-Disk|Remove-Partition)\b/i, REASONS.diskVolume],
  [/\bStop-Process\b|\bkill\s+-Name\b/i, REASONS.killProcesses],
  // `Get-Process | Stop-Process`, `gps | kill`, `Stop-Process -Name *`: every process, unfiltered, or filtered only by
  // what it leaves out (`Where-Object { $_.Id -ne $PID }`: every process but this shell, as `pkill -v bash` is).
  [new RegExp(String.raw`\b(?:Get-Process|gps)\s*(?:['"]?\*['"]?\s*)?\|\s*(?:${PS_EXCLUDING_FILTER}\s*\|\s*)?(?:Stop-Process|spps|kill)\b`, 'i'), REASONS.killAll],
  [/\b(?:Stop-Process|spps|kill)\b[^|;]*-(?:Name|ProcessName)\s+['"]?\*['"]?(?=[\s;]|$)/i, REASONS.killAll],
  // `Get-Process | ForEach-Object { $_.Kill() }`, `… { Stop-Process -Id $_.Id -Force }`: every process, one by one,
  // with nothing filtering them on the way.
  [/\b(?:Get-Process|gps)\s*(?:['"]?\*['"]?\s*)?\|\s*(?:ForEach-Object|foreach|%)\s*\{[^}]*(?:\.Kill\s*\(|\b(?:Stop-Process|spps|kill)\b[^}]*\$_)/i, REASONS.killAll],
  // WMI/CIM: `Get-CimInstance Win32_Process | Invoke-CimMethod -MethodName Terminate` (no -Filter, no Where-Object).
  [/\b(?:Get-CimInstance|gcim|Get-WmiObject|gwmi)\s+(?:-ClassName\s+|-Class\s+)?Win32_Process\s*\|\s*(?:Invoke-CimMethod|Invoke-WmiMethod)\b[^|;]*\bTerminate\b/i, REASONS.killAll],
  [/\bWin32_Process\b[^;]*\b(?:Terminate)\b/i, REASONS.killProcesses],
  [/\b(Stop-Service|Set-Service\b[^|;]*-StartupType\s+Disabled)\b/i, REASONS.stopService],
  [/\b(Add|Set)-MpPreference\b[^|;]*-Exclusion(Path|Process|Extension|IpAddress)\b/i, REASONS.disableSecurity],
  [/\bSet-MpPreference\b[^|;]*-Disable\w+(?!\s+\$?(?:false|0)\b)|\bSet-NetFirewallProfile\b[^|;]*-Enabled\s+(\$?False|0)\b/i, REASONS.disableSecurity],
  // `-EnableControlledFolderAccess Disabled`, `-EnableNetworkProtection 0`; removing Defender itself.
  [/\bSet-MpPreference\b[^|;]*-Enable\w+\s+(Disabled|0|\$false|AuditMode)\b|\b(Uninstall|Remove)-WindowsFeature\b[^|;]*Defender/i, REASONS.disableSecurity],
  [/\b(Invoke-Expression|iex)\b[\s\S]*\b(Invoke-WebRequest|iwr|Invoke-RestMethod|irm|DownloadString|curl|wget)\b|\b(Invoke-WebRequest|iwr|Invoke-RestMethod|irm|DownloadString)\b[\s\S]*\|\s*(Invoke-Expression|iex)\b/i, REASONS.pipeToShell],
  [/\bStart-Process\b/i, REASONS.interpreterExec],
  // PSReadLine's history file removed or emptied (`Remove-Item (Get-PSReadLineOption).HistorySavePath`), or saving turned off.
  [/\b(?:Remove-Item|ri|rm|del|erase|Clear-Content|clc|Set-Content|Out-File)\b[^|;]*(?:HistorySavePath|ConsoleHost_history\.txt)|\bSet-PSReadLineOption\b[^|;]*-HistorySaveStyle\s+SaveNothing/i, REASONS.history],
];

function powershell(command: Command, scan: Scan): void {
  // `curl … | pwsh -`: a download read as a script.
  const stdin = command.invocation.stdin;
  if (stdin?.kind === 'pipe' && stdin.downloaded) flag(scan, REASONS.pipeToShell);
  const flagged = command.args.findIndex((a) => /^-(c|command|encodedcommand|enc|e|ec)$/i.test(a));
  // With no -Command and no -File, the first word that is not an option starts the command.
  const positional = command.args.some((a) => /^-(f|file)$/i.test(a)) ? -1 : command.args.findIndex((a, i) => !a.startsWith('-') && !/^-(ExecutionPolicy|ep|WindowStyle|w|Version|v|ConfigurationName|OutputFormat|InputFormat)$/i.test(command.args[i - 1] ?? ''));
  const codeAt = flagged !== -1 ? flagged : positional === -1 ? -1 : positional - 1;
  if (codeAt === -1 && positional === -1) return;
  const flagName = flagged === -1 ? '-command' : (command.args[codeAt] as string).toLowerCase();
  let code = command.args.slice(codeAt + 1).join(' ');
  if (flagName.startsWith('-e')) {
    flag(scan, REASONS.obfuscatedCode);
    code = Buffer.from(code, 'base64').toString('utf16le');
  }
  // `pwsh -c "Remove-Item -Recurse $env:USERPROFILE"`: bash expanded its unset `$env` (to the unknown) and left
  // `:USERPROFILE`; the line was written for PowerShell, so the variables its source spells are put back.
  for (const name of new Set([...command.invocation.source.matchAll(/\$env:(\w+)/gi)].map((m) => m[1] as string))) {
    code = code.replace(new RegExp(String.raw`(^|[^\w$])${UNKNOWN}?:${name}\b`, 'g'), `$1$env:${name}`);
  }
  readPowerShell(code, scan);
  // Only for code handed to pwsh: a whole line read as PowerShell (readPowerShell's other caller) is already a shell line.
  readNativeStatements(code, scan);
}

/**
 * Reads PowerShell code (given to pwsh, or a whole line written in PowerShell: `Get-Process | Stop-Process -Force`)
 * for the cmdlets that have a shell equivalent that asks, and its recursive removals judged like `rm -rf`.
 */
export function readPowerShell(source: string, scan: Scan): void {
  // `Get-Help Restart-Computer`, `Get-Command Stop-Computer -Syntax`: a cmdlet's name as the subject of a help or
  // lookup command is data, not a call.
  const code = source.replace(/\b(?:Get-Help|help|Get-Command|gcm|man)\s+(?:-Name\s+)?['"]?[A-Za-z]+-[A-Za-z]+['"]?(?:\s+-(?:Full|Detailed|Examples|Online|Syntax|ShowWindow))*/gi, 'Get-Help');
  for (const [pattern, reason] of POWERSHELL) if (pattern.test(code)) flag(scan, reason);
  readPowerShellDecoded(code, scan);
  // `Get-ChildItem / | Remove-Item -Recurse -Force`: what the listing names (the folder's contents) is what is removed.
  const listed = /\b(?:Get-ChildItem|gci|ls|dir)\s+(?:-(?:Path|LiteralPath)\s+)?['"]?([A-Za-z]:\\[^'"\s|]*|[~/$][^'"\s|]*|\.[^'"\s|]*)['"]?[^|;]*\|\s*(?:Remove-Item|rm|del|ri)\b[^|;]*-(?:Recurse|r)\b/gi;
  for (const match of code.matchAll(listed)) scan.runArgv(['rm', '-rf', `${windowsPath(match[1] as string).replace(/\/+$/, '')}/*`]);
  const removal = /\b(?:Remove-Item|rm|del|rmdir|ri)\b([^|;]*)/gi;
  for (const match of code.matchAll(removal)) {
    const rest = match[1] ?? '';
    if (!/-Recurse\b|-r\b/i.test(rest)) continue;
    const target = /(?:-Path\s+|-LiteralPath\s+|\s)['"]?([A-Za-z]:\\[^'"\s]*|[~/$][^'"\s]*|\.[^'"\s]*)/.exec(rest)?.[1];
    scan.runArgv(['rm', '-rf', ...(target === undefined ? [] : [windowsPath(target)])]);
  }
}

/** Words that start PowerShell's own statements, not a program: `if (…) {…}`, `foreach`, `function f {…}`. */
const POWERSHELL_KEYWORDS = /^(?:if|elseif|else|foreach|for|while|do|until|switch|function|filter|param|begin|process|end|try|catch|finally|trap|throw|return|exit|break|continue|class|enum|using|data)$/i;

/**
 * Programs run from PowerShell code (`pwsh -c "git push --force"`, `powershell -c "shutdown /r /t 0"`,
 * `taskkill /F /IM explorer.exe`): a statement that starts with a program's name, not a cmdlet (Verb-Noun), a
 * variable, a keyword or a script block, is judged as the shell line it is. Statements are split at `;`, newlines,
 * `&&` and `||` outside quotes; a pipeline stays whole so `… | sh` is seen. PowerShell-only syntax (`{`, `$_`,
 * `$(…)`) keeps a statement out: bash would read it as malformed and ask for a harmless script block.
 */
function readNativeStatements(code: string, scan: Scan): void {
  if (scan.depth > 3) return;
  for (const statement of powerShellStatements(code)) {
    const program = /^&?\s*['"]?([A-Za-z][\w.-]*?)(?:\.exe)?['"]?(?=\s|$)/.exec(statement)?.[1];
    if (program === undefined || POWERSHELL_KEYWORDS.test(program) || /^[A-Za-z]+-[A-Za-z]+$/.test(program)) continue;
    if (/[{}]|\$_|\$\(/.test(statement)) continue;
    scan.depth += 1;
    try {
      scan.runShell(statement.replace(/^&\s*/, '').replace(/^(['"]?)([A-Za-z][\w.-]*?)\.exe\1(?=\s|$)/i, '$2'));
    } finally {
      scan.depth -= 1;
    }
  }
}

/** PowerShell code cut into statements at `;`, newlines, `&&` and `||` that are not inside quotes. */
function powerShellStatements(code: string): string[] {
  const out: string[] = [];
  let quote = '';
  let start = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i] as string;
    if (quote !== '') {
      if (c === quote) quote = '';
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === ';' || c === '\n' || ((c === '&' || c === '|') && code[i + 1] === c)) {
      out.push(code.slice(start, i).trim());
      if (c !== ';' && c !== '\n') i++;
      start = i + 1;
    }
  }
  out.push(code.slice(start).trim());
  return out.filter((s) => s !== '');
}

/**
 * `iex ([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('…')))`, `& ([scriptblock]::Create(…))`: decoded text
 * run as code is obfuscated, and what it decodes to is read as PowerShell, its native commands (`shutdown /r`) as
 * the commands they are.
 */
function readPowerShellDecoded(code: string, scan: Scan): void {
  if (!/\b(?:Invoke-Expression|iex)\b|\[scriptblock\]::Create\b/i.test(code)) return;
  for (const match of code.matchAll(/FromBase64String\s*\(\s*['"]([A-Za-z0-9+/=]{4,})['"]\s*\)/gi)) {
    flag(scan, REASONS.obfuscatedCode);
    const bytes = Buffer.from(match[1] as string, 'base64');
    // [Text.Encoding]::Unicode is UTF-16LE: every other byte of ASCII text is zero.
    const wide = /::Unicode\b/i.test(code) || (bytes.length > 1 && bytes[1] === 0);
    const decoded = bytes.toString(wide ? 'utf16le' : 'utf8');
    if (scan.depth > 3) continue;
    scan.depth += 1;
    try {
      readPowerShell(decoded, scan);
      scan.runShell(decoded);
    } finally {
      scan.depth -= 1;
    }
  }
}

/**
 * A Windows path as WSL sees it, so the POSIX rules judge it: the system drive's root is `/`, `C:\Windows` is
 * `/mnt/c/Windows` (a system directory there), the profile is home.
 */
function windowsPath(target: string): string {
  if (/^[A-Za-z]:\\?$/.test(target)) return '/';
  if (/^\$env:(USERPROFILE|HOMEPATH)|^\$HOME|^~/i.test(target)) return '~';
  if (/^\$env:(SystemRoot|windir)\\?$/i.test(target)) return '/mnt/c/Windows';
  const drive = /^([A-Za-z]):\\(.*)$/.exec(target);
  return drive === null ? target : `/mnt/${(drive[1] as string).toLowerCase()}/${(drive[2] as string).replace(/\\/g, '/')}`;
}

/**
 * `go run - <<'EOF'`, `go run main.go` after `cat > main.go <<EOF`: Go source the line wrote (or feeds on stdin) is read
 * like any interpreter's code; a file the line did not write is the project's own.
 */
function goRun(command: Command, scan: Scan): void {
  if (command.operands[0] !== 'run') return;
  const read = (code: string): void => readInterpreterCode(code, 'go', scan);
  const sources = command.operands.slice(1).filter((o) => o === '-' || o.endsWith('.go'));
  for (const source of sources) {
    const written = scan.files.get(source.slice(source.lastIndexOf('/') + 1));
    if (written !== undefined) read(written);
  }
  if (sources.includes('-')) runStdinCode(command.invocation.stdin, scan, read);
}

export const INTERPRETER_SPECS: readonly CommandSpec[] = [
  { names: ['go'], values: ['-C', '-o', '-p', '-tags', '-ldflags', '-gcflags', '-mod', '-modfile', '-exec', '-toolexec', '-overlay', '-pgo'], check: goRun },
  ...INTERPRETERS.map((i): CommandSpec => ({
    names: i.names,
    values: ['-m', '-W', '-X', '-r', '--require', '-I', '--import', '--loader', '-C'],
    check: interpreterCheck(i),
    // bun is also a package manager: a global removal is a package removal.
    ...(i.names.includes('bun') ? { rules: [{ sub: 'remove|rm|uninstall|un', option: /^(-g|--global)$/, reason: REASONS.packageRemove }] } : {}),
  })),
  { names: ['awk', 'gawk', 'mawk', 'nawk'], values: ['-F', '-v', '-f', '-i', '--include'], check: awk },
  { names: ['vim', 'nvim', 'vi', 'gvim', 'ex', 'view'], values: ['-c', '--cmd', '-u', '-S'], check: vim },
  { names: ['osascript'], values: ['-e', '-l'], check: osascript },
  { names: ['powershell', 'pwsh', 'powershell.exe', 'pwsh.exe'], check: powershell },
];
