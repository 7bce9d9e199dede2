import { ANDROID_SPECS } from './android.js';
import { CLOUD_SPECS } from './cloud.js';
import { CONTAINER_SPECS } from './containers.js';
import { DATABASE_SPECS } from './databases.js';
import { DISK_SPECS } from './disks.js';
import { FILE_SPECS } from './files.js';
import { GIT_SPECS } from './git.js';
import { INTERPRETER_SPECS } from './interpreters.js';
import { MAKE_SPECS } from './make.js';
import { NETWORK_SPECS } from './network.js';
import { PACKAGE_SPECS } from './packages.js';
import { PROCESS_SPECS } from './processes.js';
import { SECURITY_SPECS } from './security.js';
import { SERVICE_SPECS } from './services.js';
import { SHELL_SPECS } from './shells.js';
import type { CommandSpec } from './spec.js';
import { SYSTEM_SPECS } from './system.js';
import { WINDOWS_SPECS } from './windows.js';

/**
 * Commands whose arguments are data, not actions: `echo delete`, `grep -r drop src`, `man rm` run nothing the
 * generic verb rule should read. Named so that rule only meets commands nobody described.
 */
const DATA_COMMANDS: CommandSpec = {
  names: [
    'echo', 'printf', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'uniq', 'wc', 'cut', 'tr', 'jq', 'ls', 'exa', 'eza', 'tree', 'stat',
    'file', 'which', 'type', 'whereis', 'man', 'info', 'help', 'tldr', 'apropos', 'whatis', 'diff', 'cmp', 'comm', 'test', '[', '[[', 'true', 'false',
    'sleep', 'date', 'pwd', 'basename', 'dirname', 'realpath', 'readlink', 'alias', 'unalias', 'read', 'wait', 'seq', 'column', 'fmt', 'fold',
    'paste', 'join', 'split', 'md5sum', 'sha1sum', 'sha256sum', 'shasum', 'cksum', 'rev', 'say', 'notify-send', 'logger', 'exit', 'return',
    'set', 'shopt', 'trap', 'ulimit', 'umask', 'hash', 'let', 'getopts', 'shift', 'break', 'continue', 'locate', 'mdfind', 'fd', 'fdfind',
    'printenv', 'id', 'whoami', 'uname', 'hostname', 'uptime', 'ps', 'top', 'htop', 'df', 'du', 'free', 'lsof', 'pgrep', 'jobs', 'fg', 'bg',
    'popd', 'dirs', 'clear', 'tput', 'open', 'xdg-open', 'code', 'cmake', 'ninja', 'tsc', 'eslint', 'prettier', 'jest', 'vitest',
    'pytest', 'mypy', 'ruff', 'black', 'rustc', 'javac', 'gzip', 'gunzip', 'zcat', 'xz', 'bzip2',
    'traceroute', 'ip', 'ifconfig', 'netstat', 'ss', 'dmesg', 'getent', 'last', 'lastb', 'lastlog', 'who', 'w', 'lsblk', 'blkid', 'mount', 'export',
    'declare', 'local', 'readonly', 'typeset', 'unset', 'shellcheck', 'shfmt', 'nproc', 'lscpu', 'env',
  ],
};

const ALL: readonly CommandSpec[] = [
  ...FILE_SPECS, ...GIT_SPECS, ...PROCESS_SPECS, ...SERVICE_SPECS, ...DISK_SPECS, ...SECURITY_SPECS, ...PACKAGE_SPECS, ...CONTAINER_SPECS,
  ...CLOUD_SPECS, ...DATABASE_SPECS, ...NETWORK_SPECS, ...SYSTEM_SPECS, ...SHELL_SPECS, ...MAKE_SPECS, ...INTERPRETER_SPECS, ...WINDOWS_SPECS, ...ANDROID_SPECS, DATA_COMMANDS,
];

const REGISTRY: ReadonlyMap<string, CommandSpec> = buildRegistry(ALL);

function buildRegistry(specs: readonly CommandSpec[]): Map<string, CommandSpec> {
  const registry = new Map<string, CommandSpec>();
  for (const spec of specs) {
    for (const name of spec.names) {
      // Two specs for one name would silently shadow each other's rules.
      if (registry.has(name)) throw new Error(`approval detector: command "${name}" has two specs`);
      registry.set(name, spec);
    }
  }
  return registry;
}

/**
 * `/???/?m`, `/bin/b?sh`: the described commands a glob in command position can name (the shell runs the
 * first file it matches, so every candidate is what the line might run).
 */
export function commandsMatchingGlob(pattern: string): string[] {
  if (!/[*?[]/.test(pattern)) return [];
  let re: RegExp;
  try {
    re = new RegExp(`^${pattern.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.').replace(/\[!/g, '[^')}$`);
  } catch {
    return [];
  }
  return [...REGISTRY.keys()].filter((name) => re.test(name));
}

export function specFor(name: string): CommandSpec | undefined {
  return REGISTRY.get(name) ?? (name.startsWith('mkfs.') ? REGISTRY.get('mkfs') : undefined);
}
