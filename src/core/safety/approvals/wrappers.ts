import { commandName } from './invocation.js';
import { UNKNOWN } from './scan.js';

/**
 * Commands that run another command, as data: `sudo rm -rf /` is an `rm`. Each entry says which options take
 * a value, how many positional words come before the inner command, which options carry the inner command as
 * one shell string (`su -c`), and which options mean no command follows (`taskset -p`). An option the table
 * does not know might take a value, so both readings are classified: an unknown position never hides a command.
 */
export interface WrapperSpec {
  values?: readonly string[];
  /** Options known to take no value (so no second reading is needed for them). */
  flags?: readonly string[];
  /** Options whose value is shell code (`su -c 'cmd'`, `flock -c`, `script -c`, `env -S`). */
  code?: readonly string[];
  /** Positional words the wrapper consumes before the command (`timeout 5 cmd`: 1). */
  positional?: number;
  /** With one of these options no command follows (`command -v x` looks x up, `taskset -p` takes a pid). */
  noCommand?: readonly string[];
  /** Runs the command as root (reason: sudo). */
  root?: boolean;
  /** The words that follow are joined into one shell string and run by a shell (`ssh host 'rm -rf ~'`, `watch`). */
  joinsArgs?: boolean;
  /** The command runs on another machine (ssh) or in a container. */
  remote?: boolean;
  /** `NAME=value` words are skipped (env, sudo). */
  assignments?: boolean;
  /** The wrapper is a subcommand of this word (`docker exec`, `poetry run`); `a|b` for aliases (`tmux new-session|new`). */
  sub?: string;
  /** Words that may stand between the name and `sub` (`docker compose exec`). */
  between?: readonly string[];
  /** Appends its stdin's words as arguments (xargs). */
  readsArgs?: boolean;
  /** Composes the command line as text and hands it to a shell (GNU parallel): `parallel 'rm -rf {}' ::: ~` is shell code. */
  viaShell?: boolean;
  /** An option matching this runs the command later (`systemd-run --on-calendar`): a scheduled job. */
  schedules?: RegExp;
  /** Options whose value is the directory the command starts in (`env -C /`, `sudo -D /`): relative paths resolve there. */
  chdir?: readonly string[];
  /**
   * With one of these options the words after the options are the command, although the wrapper otherwise takes
   * its command only through a code option (`runuser -u root -- cmd` vs `runuser -l root -c 'cmd'`).
   */
  commandWith?: readonly string[];
  /** After one of these options the remaining words are the command (`nix develop -c cmd …`). */
  commandAfter?: readonly string[];
  /** Options that take two values (`bwrap --bind SRC DEST`, `mpirun --mca NAME VALUE`). */
  pairs?: readonly string[];
  /** Every word after the options is a command line of its own, run by a shell (`hyperfine 'make' 'make -j8'`). */
  everyArgIsCode?: boolean;
  /** A code option's value is shell code only after this prefix (gdb's `-ex 'shell reboot'`, `-ex '!cmd'`). */
  codePrefix?: RegExp;
  /** The words after `--` are arguments to bash (`capsh -- -c 'cmd'` runs `bash -c 'cmd'`). */
  bashAfterDashes?: boolean;
  /** The program has rules of its own too (`screen -X quit`): its own argv is classified as well as what it runs. */
  alsoSelf?: boolean;
  /** The joined words are cmd code (`cmd.exe /c "rd /s /q C:\Users"`): read as their bash equivalents (cmdAsShell). */
  cmdSyntax?: boolean;
}

const WRAPPERS: ReadonlyMap<string, WrapperSpec> = new Map<string, WrapperSpec>([
  ['sudo', { flags: ['-E', '-H', '-n', '-S', '-b', '-P', '-A', '-B', '-k', '-i', '-s', '--preserve-env', '--login', '--shell', '--non-interactive', '--stdin'], values: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-T', '-U', '--user', '--group', '--chdir', '--host', '--prompt', '--role', '--type', '--close-from', '--other-user'], noCommand: ['-l', '-v', '-K', '-e', '--list', '--validate', '--edit', '--remove-timestamp'], root: true, assignments: true, chdir: ['-D', '--chdir'] }],
  // systemd's sudo: root unless told otherwise.
  ['run0', { flags: ['--background', '--slice-inherit', '--no-ask-password'], values: ['-u', '--user', '-g', '--group', '--unit', '--property', '-D', '--chdir', '--description', '--slice', '--nice', '--setenv', '--machine', '--pty-late'], root: true, chdir: ['-D', '--chdir'] }],
  // `cmd.exe /c netsh …` (WSL): the rest of the line is a command for cmd, read as shell words.
  ['cmd.exe', { flags: ['/c', '/C', '/k', '/K', '/q', '/Q', '/d', '/D', '/s', '/S'], joinsArgs: true, cmdSyntax: true }],
  ['cmd', { flags: ['/c', '/C', '/k', '/K', '/q', '/Q', '/d', '/D', '/s', '/S'], joinsArgs: true, cmdSyntax: true }],
  ['doas', { values: ['-u', '-C'], root: true }],
  ['pkexec', { values: ['--user'], root: true }],
  ['su', { values: ['-s', '-g', '-G', '--shell', '--group', '--supp-group'], code: ['-c', '--command', '--session-command'], positional: Number.POSITIVE_INFINITY, root: true }],
  // `runuser -u user -- cmd` runs cmd; `runuser [-l] user -c 'cmd'` takes a user and its command through -c, like su.
  ['runuser', { values: ['-u', '-g', '-G', '-s', '-w', '--user', '--group', '--supp-group', '--shell', '--whitelist-environment'], code: ['-c', '--command', '--session-command'], positional: Number.POSITIVE_INFINITY, commandWith: ['-u', '--user'], root: true }],
  ['env', { values: ['-u', '-C', '--unset', '--chdir'], code: ['-S', '--split-string'], assignments: true, chdir: ['-C', '--chdir'] }],
  ['nice', { values: ['-n', '--adjustment'] }],
  ['ionice', { values: ['-c', '-n', '--class', '--classdata'], noCommand: ['-p', '-P', '-u', '--pid', '--pgid', '--uid'] }],
  ['timeout', { values: ['-s', '-k', '--signal', '--kill-after'], positional: 1 }],
  ['gtimeout', { values: ['-s', '-k', '--signal', '--kill-after'], positional: 1 }],
  ['setsid', {}],
  ['taskset', { positional: 1, noCommand: ['-p', '--pid'] }],
  ['chrt', { values: ['-T', '-P', '-D', '--sched-runtime', '--sched-period', '--sched-deadline'], positional: 1, noCommand: ['-p', '--pid', '-m', '--max'] }],
  ['flock', { values: ['-w', '-E', '--timeout', '--conflict-exit-code'], code: ['-c', '--command'], positional: 1 }],
  ['watch', { values: ['-n', '--interval', '-q', '--equexit'], joinsArgs: true }],
  ['unbuffer', {}],
  ['stdbuf', { values: ['-i', '-o', '-e', '--input', '--output', '--error'] }],
  ['nohup', {}],
  ['strace', { values: ['-e', '-o', '-p', '-s', '-u', '-E', '-P', '-a', '-b', '-I', '-O', '-S', '-X'] }],
  ['ltrace', { values: ['-e', '-o', '-p', '-s', '-u', '-n', '-a', '-A', '-D', '-F', '-l', '-x', '-w'] }],
  ['nsenter', { values: ['-t', '--target', '-S', '--setuid', '-G', '--setgid', '-r', '--root', '-w', '--wd'], root: true, chdir: ['-w', '--wd'] }],
  ['unshare', { values: ['--map-user', '--map-group', '--propagation', '--setgroups', '-S', '--setuid', '-G', '--setgid', '-R', '--root', '-w', '--wd'], chdir: ['-w', '--wd'] }],
  ['chroot', { values: ['--userspec', '--groups'], positional: 1, root: true }],
  ['systemd-run', { values: ['-p', '--property', '-u', '--unit', '--description', '-E', '--setenv', '--slice', '-M', '--machine', '-H', '--host', '--uid', '--gid', '--working-directory', '--nice', '--on-active', '--on-boot', '--on-startup', '--on-unit-active', '--on-unit-inactive', '--on-calendar', '--timer-property', '--path-property', '--socket-property'], schedules: /^--on-/, chdir: ['--working-directory'] }],
  ['busybox', {}],
  // Run as another user or group (`gosu user cmd`, `sg group -c 'cmd'`), in runit/daemontools/s6 style.
  ['gosu', { positional: 1 }],
  ['su-exec', { positional: 1 }],
  ['setuidgid', { positional: 1 }],
  ['s6-setuidgid', { positional: 1 }],
  ['envuidgid', { positional: 1 }],
  ['envdir', { positional: 1 }],
  ['setlock', { flags: ['-n', '-N', '-x', '-X'], positional: 1 }],
  ['softlimit', { values: ['-m', '-a', '-d', '-s', '-l', '-f', '-c', '-o', '-p', '-r', '-t'] }],
  ['chpst', { flags: ['-P', '-0', '-1', '-2', '-v'], values: ['-u', '-U', '-b', '-e', '-/', '-C', '-n', '-l', '-L', '-m', '-d', '-o', '-p', '-f', '-c', '-r', '-t'] }],
  ['sg', { code: ['-c'], positional: 1, joinsArgs: true }],
  ['setpriv', { flags: ['--clear-groups', '--init-groups', '--keep-groups', '--no-new-privs', '--reset-env'], values: ['--reuid', '--regid', '--ruid', '--rgid', '--euid', '--egid', '--groups', '--inh-caps', '--ambient-caps', '--bounding-set', '--securebits', '--pdeathsig', '--selinux-label', '--apparmor-profile', '--landlock-access', '--landlock-rule'], noCommand: ['-d', '--dump', '-L', '--list-caps'] }],
  // Resource and scheduling limits.
  ['numactl', { flags: ['-l', '--localalloc', '-a', '--all', '-b', '--balancing'], values: ['-C', '--physcpubind', '-N', '--cpunodebind', '-m', '--membind', '-i', '--interleave', '-p', '--preferred', '-P', '--preferred-many', '-w', '--weighted-interleave'], noCommand: ['-H', '--hardware', '-s', '--show'] }],
  ['cpulimit', { flags: ['-z', '--lazy', '-i', '--include-children', '-k', '--kill', '-r', '--restore', '-v', '--verbose', '-q', '--quiet', '-f', '--foreground'], values: ['-l', '--limit', '-c', '--cpu'], noCommand: ['-p', '--pid', '-e', '--exe', '-P', '--path'] }],
  ['prlimit', { flags: ['--noheadings', '--raw', '--verbose'], values: ['-o', '--output'], noCommand: ['-p', '--pid'] }],
  ['systemd-inhibit', { values: ['--what', '--who', '--why', '--mode'], noCommand: ['--list'] }],
  ['sandbox-exec', { values: ['-f', '-n', '-p', '-D'] }],
  // macOS `arch -x86_64 cmd`: the architecture is a flag.
  ['arch', { flags: ['-x86_64', '-x86_64h', '-arm64', '-arm64e', '-i386', '-32', '-64', '-c', '-h'], values: ['-e', '-d', '-arch'] }],
  ['faketime', { flags: ['-m', '-f', '--exclude-monotonic'], values: ['--date-prog'], positional: 1 }],
  // Programs that run their arguments as given: debuggers and profilers, init shims, I/O shims, output filters.
  ['valgrind', {}],
  ['eatmydata', {}],
  ['nocache', {}],
  ['chronic', { flags: ['-e', '-v', '-ev'] }],
  ['ifne', { flags: ['-n'] }],
  ['tini', { flags: ['-s', '-v', '-vv', '-vvv', '-w', '-g', '-l'], values: ['-p', '-e'] }],
  ['dumb-init', { flags: ['-c', '--single-child', '-v', '--verbose'], values: ['-r', '--rewrite'] }],
  // Environment and secret loaders (`cross-env X=1 cmd`, `dotenv -e f -- cmd`, `aws-vault exec prof -- cmd`, `op run -- cmd`).
  ['cross-env', { assignments: true }],
  ['cross-env-shell', { assignments: true, joinsArgs: true }],
  ['dotenv', { flags: ['--debug', '-o', '--override', '--quiet'], values: ['-e', '-v', '-p'] }],
  ['env-cmd', { flags: ['--fallback', '--no-override', '--silent', '--use-shell', '--verbose', '-x', '--expand-envs'], values: ['-f', '--file', '-e', '--environments', '-r', '--rc-file'] }],
  ['aws-vault', { sub: 'exec', flags: ['--no-session', '-n', '-j', '--json', '--server', '-s', '--ecs-server', '--lazy', '--stdout'], values: ['-d', '--duration', '-t', '--mfa-token', '-r', '--region', '--prompt', '--backend'], positional: 1 }],
  ['op', { sub: 'run', flags: ['--no-masking'], values: ['--env-file', '--account'] }],
  ['doppler', { sub: 'run', values: ['-p', '--project', '-c', '--config', '--token', '--mount', '--name-transformer'], code: ['--command'] }],
  ['infisical', { sub: 'run', values: ['--env', '--path', '--projectId', '--token'], code: ['--command'] }],
  // Another machine or system: WSL from Windows, VMs and system containers.
  // `alsoSelf`: `wsl --unregister Ubuntu` runs no command but deletes the distribution (its spec: windows.ts).
  ['wsl', { flags: ['-e', '--exec'], values: ['-d', '--distribution', '-u', '--user', '--cd', '--distribution-id', '--shell-type'], noCommand: ['-l', '--list', '--shutdown', '-t', '--terminate', '--unregister', '--install', '--status', '--update', '-s', '--set-default', '--set-version', '--set-default-version', '--export', '--import', '--import-in-place', '--mount', '--unmount', '--manage', '--version', '-v', '--help'], chdir: ['--cd'], alsoSelf: true }],
  ['wsl.exe', { flags: ['-e', '--exec'], values: ['-d', '--distribution', '-u', '--user', '--cd', '--distribution-id', '--shell-type'], noCommand: ['-l', '--list', '--shutdown', '-t', '--terminate', '--unregister', '--install', '--status', '--update', '-s', '--set-default', '--set-version', '--set-default-version', '--export', '--import', '--import-in-place', '--mount', '--unmount', '--manage', '--version', '-v', '--help'], chdir: ['--cd'], alsoSelf: true }],
  ['multipass', { sub: 'exec', values: ['-d', '--working-directory'], positional: 1, remote: true }],
  ['lxc', { sub: 'exec', flags: ['-t', '-T', '--force-interactive', '--force-noninteractive'], values: ['--env', '--user', '--group', '--cwd', '--mode'], positional: 1, remote: true }],
  ['incus', { sub: 'exec', flags: ['-t', '-T', '--force-interactive', '--force-noninteractive'], values: ['--env', '--user', '--group', '--cwd', '--mode'], positional: 1, remote: true }],
  ['vagrant', { sub: 'ssh', code: ['-c', '--command'], positional: Number.POSITIVE_INFINITY, remote: true }],
  ['toolbox', { sub: 'run', values: ['-c', '--container', '-d', '--distro', '-r', '--release'] }],
  ['distrobox', { sub: 'enter', values: ['-n', '--name', '-a', '--additional-flags'], positional: 1 }],
  // Terminal multiplexers start their command detached (`tmux new -d 'cmd'`, `screen -dmS name cmd`).
  ['tmux', { sub: 'new-session|new|new-window|neww|split-window|splitw|respawn-pane|respawnp|respawn-window|respawnw', flags: ['-d', '-A', '-D', '-E', '-P', '-X', '-h', '-v', '-b', '-f', '-Z', '-I', '-k'], values: ['-s', '-n', '-t', '-c', '-x', '-y', '-e', '-F', '-l', '-p'], joinsArgs: true, chdir: ['-c'] }],
  ['screen', { flags: ['-d', '-m', '-dm', '-L', '-a', '-A', '-i', '-l', '-ln', '-O', '-U', '-q'], values: ['-S', '-c', '-e', '-h', '-p', '-T', '-t', '-s', '-Logfile'], noCommand: ['-X', '-r', '-R', '-x', '-ls', '-list', '-wipe', '-D', '-Q', '-v'], alsoSelf: true }],
  // Commands run on many hosts at once, or on a cloud VM through its CLI: remote, like ssh.
  ['pdsh', { flags: ['-S', '-b', '-d', '-N', '-L', '-q', '-V'], values: ['-w', '-x', '-l', '-R', '-f', '-t', '-u', '-g', '-X', '-M'], joinsArgs: true, remote: true }],
  ['pssh', { flags: ['-i', '--inline', '-A', '-v', '-P', '-I', '--inline-stdout'], values: ['-h', '-H', '-l', '-p', '-o', '-e', '-t', '-O', '-x', '-X', '--hosts', '--host', '--user', '--par', '--outdir', '--errdir', '--timeout', '--option', '--extra-args'], joinsArgs: true, remote: true }],
  ['parallel-ssh', { flags: ['-i', '--inline', '-A', '-v', '-P', '-I', '--inline-stdout'], values: ['-h', '-H', '-l', '-p', '-o', '-e', '-t', '-O', '-x', '-X', '--hosts', '--host', '--user', '--par', '--outdir', '--errdir', '--timeout', '--option', '--extra-args'], joinsArgs: true, remote: true }],
  ['clush', { flags: ['-b', '-B', '-a', '-q', '-v', '-L', '-N', '-S', '-d'], values: ['-w', '-x', '-g', '-X', '-l', '-f', '-t', '-u', '-o', '-R', '-E', '--hostfile'], joinsArgs: true, remote: true }],
  // `ansible hosts -m shell -a 'cmd'`: the module's arguments are the command (shell, command, raw).
  ['ansible', { flags: ['-b', '--become', '-K', '-k', '-C', '--check', '-D', '--diff', '-o', '--one-line', '-v', '-vv', '-vvv', '-vvvv'], values: ['-m', '--module-name', '-i', '--inventory', '-u', '--user', '-e', '--extra-vars', '-f', '--forks', '-l', '--limit', '-B', '--background', '-P', '--poll', '--become-user', '--become-method', '-c', '--connection', '-t', '--tree', '-T', '--timeout', '-M', '--module-path', '--private-key', '--vault-password-file', '--vault-id'], code: ['-a', '--args'], positional: 1, remote: true, alsoSelf: true }],
  ['fly', { sub: 'console', between: ['ssh'], values: ['-a', '--app', '-s', '--select', '-u', '--user', '-r', '--region', '--machine', '--address', '--process-group', '-o', '--org', '--container'], code: ['-C', '--command'], remote: true }],
  ['flyctl', { sub: 'console', between: ['ssh'], values: ['-a', '--app', '-s', '--select', '-u', '--user', '-r', '--region', '--machine', '--address', '--process-group', '-o', '--org', '--container'], code: ['-C', '--command'], remote: true }],
  ['gcloud', { sub: 'ssh', between: ['compute', 'alpha', 'beta', 'cloud-shell'], values: ['--zone', '--project', '--ssh-key-file', '--ssh-flag', '--account', '--configuration', '--internal-ip', '--strict-host-key-checking', '--container', '--ssh-key-expire-after'], code: ['--command'], positional: 1, joinsArgs: true, remote: true }],
  ['az', { sub: 'invoke', between: ['vm', 'run-command'], values: ['-g', '--resource-group', '-n', '--name', '--command-id', '--ids', '--subscription', '--parameters'], code: ['--scripts'], remote: true }],
  // Namespaces, cgroups and containers: `ip netns exec ns cmd`, `cgexec -g cpu:grp cmd`, `lxc-attach -n c -- cmd`, `machinectl shell`.
  ['ip', { sub: 'exec', between: ['netns'], flags: ['-a', '-all'], positional: 1 }],
  ['cgexec', { flags: ['--sticky'], values: ['-g'] }],
  ['lxc-attach', { flags: ['--clear-env', '--keep-env', '-q'], values: ['-n', '--name', '-P', '--lxcpath', '-e', '--elevated-privileges', '-s', '--namespaces', '-v', '--set-var', '-u', '--uid', '-g', '--gid', '--context'], remote: true }],
  ['machinectl', { sub: 'shell', values: ['--setenv', '-E', '--uid'], positional: 1, remote: true }],
  ['schroot', { flags: ['-p', '--preserve-environment', '-q', '--quiet'], values: ['-c', '--chroot', '-u', '--user', '-d', '--directory', '-n', '--session-name'] }],
  // Graphical and alternative sudo front ends.
  ['gksudo', { values: ['-u', '--user', '-m', '--message'], root: true }],
  ['gksu', { values: ['-u', '--user', '-m', '--message'], root: true }],
  ['kdesu', { values: ['-u'], code: ['-c'], root: true }],
  ['kdesudo', { values: ['-u'], code: ['-c'], root: true }],
  ['lxsudo', { root: true }],
  ['please', { values: ['-u', '--user', '-d', '--dir', '-t', '--target'], root: true, chdir: ['-d', '--dir'] }],
  ['su-to-root', { code: ['-c'], flags: ['-X', '-p'], root: true }],
  // Programs that run the rest of their words: agents, task queues, session launchers, the dynamic loader, debuggers.
  ['ssh-agent', { flags: ['-a', '-c', '-s', '-D', '-d'], values: ['-E', '-t', '-P', '-O'], noCommand: ['-k', '-l'] }],
  ['dbus-launch', { flags: ['--exit-with-session', '--exit-with-x11', '--sh-syntax', '--csh-syntax', '--close-stderr'], values: ['--config-file', '--autolaunch'] }],
  ['flatpak-spawn', { flags: ['--host', '--clear-env', '--watch-bus', '--expose-pids', '--share-pids', '--no-network', '--sandbox', '--latest-version'], values: ['--env', '--directory', '--forward-fd', '--sandbox-expose', '--sandbox-expose-ro'] }],
  ['tsp', { flags: ['-n', '-g', '-f', '-B'], values: ['-L', '-d', '-D', '-N', '-E'] }],
  ['nq', { flags: ['-c', '-q'] }],
  ['pueue', { sub: 'add', flags: ['-e', '--escape', '-i', '--immediate', '-s', '--stashed', '-p', '--print-task-id', '--follow'], values: ['-w', '--working-directory', '-d', '--delay', '-g', '--group', '-a', '--after', '-o', '--priority', '-l', '--label'] }],
  ['timelimit', { flags: ['-p', '-q'], values: ['-t', '-T', '-s', '-S'] }],
  ['trickle', { flags: ['-s', '-v', '-V'], values: ['-d', '-u', '-w', '-t', '-l', '-n'] }],
  ['daemonize', { flags: ['-a', '-v'], values: ['-c', '-e', '-E', '-o', '-p', '-l', '-u'] }],
  ['ld.so', { flags: ['--inhibit-cache'], values: ['--library-path', '--preload', '--argv0', '--audit', '--inhibit-rpath'], noCommand: ['--list', '--verify', '--help', '--version'] }],
  ['ld-linux-x86-64.so.2', { flags: ['--inhibit-cache'], values: ['--library-path', '--preload', '--argv0', '--audit', '--inhibit-rpath'], noCommand: ['--list', '--verify', '--help', '--version'] }],
  ['ld-linux-aarch64.so.1', { flags: ['--inhibit-cache'], values: ['--library-path', '--preload', '--argv0', '--audit', '--inhibit-rpath'], noCommand: ['--list', '--verify', '--help', '--version'] }],
  ['ld-linux.so.2', { flags: ['--inhibit-cache'], values: ['--library-path', '--preload', '--argv0', '--audit', '--inhibit-rpath'], noCommand: ['--list', '--verify', '--help', '--version'] }],
  ['perf', { sub: 'stat|record|trace', flags: ['-a', '--all-cpus', '-g', '-q', '-v'], values: ['-e', '--event', '-o', '--output', '-p', '--pid', '-t', '--tid', '-F', '--freq', '-c', '--count', '-r', '--repeat', '-C', '--cpu', '-G', '--cgroup', '-I', '--interval-print', '--call-graph'] }],
  // gdb runs `shell CMD` (or `!CMD`) given with -ex as a shell command line.
  ['gdb', { commandAfter: ['--args'], positional: Number.POSITIVE_INFINITY, values: ['-x', '-ix', '-p', '--pid', '-cd', '-d', '-s', '-e', '-se', '-c'], code: ['-ex', '-iex', '--eval-command', '--init-eval-command'], codePrefix: /^\s*(?:shell\s+|!)/ }],
  // libcap's capsh: options are `--name=value`; what follows `--` is handed to /bin/bash.
  ['capsh', { bashAfterDashes: true }],
  ['catchsegv', {}],
  ['sshpass', { flags: ['-e', '-v'], values: ['-p', '-f', '-d', '-P'] }],
  ['parallel', { values: ['-j', '--jobs', '-S', '--sshlogin', '--joblog', '--results', '-N', '--max-args', '--delay', '--timeout', '-a', '--arg-file', '-d', '--delimiter', '-I', '--colsep'], noCommand: ['--dry-run', '--dryrun'], readsArgs: true, viaShell: true }],
  ['toybox', {}],
  ['xargs', { flags: ['-0', '-r', '-t', '-p', '-x', '--null', '--no-run-if-empty', '--verbose', '--interactive', '--exit', '-o', '--open-tty'], values: ['-n', '-I', '-P', '-d', '-L', '-a', '-s', '-E', '-e', '--max-args', '--max-procs', '--delimiter', '--arg-file', '--max-lines', '--replace'], readsArgs: true }],
  ['script', { flags: ['-q', '-a', '-e', '-f', '--quiet', '--append', '--return', '--flush'], values: ['-t', '-T', '-I', '-O', '-B', '-E', '--timing', '--log-in', '--log-out', '--log-io', '--echo'], code: ['-c', '--command'], noCommand: ['-V'], positional: Number.POSITIVE_INFINITY }],
  ['shx', {}],
  ['time', { values: ['-f', '-o', '--format', '--output'] }],
  ['command', { noCommand: ['-v', '-V'] }],
  ['builtin', {}],
  // `coproc cmd`, `coproc { cmd; }`: bash runs it in the background.
  ['coproc', {}],
  ['exec', { values: ['-a'] }],
  ['firejail', {}],
  ['proot', { values: ['-r', '-b', '-m', '-w', '-q', '-k', '--rootfs', '--bind', '--mount', '--cwd', '--qemu', '--kernel-release'], chdir: ['-w', '--cwd'] }],
  ['caffeinate', { values: ['-t', '-w'] }],
  ['entr', { code: ['-s'] }],
  ['mosh', { values: ['-p', '--port', '--ssh', '--server', '--predict', '--family', '--bind-server'], positional: 1, joinsArgs: true, remote: true }],
  ['ssh', { flags: ['-4', '-6', '-A', '-a', '-C', '-f', '-G', '-g', '-K', '-k', '-M', '-N', '-n', '-q', '-s', '-T', '-t', '-V', '-v', '-X', '-x', '-Y', '-y'], values: ['-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L', '-l', '-m', '-O', '-o', '-p', '-Q', '-R', '-S', '-W', '-w', '-B'], positional: 1, joinsArgs: true, remote: true }],
  ['docker', { sub: 'exec', between: ['compose'], values: ['-e', '--env', '--env-file', '-u', '--user', '-w', '--workdir', '--detach-keys', '--index', '-f', '--file', '-p', '--project-name'], positional: 1, remote: true }],
  ['podman', { sub: 'exec', between: ['compose'], values: ['-e', '--env', '--env-file', '-u', '--user', '-w', '--workdir', '--detach-keys', '--index', '-f', '--file', '-p', '--project-name'], positional: 1, remote: true }],
  ['docker-compose', { sub: 'exec', values: ['-e', '--env', '-u', '--user', '-w', '--workdir', '--index', '-f', '--file', '-p', '--project-name'], positional: 1, remote: true }],
  ['kubectl', { sub: 'exec', values: ['-c', '--container', '-n', '--namespace', '--context', '-f', '--filename', '--pod-running-timeout'], positional: 1, remote: true }],
  // `adb shell CMD…` joins its words into one line for the connected Android device's shell (as ssh does for a host).
  ['adb', { sub: 'shell', flags: ['-d', '-e', '-T', '-t', '-x', '-n'], values: ['-s', '-H', '-P', '-L'], joinsArgs: true, remote: true }],
  ['oc', { sub: 'exec', values: ['-c', '--container', '-n', '--namespace'], positional: 1, remote: true }],
  ['npx', { values: ['-p', '--package'], code: ['-c', '--call'] }],
  ['npm', { sub: 'exec', values: ['-p', '--package', '-w', '--workspace'], code: ['-c', '--call'] }],
  ['pnpm', { sub: 'dlx|exec', values: ['-p', '--package', '-C', '--dir', '--filter'], code: ['-c', '--shell-mode'] }],
  // yarn 1's `exec` runs its words as a shell command.
  ['yarn', { sub: 'dlx|exec', values: ['-p', '--package'], joinsArgs: true }],
  ['bunx', { values: ['-p', '--package'] }],
  ['poetry', { sub: 'run' }],
  ['pipenv', { sub: 'run' }],
  ['uv', { sub: 'run', values: ['--with', '--python', '-p', '--project', '--directory', '--env-file'] }],
  ['pdm', { sub: 'run' }],
  ['bundle', { sub: 'exec' }],
  ['conda', { sub: 'run', values: ['-n', '--name', '-p', '--prefix'] }],
  ['mise', { sub: 'exec|x', values: ['-C', '--cd', '-j', '--jobs'], code: ['-c', '--command'], chdir: ['-C', '--cd'] }],
  // Version managers and project runners: `asdf exec`, `nvm exec 20 cmd`, `rbenv exec`, `pixi run`, `hatch run`…
  ['asdf', { sub: 'exec' }],
  ['nvm', { sub: 'exec|run', flags: ['--silent', '--lts'], positional: 1 }],
  ['rbenv', { sub: 'exec' }],
  ['pyenv', { sub: 'exec' }],
  ['nodenv', { sub: 'exec' }],
  ['goenv', { sub: 'exec' }],
  ['jenv', { sub: 'exec' }],
  ['pixi', { sub: 'run|exec', values: ['-e', '--environment', '--manifest-path'] }],
  ['hatch', { sub: 'run', values: ['-e', '--env'] }],
  ['rye', { sub: 'run' }],
  ['devbox', { sub: 'run', values: ['-c', '--config', '-e', '--env'] }],
  ['bun', { sub: 'x', values: ['-p', '--package'] }],
  // `nix develop -c cmd …`, `nix shell pkgs -c cmd …`: the words after -c are the command.
  ['nix', { sub: 'develop|shell', commandAfter: ['-c', '--command'], positional: Number.POSITIVE_INFINITY }],
  ['nodemon', { values: ['-w', '--watch', '-e', '--ext', '-i', '--ignore', '-d', '--delay', '--signal', '-x'], code: ['--exec'] }],
  ['watchexec', { flags: ['-r', '--restart', '-c', '--clear', '-n', '-N', '--notify', '-W', '--postpone', '-p', '-1', '-q', '--quiet', '-o'], values: ['-e', '--exts', '-w', '--watch', '-i', '--ignore', '-d', '--debounce', '-s', '--signal', '--shell', '-f', '--filter', '--on-busy-update', '--project-origin', '--workdir', '-E', '--env', '--delay-run', '--stop-signal', '--stop-timeout'], joinsArgs: true }],
  ['cargo', { sub: 'watch', values: ['-x', '--exec', '-w', '--watch', '-i', '--ignore', '-d', '--delay', '-C', '--workdir'], code: ['-s', '--shell'] }],
  ['direnv', { sub: 'exec', positional: 1 }],
  ['nix-shell', { code: ['--run', '--command'], values: ['-p', '--packages', '-I', '--arg', '--argstr', '-A'] }],
  ['torsocks', {}],
  ['proxychains', { values: ['-f'] }],
  ['proxychains4', { values: ['-f'] }],
  ['xvfb-run', { values: ['-n', '-s', '-f', '-e', '-p', '--server-num', '--server-args', '--auth-file', '--error-file'] }],
  ['dbus-run-session', {}],
  // Sandboxes and personalities that run the command on this machine's files (`bwrap --bind / / cmd`, `fakeroot cmd`).
  ['bwrap', { flags: ['--unshare-all', '--share-net', '--unshare-user', '--unshare-user-try', '--unshare-ipc', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-cgroup', '--unshare-cgroup-try', '--die-with-parent', '--new-session', '--as-pid-1', '--clearenv', '--disable-userns', '--assert-userns-disabled'], values: ['--args', '--userns', '--userns2', '--pidns', '--uid', '--gid', '--hostname', '--chdir', '--unsetenv', '--lock-file', '--sync-fd', '--remount-ro', '--exec-label', '--file-label', '--proc', '--dev', '--tmpfs', '--mqueue', '--dir', '--seccomp', '--add-seccomp-fd', '--block-fd', '--userns-block-fd', '--info-fd', '--json-status-fd', '--cap-add', '--cap-drop', '--perms', '--size', '--argv0'], pairs: ['--bind', '--bind-try', '--dev-bind', '--dev-bind-try', '--ro-bind', '--ro-bind-try', '--bind-fd', '--ro-bind-fd', '--symlink', '--setenv', '--file', '--bind-data', '--ro-bind-data', '--chmod', '--overlay-src'], chdir: ['--chdir'] }],
  ['fakeroot', { flags: ['-u', '--unknown-is-real'], values: ['-l', '--lib', '--faked', '-s', '-i', '-b'] }],
  ['fakechroot', { flags: ['-s', '--use-system-libs'], values: ['-l', '--lib', '-d', '--elfloader', '-e', '--environment', '-c', '--config-dir'] }],
  ['setarch', { flags: ['-v', '--verbose', '-3', '--3gb', '-B', '--32bit', '-F', '--fdpic-funcptrs', '-I', '--short-inode', '-L', '--addr-compat-layout', '-R', '--addr-no-randomize', '-S', '--whole-seconds', '-T', '--sticky-timeouts', '-X', '--read-implies-exec', '-Z', '--mmap-page-zero', '--uname-2.6'], positional: 1, noCommand: ['--list'] }],
  ['linux32', { flags: ['-v', '--verbose', '-3', '--3gb', '-B', '--32bit', '-R', '--addr-no-randomize', '-L', '--addr-compat-layout', '--uname-2.6'] }],
  ['linux64', { flags: ['-v', '--verbose', '-3', '--3gb', '-B', '--32bit', '-R', '--addr-no-randomize', '-L', '--addr-compat-layout', '--uname-2.6'] }],
  // Security labels and profiles (`aa-exec -p prof -- cmd`, `runcon -t type cmd`).
  ['aa-exec', { flags: ['-i', '--immediate', '-v', '--verbose', '-d', '--debug'], values: ['-p', '--profile', '-n', '--namespace'] }],
  ['runcon', { flags: ['--compute'], values: ['-u', '--user', '-r', '--role', '-t', '--type', '-l', '--range'] }],
  // `logsave LOGFILE cmd`: runs the command and saves its output.
  ['logsave', { flags: ['-a', '-s', '-v'], positional: 1 }],
  // Detached sessions: `dtach -n SOCKET cmd`, `abduco -n NAME cmd`.
  ['dtach', { flags: ['-E', '-z', '-N'], values: ['-n', '-c', '-A', '-e', '-r'], noCommand: ['-a', '-p'] }],
  ['abduco', { flags: ['-r', '-f', '-l', '-q'], values: ['-n', '-c', '-A', '-e'], noCommand: ['-a'] }],
  // MPI and batch launchers: `mpirun -np 4 cmd`, `srun -N 2 cmd` (on the cluster's nodes, which share the home directory).
  ['mpirun', { flags: ['--oversubscribe', '--allow-run-as-root', '-q', '--quiet', '-v', '--verbose', '--tag-output', '--timestamp-output', '--report-bindings'], values: ['-np', '-n', '-c', '-H', '--host', '-hostfile', '--hostfile', '-machinefile', '--machinefile', '-x', '--map-by', '--bind-to', '--rank-by', '-wdir', '--wdir', '-npernode', '--npernode', '--prefix', '--output-filename'], pairs: ['--mca', '-mca'] }],
  ['mpiexec', { flags: ['--oversubscribe', '--allow-run-as-root', '-q', '--quiet', '-v', '--verbose', '--tag-output'], values: ['-np', '-n', '-c', '-H', '--host', '-hostfile', '--hostfile', '-machinefile', '--machinefile', '-x', '--map-by', '--bind-to', '-wdir', '--wdir', '-ppn', '-f', '-hosts'], pairs: ['--mca', '-mca', '-genv', '-env'] }],
  ['srun', { flags: ['-l', '--label', '-u', '--unbuffered', '-v', '--verbose', '-Q', '--quiet', '--exclusive', '--pty', '-K', '--kill-on-bad-exit'], values: ['-n', '--ntasks', '-N', '--nodes', '-p', '--partition', '-t', '--time', '-c', '--cpus-per-task', '-J', '--job-name', '-A', '--account', '-w', '--nodelist', '-x', '--exclude', '-o', '--output', '-e', '--error', '-D', '--chdir', '-G', '--gpus', '--mem', '--gres', '--qos', '--ntasks-per-node', '-C', '--constraint'] }],
  // Terminal emulators run their command in a new window: `xterm -e cmd …`, `gnome-terminal -- cmd …`.
  ['xterm', { commandAfter: ['-e'], positional: Number.POSITIVE_INFINITY, values: ['-T', '-title', '-n', '-geometry', '-g', '-fa', '-fs', '-fn', '-bg', '-fg', '-class', '-name', '-xrm', '-bd', '-bw', '-cr', '-e'] }],
  ['uxterm', { commandAfter: ['-e'], positional: Number.POSITIVE_INFINITY, values: ['-T', '-title', '-n', '-geometry', '-g', '-fa', '-fs', '-fn', '-bg', '-fg', '-class', '-name', '-xrm'] }],
  ['urxvt', { commandAfter: ['-e'], positional: Number.POSITIVE_INFINITY, values: ['-T', '-title', '-n', '-geometry', '-g', '-fn', '-bg', '-fg', '-name', '-cd'] }],
  ['konsole', { commandAfter: ['-e'], positional: Number.POSITIVE_INFINITY, values: ['-p', '--profile', '--workdir', '--layout', '--tabs-from-file'] }],
  ['alacritty', { commandAfter: ['-e', '--command'], positional: Number.POSITIVE_INFINITY, values: ['-T', '--title', '--class', '--config-file', '-o', '--option', '--working-directory', '--socket'] }],
  ['gnome-terminal', { commandAfter: ['-x', '--execute'], code: ['-e', '--command'], flags: ['--window', '--tab', '--maximize', '--full-screen', '--wait', '-q', '--quiet'], values: ['-t', '--title', '--working-directory', '--profile', '--geometry', '--zoom', '--role', '--class', '--name'], chdir: ['--working-directory'] }],
  ['xfce4-terminal', { commandAfter: ['-x', '--execute'], code: ['-e', '--command'], flags: ['--tab', '--window', '--hold', '-H', '--maximize', '--fullscreen'], values: ['-T', '--title', '--working-directory', '--geometry', '--role', '--zoom'], chdir: ['--working-directory'] }],
  ['terminator', { commandAfter: ['-x', '--execute'], code: ['-e', '--command'], flags: ['-m', '--maximise', '-f', '--fullscreen', '-b', '--borderless', '-H', '--hidden', '--new-tab'], values: ['-T', '--title', '-g', '--config', '-l', '--layout', '-p', '--profile', '--working-directory'], chdir: ['--working-directory'] }],
  // Line-editing and job-queue front ends that run their command as given (`rlwrap cmd`), or through a shell (`sem cmd`).
  ['rlwrap', { flags: ['-A', '--ansi-colour-aware', '-c', '--complete-filenames', '-i', '--case-insensitive', '-m', '--multi-line', '-n', '--no-warnings', '-N', '--no-children', '-r', '--remember', '-R', '--renice', '-v', '--version', '-W', '--polling'], values: ['-a', '--always-readline', '-b', '--break-chars', '-C', '--command-name', '-D', '--history-no-dupes', '-e', '--extra-char-after-completion', '-f', '--file', '-g', '--forget-matching', '-H', '--history-filename', '-l', '--logfile', '-o', '--one-shot', '-O', '--only-cook', '-p', '--prompt-colour', '-P', '--pre-given', '-q', '--quote-characters', '-s', '--histsize', '-S', '--substitute-prompt', '-t', '--set-term-name', '-w', '--wait-before-prompt', '-z', '--filter'] }],
  ['sem', { flags: ['--fg', '--bg', '--wait', '-u', '--ungroup', '--line-buffer'], values: ['-j', '--jobs', '--id', '--semaphorename', '--st', '--semaphoretimeout'], joinsArgs: true }],
  // `hyperfine 'cmd' 'cmd2'`: each argument is a shell command, run (and the setup, prepare and cleanup commands too).
  ['hyperfine', { flags: ['-N', '--shell=none', '-i', '--ignore-failure', '--show-output', '--input', '-D'], values: ['-w', '--warmup', '-m', '--min-runs', '-M', '--max-runs', '-r', '--runs', '-S', '--shell', '--style', '--sort', '-u', '--time-unit', '--export-asciidoc', '--export-csv', '--export-json', '--export-markdown', '--export-orgmode', '-n', '--command-name', '--output', '--reference'], code: ['-s', '--setup', '-p', '--prepare', '-c', '--cleanup', '--conclude'], everyArgIsCode: true }],
]);

/** One command the wrapper stack runs: its argv, and what the wrappers around it imply. */
export interface Unwrapped {
  argv: string[];
  /** Shell code given as one string (`su -c '…'`, `ssh host '…'`), to be parsed and classified. */
  code: string[];
  wrappers: string[];
  root: boolean;
  remote: boolean;
  scheduled: boolean;
  /** The directory a wrapper started the command in (`env -C /`), as written; null when none did. */
  cwd: string | null;
}

/** Also gives the positions an unknown option could shift the command to, each read as its own candidate. */
export function unwrap(argv: readonly string[], stdinWords: string[] | null, stdinText: string | null = null): Unwrapped[] {
  const results: Unwrapped[] = [];
  unwrapInto([...argv], { argv: [], code: [], wrappers: [], root: false, remote: false, scheduled: false, cwd: null }, stdinWords, stdinText, results, 0);
  return results;
}

/** xargs's replace string: `-I%` or `-I %`, `--replace=X`; `{}` by default and for `-i`/`--replace`. */
function replaceString(options: readonly string[]): string {
  for (let k = options.length - 1; k >= 0; k -= 1) {
    const o = options[k] as string;
    if (o === '-I') return options[k + 1] || '{}';
    if (o.startsWith('-I') && o.length > 2) return o.slice(2);
    if (o.startsWith('--replace=') && o.length > '--replace='.length) return o.slice('--replace='.length);
  }
  return '{}';
}

/** xargs's own options say how its input splits: `-0`/`--null` on NUL, `-d X` on X; null when on blanks (or unknown). */
function delimitedWords(options: readonly string[], stdinText: string | null): string[] | null {
  if (stdinText === null) return null;
  let delimiter: string | null = null;
  for (let k = 0; k < options.length; k += 1) {
    const o = options[k] as string;
    if (o === '-0' || o === '--null' || /^-[rtx]*0[rtx]*$/.test(o)) delimiter = '\0';
    // `-I{}` (`-i`, `--replace`) takes whole lines, leading blanks removed.
    else if (/^(-I|-i|--replace)/.test(o) && delimiter === null) delimiter = 'line';
    else if (o === '-d' || o === '--delimiter') delimiter = options[k + 1] ?? null;
    else if (o.startsWith('--delimiter=')) delimiter = o.slice('--delimiter='.length);
  }
  if (delimiter === null) return null;
  if (delimiter === 'line') return stdinText.split('\n').map((l) => l.replace(/^[ \t]+/, '')).filter((l) => l !== '');
  const separator = delimiter === '\\n' ? '\n' : delimiter === '\\0' ? '\0' : delimiter;
  return stdinText.split(separator).filter((w, k, all) => w !== '' || k < all.length - 1);
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** Candidate readings per line; enough for a few unknown options in a stack of wrappers. */
const MAX_CANDIDATES = 8;

function unwrapInto(argv: string[], outer: Unwrapped, stdinWords: string[] | null, stdinText: string | null, results: Unwrapped[], guard: number): void {
  if (results.length >= MAX_CANDIDATES) return;
  let start = 0;
  while (start < argv.length && ASSIGNMENT.test(argv[start] as string)) start += 1;
  // `time { rm -rf ~; }`, `coproc { reboot; }`: tree-sitter reads the group's `{` as the wrapper's next word.
  while (guard > 0 && (argv[start] === '{' || argv[start] === '(')) start += 1;
  const name = commandName(argv[start] ?? '');
  const spec = WRAPPERS.get(name);
  const subAt = spec?.sub === undefined ? start : subcommandAt(argv, spec.sub, start + 1);
  if (spec === undefined || guard > 16 || subAt === -1 || (spec.sub !== undefined && argv.slice(start + 1, subAt).some((w) => !w.startsWith('-') && spec.between?.includes(w) !== true))) {
    results.push({ ...outer, argv: argv.slice(start) });
    return;
  }
  if (spec.alsoSelf === true) results.push({ ...outer, argv: argv.slice(start) });
  const here: Unwrapped = { ...outer, code: [...outer.code], wrappers: [...outer.wrappers, name], root: outer.root || spec.root === true, remote: outer.remote || spec.remote === true };
  const { values, codeOptions } = optionSets(spec);
  const alternatives: number[] = [];
  let positional = spec.positional ?? 0;
  let commandForm = false;
  let afterDashes = false;
  let i = subAt + 1;
  for (; i < argv.length; i += 1) {
    const word = argv[i] as string;
    if (word === '--') {
      i += 1;
      afterDashes = true;
      break;
    }
    if (/^-\d+$/.test(word) && name === 'nice') continue;
    // cmd.exe spells its switches `/c`.
    if ((word.startsWith('-') && word.length > 1) || spec.flags?.includes(word) === true) {
      const [option = word, attached] = word.startsWith('--') ? word.split(/=(.*)/s) : [word];
      if (spec.schedules?.test(option) === true) here.scheduled = true;
      if (spec.noCommand?.includes(option) === true) {
        if (here.code.length > 0 || here.root) results.push({ ...here, argv: [] });
        return;
      }
      if (codeOptions.has(option)) {
        const value = attached ?? argv[i + 1] ?? '';
        const prefix = spec.codePrefix?.exec(value);
        if (spec.codePrefix === undefined) here.code.push(value);
        else if (prefix !== null && prefix !== undefined) here.code.push(value.slice(prefix[0].length));
        if (attached === undefined) i += 1;
        continue;
      }
      // `su -c'cmd'`, `env -S'cmd'`: the code attached to its short option.
      if (attached === undefined && !option.startsWith('--') && option.length > 2 && codeOptions.has(option.slice(0, 2))) {
        here.code.push(option.slice(2));
        continue;
      }
      // `script -qc 'cmd'`, `su -lc 'cmd'`: a cluster of short flags ending in the code option.
      const clusteredCode = clusterEndingIn(option, codeOptions);
      if (attached === undefined && clusteredCode) {
        here.code.push(argv[i + 1] ?? '');
        i += 1;
        continue;
      }
      if (spec.commandAfter?.includes(option) === true) {
        i += 1;
        commandForm = true;
        break;
      }
      if (spec.commandWith?.includes(option) === true) {
        commandForm = true;
        positional = 0;
      }
      if (spec.chdir?.includes(option) === true) here.cwd = attached ?? argv[i + 1] ?? null;
      const consumed = attached === undefined ? (spec.flags?.includes(option) === true ? 0 : spec.pairs?.includes(option) === true ? 2 : valueConsumed(option, values)) : 0;
      if (consumed === null) alternatives.push(i + 2);
      i += consumed ?? 0;
      continue;
    }
    if (spec.assignments === true && ASSIGNMENT.test(word)) continue;
    if (positional > 0) {
      // `su root -c …`: su's user is optional and its command comes only through -c.
      if (positional === Number.POSITIVE_INFINITY) continue;
      positional -= 1;
      continue;
    }
    break;
  }
  if (spec.positional === Number.POSITIVE_INFINITY && !commandForm) i = argv.length;
  const readings = [i, ...alternatives.filter((a) => a !== i && a <= argv.length)];
  for (const at of readings) {
    let inner = argv.slice(at);
    if (spec.bashAfterDashes === true && afterDashes) inner = ['bash', ...inner];
    // `xterm -e 'pkill -f vite'`: one word with blanks after the command option is handed to a shell.
    if (commandForm && spec.commandAfter !== undefined && inner.length === 1 && /\s/.test(inner[0] as string)) {
      here.code.push(inner[0] as string);
      inner = [];
    }
    if (spec.everyArgIsCode === true) {
      // Options may follow the commands: their values are skipped, every other word is a command line.
      here.code.push(...inner.filter((w, k) => !w.startsWith('-') && !values.has(inner[k - 1] ?? '')));
      inner = [];
    }
    if (spec.joinsArgs === true && inner.length > 0) {
      // ssh and adb join the words with spaces and the far shell splits them again (`ssh h echo "a; rm -rf /"` runs
      // rm); Windows gets cmd's words as separate arguments, quoted where they hold spaces (`/fi "STATUS eq RUNNING"`).
      const quoted = inner.length === 1 ? (inner[0] as string) : inner.map((w) => (/\s/.test(w) && !/"/.test(w) ? `"${w}"` : w)).join(' ');
      here.code.push(spec.cmdSyntax === true ? cmdAsShell(quoted) : inner.join(' '));
      inner = [];
    }
    if (spec.readsArgs === true) {
      // `parallel rm -rf ::: / ~`: the arguments follow `:::` instead of arriving on stdin.
      const separator = inner.indexOf(':::');
      const template = separator === -1 ? inner : inner.slice(0, separator);
      // `xargs -0`, `xargs -d '\n'`: the input split on its delimiter, not on blanks (`… | xargs -0 sh -c` runs it whole).
      const words = name === 'xargs' ? delimitedWords(argv.slice(subAt + 1, at), stdinText) ?? stdinWords : stdinWords;
      const placeholder = name === 'xargs' ? replaceString(argv.slice(subAt + 1, at)) : '{}';
      inner = separator === -1 ? withArguments(inner, words, placeholder) : withArguments(template, inner.slice(separator + 1).filter((w) => w !== ':::'));
      if (spec.viaShell === true && template.length === 0 && separator === -1 && stdinText !== null) {
        // `printf 'cmd\n' | parallel`: with no command and no `:::`, each input line is a command line.
        here.code.push(...stdinText.split('\n').filter((l) => l.trim() !== ''));
        inner = [];
      } else if (spec.viaShell === true && template.length === 0 && separator !== -1) {
        // `parallel ::: 'rm -rf ~' reboot`: with no command, every argument is a command line.
        here.code.push(...inner.slice(1));
        inner = [];
      } else if (spec.viaShell === true && template.some((w) => /\s/.test(w))) {
        here.code.push(inner.join(' '));
        inner = [];
      }
    }
    if (inner.length === 0) results.push({ ...here, argv: [] });
    else unwrapInto(inner, { ...here, code: [...here.code] }, stdinWords, stdinText, results, guard + 1);
  }
}

/** Each spec's value and code options as sets, built once. */
const OPTION_SETS = new WeakMap<WrapperSpec, { values: ReadonlySet<string>; codeOptions: ReadonlySet<string> }>();

function optionSets(spec: WrapperSpec): { values: ReadonlySet<string>; codeOptions: ReadonlySet<string> } {
  let sets = OPTION_SETS.get(spec);
  if (sets === undefined) {
    sets = { values: new Set(spec.values ?? []), codeOptions: new Set(spec.code ?? []) };
    OPTION_SETS.set(spec, sets);
  }
  return sets;
}

/** Where the wrapper's subcommand (`exec`, or one of `a|b` aliases) stands, or -1. */
function subcommandAt(argv: readonly string[], sub: string, from: number): number {
  if (!sub.includes('|')) return argv.indexOf(sub, from);
  const names = sub.split('|');
  return argv.findIndex((w, i) => i >= from && names.includes(w));
}

/** `-qc`: short flags with no value, the last of which is one of `options`. */
function clusterEndingIn(option: string, options: ReadonlySet<string>): boolean {
  return !option.startsWith('--') && option.length > 2 && /^-[a-zA-Z]+$/.test(option) && options.has(`-${option.at(-1) as string}`);
}

/** Words an option consumes: 1 when it takes a value, 0 when not, null when the table does not know it. */
function valueConsumed(option: string, values: ReadonlySet<string>): number | null {
  if (values.has(option)) return 1;
  // `parallel --halt now,fail=1 cmd`: an unknown long option may take the next word too.
  if (option.startsWith('--')) return null;
  // `-iu root`: a cluster of short flags whose last letter takes the value.
  for (let k = 1; k < option.length; k += 1) {
    if (!values.has(`-${option[k] as string}`)) continue;
    return k === option.length - 1 ? 1 : 0;
  }
  return option.length === 2 ? null : 0;
}

/** `… | xargs rm -rf`: the piped words become arguments; unknown input stays unknown, never empty. */
function withArguments(template: string[], stdinWords: string[] | null, placeholder = '{}'): string[] {
  const words = stdinWords ?? [UNKNOWN];
  const base = template.length === 0 ? ['echo'] : template;
  if (base.some((w) => w.includes(placeholder))) return base.map((w) => w.replaceAll(placeholder, words[0] ?? UNKNOWN));
  return [...base, ...words];
}

/**
 * Where cmd's environment variables point, as the bash paths the rules know: the profile is home, its AppData (and the
 * temp directory inside it) lie outside the workspace, the Windows directory is a system one. Others stay unknown.
 */
const CMD_VARIABLES: ReadonlyMap<string, string> = new Map([
  ['userprofile', '~'],
  ['homedrive', '/mnt/c'],
  ['homepath', '~'],
  ['appdata', '~/AppData/Roaming'],
  ['localappdata', '~/AppData/Local'],
  ['temp', '~/AppData/Local/Temp'],
  ['tmp', '~/AppData/Local/Temp'],
  ['systemdrive', '/mnt/c'],
  ['systemroot', '/mnt/c/Windows'],
  ['windir', '/mnt/c/Windows'],
  ['programdata', '/mnt/c/ProgramData'],
]);

/** cmd commands and the bash command each is read as: `rd /s` (and `rmdir /s`) deletes a tree, `del` deletes files. */
const CMD_COMMANDS: ReadonlyArray<[RegExp, string]> = [
  [/^(rd|rmdir)(\s+\/[a-z](?=\s|$))*\s+\/s(\s+\/[a-z](?=\s|$))*(?=\s|$)/i, 'rm -rf'],
  [/^(rd|rmdir)(\s+\/[a-z](?=\s|$))*(?=\s|$)/i, 'rmdir'],
  // `del /s` deletes the matching files in every subdirectory too: a recursive delete of what the pattern names.
  [/^(del|erase)(\s+\/[a-z](:\S*)?(?=\s|$))*\s+\/s(\s+\/[a-z](:\S*)?(?=\s|$))*(?=\s|$)/i, 'rm -rf'],
  [/^(del|erase)(\s+\/[a-z](:\S*)?(?=\s|$))*(?=\s|$)/i, 'rm -f'],
];

/**
 * cmd code read as bash: `%VAR%` expanded where CMD_VARIABLES knows it (else a bash variable, unknown), `C:\x\y` as
 * its WSL mount `/mnt/c/x/y`, and the delete commands as rm. Command separators (`&`, `&&`, `||`, `|`) are bash's too.
 */
export function cmdAsShell(code: string): string {
  const expanded = code
    .replace(/%(\w+)%/g, (_, variable: string) => CMD_VARIABLES.get(variable.toLowerCase()) ?? `\${${variable}}`)
    .replace(/(^|[\s"'=])([a-zA-Z]):(?:[\\/]|(?=[\s"']|$))/g, (_, before: string, drive: string) => `${before}/mnt/${drive.toLowerCase()}/`)
    .replace(/(\/mnt\/[a-z]|~)[^\s"'&|<>]*/g, (path) => path.replace(/\\/g, '/'));
  return expanded
    .split(/(\s*(?:&&|\|\||&|\|)\s*)/)
    .map((part) => {
      for (const [pattern, bash] of CMD_COMMANDS) if (pattern.test(part)) return part.replace(pattern, bash);
      return part;
    })
    .join('');
}

export function isWrapper(name: string): boolean {
  return WRAPPERS.has(name);
}
