import { REASONS } from '../reasons.js';
import { flag, UNKNOWN, type Scan } from '../scan.js';
import type { Command, CommandSpec } from './spec.js';

/**
 * PowerShell cmdlets typed as a line of their own (`Remove-Item -Recurse -Force .\bin`, `Get-ChildItem C:\ | Remove-Item
 * -Recurse`). bash has already taken the backslashes out of unquoted words, so each cmdlet's arguments are read again
 * from its source text the way PowerShell splits them (blanks and commas, single and double quotes). Removals are
 * judged by their paths as `rm` is; the rest name what a cmdlet changes that the shell rules cannot see.
 */

/** PowerShell words of one command: quoted strings, bare words, and `,` (a list separator) as a word of its own. */
function psWords(source: string): string[] {
  const words = [...source.matchAll(/'((?:[^']|'')*)'|"([^"]*)"|(,)|([^\s,'"]+)/g)].map((m) => m[1]?.replace(/''/g, "'") ?? m[2] ?? m[3] ?? (m[4] as string));
  return words.slice(1);
}

interface PsArgs {
  /** Parameter (lowercase, no dash) → its values; a switch has none. */
  params: Map<string, string[]>;
  positional: string[];
}

/** Parameters of these cmdlets that take a value (PowerShell accepts any unambiguous prefix; these are the full names). */
const VALUE_PARAMS = ['path', 'literalpath', 'filter', 'include', 'exclude', 'name', 'value', 'propertytype', 'type', 'scope', 'executionpolicy', 'id', 'processname', 'depth', 'itemtype', 'destination'];

function psArgs(command: Command): PsArgs {
  const words = psWords(command.invocation.source);
  const params = new Map<string, string[]>();
  const positional: string[] = [];
  let current: string[] = positional;
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] as string;
    if (word === ',') continue;
    const param = /^-([A-Za-z][\w]*)(?::(.*))?$/.exec(word);
    if (param !== null) {
      const name = (param[1] as string).toLowerCase();
      const full = VALUE_PARAMS.find((p) => p === name) ?? VALUE_PARAMS.find((p) => name.length >= 2 && p.startsWith(name));
      const values: string[] = [];
      params.set(full ?? name, values);
      if (param[2] !== undefined) values.push(param[2]);
      else if (full !== undefined && i + 1 < words.length) {
        values.push(words[i + 1] as string);
        i += 1;
      }
      // A comma after a value continues its list (`-Path a, b`).
      current = full !== undefined ? values : positional;
      continue;
    }
    if (words[i - 1] === ',' && current !== positional) current.push(word);
    else {
      current = positional;
      positional.push(word);
    }
  }
  return { params, positional };
}

/** A switch given by any prefix PowerShell would accept for it (`-Recurse`, `-Rec`, `-r`). */
function hasSwitch(args: PsArgs, name: string, shortest = 1): boolean {
  return [...args.params.keys()].some((p) => p.length >= shortest && name.startsWith(p));
}

/**
 * A Windows path as the POSIX rules read it (WSL's view): the system drive's root and `$env:SystemDrive` are `/`,
 * `C:\Windows` is `/mnt/c/Windows`, the profile is home, `.\bin` is `./bin`. A variable nobody knows stays unknown.
 */
function posixPath(path: string): string {
  const p = path.replace(/\\/g, '/');
  if (/^[A-Za-z]:\/?$|^\$env:SystemDrive\/?$/i.test(p)) return '/';
  const drive = /^([A-Za-z]):\/(.*)$/.exec(p);
  if (drive !== null) return `/mnt/${(drive[1] as string).toLowerCase()}/${drive[2] as string}`;
  const home = /^(\$env:USERPROFILE|\$HOME|~)(\/.*)?$/i.exec(p);
  if (home !== null) return `~${home[2] ?? ''}`;
  const temp = /^\$env:(TEMP|TMP)(\/.*)?$/i.exec(p);
  if (temp !== null) return `/tmp${temp[2] ?? ''}`;
  return p.includes('$') ? `${UNKNOWN}${p.slice(p.search(/[/]|$/))}` : p;
}

/** scan.files keys for what an earlier pipeline stage listed: Get-ChildItem's folder, Get-Process taking every process. */
const LISTED_FOLDER = '\uE004ps-listed-folder';
const EVERY_PROCESS = '\uE004ps-every-process';

/** `Get-ChildItem C:\ -Force`: remembered for the `Remove-Item` it may be piped into. */
function listChildren(command: Command, scan: Scan): void {
  const args = psArgs(command);
  const folder = args.params.get('path')?.[0] ?? args.params.get('literalpath')?.[0] ?? args.positional[0] ?? '.';
  const pattern = args.params.get('filter')?.[0] ?? args.params.get('include')?.[0] ?? args.positional[1] ?? '*';
  scan.files.set(LISTED_FOLDER, `${folder.replace(/[\\/]+$/, '')}\\${pattern}`);
}

/** The stage before this one was exactly `name` (nothing filtered what it listed). */
function pipedFrom(command: Command, names: readonly string[]): boolean {
  const stdin = command.invocation.stdin;
  return stdin?.kind === 'pipe' && stdin.upstream.length === 1 && names.includes(stdin.upstream[0] as string);
}

/** `Remove-Item -Recurse -Force .\bin, .\obj` is `rm -rf ./bin ./obj`; `-WhatIf` only reports what it would remove. */
function removeItem(command: Command, scan: Scan): void {
  const args = psArgs(command);
  if (hasSwitch(args, 'whatif', 2)) return;
  const recurse = hasSwitch(args, 'recurse', 1);
  const targets = [...(args.params.get('path') ?? []), ...(args.params.get('literalpath') ?? []), ...args.positional];
  if (targets.length === 0) {
    const listed = scan.files.get(LISTED_FOLDER);
    // `Get-ChildItem C:\ | Remove-Item -Recurse`: everything the listing found, which is what its folder holds.
    if (listed !== undefined && pipedFrom(command, ['Get-ChildItem', 'gci', 'get-childitem'])) targets.push(listed);
    else {
      // Input from a pipeline the checker cannot follow: some unknown set of files.
      flag(scan, REASONS.destructiveVerb);
      return;
    }
  }
  scan.runArgv(['rm', recurse ? '-rf' : '-f', ...targets.map(posixPath)]);
}

/** `Get-Process` with no name or id takes every process; remembered for the stage it is piped into. */
function getProcess(command: Command, scan: Scan): void {
  const args = psArgs(command);
  const every = args.positional.every((p) => p === '*') && !['name', 'id', 'processname'].some((p) => args.params.has(p));
  if (every) scan.files.set(EVERY_PROCESS, '1');
  else scan.files.delete(EVERY_PROCESS);
}

/** A script block that stops the process it is given (`Stop-Process -Id $_.Id`, `$_ | Stop-Process`, `$_.Kill()`). */
const STOPS_EACH = /\b(Stop-Process|spps|kill)\b[^}]*\$(_|PSItem)\b|\$(_|PSItem)\s*\|\s*(Stop-Process|spps)\b|\$(_|PSItem)\.Kill\s*\(|\btaskkill\b[^}]*\$(_|PSItem)\b/i;

/** `Get-Process | ForEach-Object { Stop-Process -Id $_.Id -Force }`: every process, one at a time. */
function forEachObject(command: Command, scan: Scan): void {
  const block = command.invocation.source;
  if (!STOPS_EACH.test(block)) return;
  const every = pipedFrom(command, ['Get-Process', 'gps', 'get-process']) && scan.files.get(EVERY_PROCESS) === '1';
  flag(scan, every ? REASONS.killAll : REASONS.killProcesses);
}

/** `Set-ExecutionPolicy Unrestricted|Bypass` for the machine or user lets any script run; `-Scope Process` is this session. */
function setExecutionPolicy(command: Command, scan: Scan): void {
  const args = psArgs(command);
  const policy = args.params.get('executionpolicy')?.[0] ?? args.positional[0] ?? '';
  const scope = args.params.get('scope')?.[0] ?? args.positional[1] ?? 'LocalMachine';
  if (hasSwitch(args, 'whatif', 2)) return;
  if (/^(Unrestricted|Bypass)$/i.test(policy) && !/^Process$/i.test(scope)) flag(scan, REASONS.disableSecurity);
}

/** Registry keys and folders whose entries Windows runs at every logon. */
const AUTORUN = /\\CurrentVersion\\(Run|RunOnce|RunServices|RunServicesOnce)(\\|$)|\\Policies\\Explorer\\Run(\\|$)|\\Start Menu\\Programs\\Startup(\\|$)/i;
const WINLOGON_HOOK = /\\Winlogon\\?$/i;

/** `New-ItemProperty -Path 'HKCU:\…\CurrentVersion\Run' -Name x -Value 'C:\x.exe'`: runs at every logon. */
function autorunWrite(command: Command, scan: Scan): void {
  const args = psArgs(command);
  if (hasSwitch(args, 'whatif', 2)) return;
  const paths = [...(args.params.get('path') ?? []), ...(args.params.get('literalpath') ?? []), ...(args.params.get('destination') ?? []), ...args.positional];
  const name = args.params.get('name')?.[0] ?? '';
  if (paths.some((p) => AUTORUN.test(p)) || (paths.some((p) => WINLOGON_HOOK.test(p)) && /^(Shell|Userinit)$/i.test(name))) flag(scan, REASONS.persistence);
}

/** `Remove-Item` and `remove-item`: PowerShell names are case-insensitive; these are the two spellings lines use. */
const cmdlet = (...names: string[]): string[] => names.flatMap((n) => [n, n.toLowerCase()]);

/**
 * Windows' own disk tools, reachable from bash on Windows (Git Bash, MSYS) and through `cmd /c`: `format D:` is mkfs
 * for a drive letter (hardline, as mkfs onto a partition is); `diskpart` runs a script of partition commands the
 * checker cannot see (it may clean a disk), so it asks.
 */
const DRIVE = /^(?:[a-zA-Z]:[\\/]?|\/mnt\/[a-z]\/?)$/;

export const WINDOWS_SPECS: readonly CommandSpec[] = [
  { names: ['format', 'format.com', 'FORMAT'], rules: [{ operand: DRIVE, unless: /^\/\?$/, reason: REASONS.mkfs }] },
  // A script it is fed (heredoc, here-string, `echo … |`) that says `clean all` zeroes every sector of the disk: dd to it.
  { names: ['diskpart', 'diskpart.exe'], rules: [{ reason: REASONS.diskVolume }], check: (c, s) => {
    const script = c.invocation.stdin?.text ?? '';
    if (/^\s*clean\s+all\b/im.test(script)) flag(s, REASONS.rawDisk);
  } },
  // `wsl --unregister NAME` deletes that distribution and its whole filesystem; `--uninstall` removes WSL itself.
  { names: ['wsl', 'wsl.exe'], rules: [{ option: /^--(unregister|uninstall)$/, reason: REASONS.containerDelete }] },
  // Help and discovery print text about a cmdlet (`Get-Help Remove-Item -Examples`); nothing runs.
  { names: cmdlet('Get-Help', 'Get-Command', 'Get-Member', 'Show-Command') },
  { names: cmdlet('Remove-Item'), check: removeItem },
  { names: [...cmdlet('Get-ChildItem'), 'gci'], check: listChildren },
  { names: [...cmdlet('Get-Process'), 'gps'], check: getProcess },
  { names: cmdlet('ForEach-Object'), check: forEachObject },
  { names: cmdlet('Set-ExecutionPolicy'), check: setExecutionPolicy },
  { names: cmdlet('New-ItemProperty', 'Set-ItemProperty', 'New-Item', 'Copy-Item'), check: autorunWrite },
];
