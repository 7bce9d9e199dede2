import { describe, expect, it } from 'vitest';
import { classifyCommand, type DetectorContext } from '../src/core/safety/approvals/detector.js';

/**
 * Kill-everything, wrapped and obfuscated hardline shapes that the rules missed on the dev lines added on
 * 2026-12-02 (session 2), each block one defect class, with the neighbours that must keep their verdict.
 */
const ctx: DetectorContext = { workspace: '/home/dev/project', cwd: '/home/dev/project', home: '/home/dev' };
const verdict = (command: string): string => classifyCommand(command, ctx).verdict;
const expectVerdicts = (cases: ReadonlyArray<readonly [string, string]>): void => {
  for (const [command, expected] of cases) expect([command, verdict(command)]).toEqual([command, expected]);
};

describe('kill: signal and pid spellings', () => {
  it("reads bash's attached signal forms (`-sKILL`, `-n9`) and keeps `-sigkill` a signal name", () => {
    expectVerdicts([
      ['kill -sKILL 1', 'hardline'],
      ['kill -n9 1', 'hardline'],
      ['kill -sigkill 1', 'hardline'],
      ['kill -sTERM 1', 'dangerous'],
      ['kill -n15 1', 'dangerous'],
    ]);
  });

  it('reads pids as integers: `-01` is -1, `+1` and `001` are 1', () => {
    expectVerdicts([
      ['kill -9 -01', 'hardline'],
      ['kill -KILL 001', 'hardline'],
      ['kill -9 +1', 'hardline'],
      ['kill 01', 'dangerous'],
      ['kill -0 -01', 'safe'],
    ]);
  });

  it("`killall -s` is killall's signal (pkill's `-s` is a session), and `/proc/*` lists every process", () => {
    expectVerdicts([
      ['killall -s KILL init', 'hardline'],
      ['killall -s KILL -e systemd', 'hardline'],
      ['killall -s KILL node', 'dangerous'],
      ['pkill -9 -s 0 init', 'dangerous'],
      ['for p in /proc/*; do kill -9 ${p##*/}; done', 'hardline'],
      ['for p in /proc/*; do cat $p/comm 2>/dev/null; done', 'safe'],
    ]);
  });

  it('PowerShell and taskkill: every process when nothing filters it', () => {
    expectVerdicts([
      ["pwsh -c 'Get-Process | Stop-Process -Force'", 'hardline'],
      ["pwsh -c 'Stop-Process -Name * -Force'", 'hardline'],
      ['taskkill.exe /f /fi "PID ge 0"', 'hardline'],
      ['taskkill /F /IM *', 'dangerous'],
      ["pwsh -c 'Get-Process | Where-Object { $_.Name -eq \"node\" } | Stop-Process'", 'dangerous'],
      ['taskkill /F /IM node.exe', 'dangerous'],
      ["pwsh -c 'Get-Process | Sort-Object CPU -Descending | Select-Object -First 5'", 'safe'],
    ]);
  });

  it('evaluates integer arithmetic in pids and signals', () => {
    expectVerdicts([
      ['kill -9 $((-1))', 'hardline'],
      ['kill -9 $((2-3))', 'hardline'],
      ['kill -$((3*3)) 1', 'hardline'],
      ['n=4; kill -9 $((n-5))', 'hardline'],
      ['kill -9 $(( 010 - 9 ))', 'hardline'],
      ['kill -9 $(( ~0 ))', 'hardline'],
      ['kill -9 $(( !1 ))', 'dangerous'],
      ['kill -$((10+5)) 1', 'dangerous'],
      ['kill $((RANDOM))', 'dangerous'],
      ['echo $((6*7))', 'safe'],
    ]);
  });
});

describe('wrappers and control structures', () => {
  it('`> >(sh)` feeds the command output to the process substitution, stderr redirects do not', () => {
    expectVerdicts([
      ["echo 'rm -rf ~' > >(bash)", 'hardline'],
      ['{ echo reboot; } > >(sh)', 'hardline'],
      ['echo hi > >(cat)', 'safe'],
      ['make 2> >(tee build-errors.log)', 'safe'],
    ]);
  });

  it('`trap -- handler SIGNAL` runs the handler, also a function defined after the trap; `trap - EXIT` and `trap -p` do not', () => {
    expectVerdicts([
      ["trap -- 'rm -rf /' ERR", 'hardline'],
      ['trap cleanup EXIT; cleanup() { rm -rf ~; }', 'hardline'],
      ['trap cleanup EXIT; cleanup() { rm -rf build/tmp; }', 'safe'],
      ['trap - EXIT', 'safe'],
      ['trap -p', 'safe'],
    ]);
  });

  it('a bare `/` or `~` in a test no longer swallows the rest of the line', () => {
    expectVerdicts([
      ['[[ -d / ]] && rm -rf /', 'hardline'],
      ['[ -d / ] && rm -rf /', 'hardline'],
      ['[ -e ~ ] && rm -rf ~ || true', 'hardline'],
      ['[ -e ~/.nvmrc ] && nvm use || true', 'safe'],
      ['[[ -w / ]] || echo read-only', 'safe'],
    ]);
  });

  it('knows the sandboxes, launchers and terminals that run their command here', () => {
    expectVerdicts([
      ['bwrap --bind / / rm -rf ~', 'hardline'],
      ['fakeroot -- rm -rf /', 'hardline'],
      ['setarch x86_64 rm -rf /', 'hardline'],
      ['linux64 rm -rf /', 'hardline'],
      ['aa-exec -p unconfined -- rm -rf /', 'hardline'],
      ['runcon -t unconfined_t rm -rf /', 'hardline'],
      ['logsave /dev/null rm -rf /', 'hardline'],
      ['dtach -n /tmp/s rm -rf ~', 'hardline'],
      ['abduco -n s rm -rf ~', 'hardline'],
      ['mpirun -np 1 rm -rf ~', 'hardline'],
      ['srun rm -rf ~', 'hardline'],
      ['xterm -geometry 80x24 -e rm -rf ~', 'hardline'],
      ['gnome-terminal -- rm -rf ~', 'hardline'],
      ['rlwrap rm -rf ~', 'hardline'],
      ['sem rm -rf ~', 'hardline'],
      ['bwrap --ro-bind /usr /usr --dev /dev npm test', 'safe'],
      ['xterm -e htop', 'safe'],
      ['mpirun -np 4 ./bench', 'safe'],
    ]);
  });

  it('hyperfine runs each argument (and its setup/prepare/cleanup) as a shell command', () => {
    expectVerdicts([
      ["hyperfine 'rm -rf ~'", 'hardline'],
      ["hyperfine --warmup 3 'make' --prepare 'reboot'", 'hardline'],
      ["hyperfine --warmup 3 'npm run build' 'pnpm build'", 'safe'],
    ]);
  });

  it('start-stop-daemon --start runs its --exec program with the words after --', () => {
    expectVerdicts([
      ['start-stop-daemon --start --exec /bin/rm -- -rf /', 'hardline'],
      ['start-stop-daemon --start --exec /usr/bin/node -- server.js', 'safe'],
      ['start-stop-daemon --stop --pidfile /run/app.pid', 'dangerous'],
    ]);
  });

  it("GNU sed's `e command` and Ruby's `%x(…)` run shell commands", () => {
    expectVerdicts([
      ["sed -n '1e reboot' /etc/hostname", 'hardline'],
      ["sed -e 's/a/b/' -e '$e rm -rf ~' notes.txt", 'hardline'],
      ["sed 's/e x/y/' notes.txt", 'safe'],
      ["ruby -e '%x(rm -rf ~)'", 'hardline'],
      ["ruby -e 'puts %x{ls}'", 'dangerous'],
    ]);
  });

  it('`xargs -0` and `-d` split their input on the delimiter, not on blanks', () => {
    expectVerdicts([
      ['echo cm0gLXJmIH4= | base64 -d | xargs -0 sh -c', 'hardline'],
      ['find / -maxdepth 0 -print0 | xargs -0 rm -rf', 'hardline'],
      ["printf 'build\\0dist\\0' | xargs -0 rm -rf", 'safe'],
    ]);
  });
});

describe('power actions outside shutdown(8)', () => {
  it('launchctl reboot, logind and systemd over D-Bus, desktop sessions, rtcwake -m off, pmset schedules', () => {
    expectVerdicts([
      ['launchctl reboot', 'hardline'],
      ['sudo launchctl reboot halt', 'hardline'],
      ['busctl call org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager PowerOff b false', 'hardline'],
      ['dbus-send --system --print-reply --dest=org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager.Reboot boolean:true', 'hardline'],
      ['gdbus call --system --dest org.freedesktop.login1 --object-path /org/freedesktop/login1 --method org.freedesktop.login1.Manager.PowerOff false', 'hardline'],
      ['gnome-session-quit --power-off --force', 'hardline'],
      ['xfce4-session-logout --halt', 'hardline'],
      ['rtcwake -m off -s 60', 'hardline'],
      ["sudo pmset schedule shutdown '12/03/26 03:00:00'", 'hardline'],
      ['launchctl list', 'safe'],
      ['busctl call org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager ListSessions', 'safe'],
      ['rtcwake -m show', 'safe'],
      ['pmset -g batt', 'safe'],
    ]);
  });
});

describe('the words a line builds', () => {
  it('`read -a`, `mapfile -t` and `readarray -t` fill arrays from their input', () => {
    expectVerdicts([
      ["read -ra args <<< '-rf /'; rm \"${args[@]}\"", 'hardline'],
      ['mapfile -t a <<< /; rm -rf "${a[@]}"', 'hardline'],
      ["readarray -t dirs < <(printf '%s\\n' / ~); rm -rf \"${dirs[@]}\"", 'hardline'],
      // Without -t each element keeps its newline: `/` followed by a newline is not the root.
      ['mapfile a <<< /; rm -rf "${a[@]}"', 'dangerous'],
      ['mapfile -t lines < files.txt; rm -rf "${lines[@]}"', 'dangerous'],
      ["read -ra parts <<< 'build dist'; rm -rf \"${parts[@]}\"", 'safe'],
    ]);
  });

  it('`xargs -I` takes whole lines; `tee >(sh)` and a redirect on a whole pipeline carry the text on', () => {
    expectVerdicts([
      ["xargs -I{} sh -c '{}' <<< 'rm -rf ~'", 'hardline'],
      ["tee >(sh) <<< 'rm -rf ~' >/dev/null", 'hardline'],
      ['echo cm0gLXJmIC8= | base64 -d > /tmp/x.sh; bash /tmp/x.sh', 'hardline'],
      ["xargs -I{} echo 'rm -rf {}' <<< /", 'safe'],
      ['echo hi | tee >(cat) >(wc -c)', 'safe'],
      ['echo hi | cat > x.txt', 'safe'],
    ]);
  });

  it('GNU parallel with no command runs each line of a known input as a command', () => {
    expectVerdicts([
      ["printf '%s\\n' reboot | parallel", 'hardline'],
      ["printf 'pkill -f vite\\n' | parallel", 'dangerous'],
      ["printf 'a\\nb\\n' | parallel echo", 'safe'],
      ['parallel --version', 'safe'],
    ]);
  });

  it("xargs's own replace string (`-I%`), readlink -f, and an alias's value as the command it names", () => {
    expectVerdicts([
      ["xargs -r -d '\\n' -I% sh -c '%' <<< 'reboot'", 'hardline'],
      ['readlink -f / | xargs rm -rf', 'hardline'],
      ['shopt -s expand_aliases; alias x="rm -rf ~"\nx', 'hardline'],
      ["printf '%s\\n' src/a.ts | xargs -I% cp % build/", 'safe'],
      ['readlink -f ~/.config/hearth', 'safe'],
      ["alias ll='ls -la'; ll", 'safe'],
    ]);
  });

  it("a terminal's single command word with blanks is shell code", () => {
    expectVerdicts([
      ["xterm -e 'pkill -f vite'", 'dangerous'],
      ["xterm -e 'rm -rf ~'", 'hardline'],
      ["xterm -e 'npm run dev'", 'safe'],
    ]);
  });
});

describe('obfuscation', () => {
  it('`$IFS` without braces splits like `${IFS}`', () => {
    expectVerdicts([
      ['kill$IFS-9$IFS-1', 'hardline'],
      ['echo "a$IFS-b"', 'safe'],
    ]);
  });

  it('joins a line continuation inside a word, outside single quotes', () => {
    expectVerdicts([
      ['r\\\nm -rf /', 'hardline'],
      ['re\\\nboot', 'hardline'],
      ["echo 're\\\nboot'", 'safe'],
    ]);
  });

  it('expands `~+` (the working directory) and `${!name}` (indirection)', () => {
    expectVerdicts([
      ['rm -rf ~+/..', 'hardline'],
      ['v=cmd; cmd=reboot; ${!v}', 'hardline'],
      ['rm -rf ~+/dist', 'safe'],
    ]);
  });

  it('decodes base32, basenc and `base64 -di` payloads piped to a shell', () => {
    expectVerdicts([
      ['base32 -d <<< OJSWE33POQ====== | sh', 'hardline'],
      ['echo cmVib290 | basenc --base64 -d | sh', 'hardline'],
      ['echo cmVib290 | base64 -di | sh', 'hardline'],
      ['base32 -d <<< OJSWE33POQ======', 'safe'],
    ]);
  });

  it('resolves `which`, `command -v` and `type -P` to the program they name', () => {
    expectVerdicts([
      ['"$(which rm)" -rf /', 'hardline'],
      ['$(command -v rm) -rf ~', 'hardline'],
      ['`which reboot`', 'hardline'],
      ['"$(type -P shutdown)" -h now', 'hardline'],
      ['"$(which python3)" -m pytest', 'safe'],
    ]);
  });

  it("decodes bash's `\\u`/`\\U` escapes and printf's `%c`", () => {
    expectVerdicts([
      ["printf '\\u0072\\u006d -rf /' | sh", 'hardline'],
      ["echo -e '\\u0072\\u006d -rf /' | sh", 'hardline'],
      ["printf '%c%c -rf /' r m | sh", 'hardline'],
      ["printf '\\u00e9t\\u00e9\\n'", 'safe'],
      ["printf '%c\\n' x", 'safe'],
    ]);
  });

  it('reads back a file the line wrote, or a `<(…)`, given to cat/base64/xxd as an operand', () => {
    expectVerdicts([
      ["echo 'cm0gLXJmIH4=' > /tmp/p; base64 -d /tmp/p | sh", 'hardline'],
      ['base64 -d <(echo cm0gLXJmIH4=) | sh', 'hardline'],
      ['echo reboot > /tmp/c; $(cat /tmp/c)', 'hardline'],
      ["echo 'cm0gLXJmIH4=' > /tmp/p; base64 -d /tmp/p", 'safe'],
      ["echo 'date' > /tmp/c; cat /tmp/c | sh", 'safe'],
    ]);
  });

  it('computes `tr -d` and the upper/lower/digit classes of tr', () => {
    expectVerdicts([
      ["tr -d X <<< 'rXm -rXf /' | sh", 'hardline'],
      ["echo 'RM -RF ~' | tr '[:upper:]' '[:lower:]' | sh", 'hardline'],
      ["echo 'Hello' | tr '[:lower:]' '[:upper:]'", 'safe'],
    ]);
  });
});

/**
 * Session 3 (writer cmd10a, SPLITS.md): pids computed by programs the rules did not evaluate, and Windows kills of
 * everything. Each block failed before its fix; the neighbours keep their verdict.
 */
describe('kill: pids computed from seq, /proc/N/stat, ps -p and top', () => {
  it('seq is computed: a short range lists its numbers, a range from 1 or 2 past 32768 is every process', () => {
    expectVerdicts([
      ['seq 1 32768 | xargs kill -9', 'hardline'],
      ['for i in $(seq 2 99999); do kill -9 $i 2>/dev/null; done', 'hardline'],
      ['seq 1 5 | xargs kill -9', 'hardline'],
      ['seq 3 5 | xargs kill -9', 'safe'],
      ['seq 1000 99999 | xargs kill -9', 'dangerous'],
      ['seq 1 10 | xargs -I{} -P4 curl -s localhost:8080/item/{}', 'safe'],
    ]);
  });

  it("/proc/N/stat begins with N, and awk/cut pick fields of known text", () => {
    expectVerdicts([
      ["kill -9 $(awk '{print $1}' /proc/1/stat)", 'hardline'],
      ["kill -9 $(cut -d' ' -f1 /proc/1/stat)", 'hardline'],
      ["kill -9 $(awk '{print $1}' /proc/4242/stat)", 'safe'],
      ["echo '7 1' | awk '{print $2}' | xargs kill -KILL", 'hardline'],
    ]);
  });

  it('`ps -p N -o pid=` prints N back; `top -b` lists every process, and awk may drop any number of header lines', () => {
    expectVerdicts([
      ['kill -9 $(ps -p 1 -o pid=)', 'hardline'],
      ['kill -9 $(ps -o pid= -p 4242)', 'safe'],
      ["top -b -n1 | awk 'NR>7{print $1}' | xargs kill -9", 'hardline'],
      ['top -b -n1 | head -20', 'safe'],
    ]);
  });
});

describe('kill: Windows, every process', () => {
  it('taskkill filters every process passes (STATUS eq RUNNING, MEMUSAGE gt 0) select every process', () => {
    expectVerdicts([
      ['taskkill /F /FI "STATUS eq RUNNING"', 'hardline'],
      ['taskkill /F /FI "MEMUSAGE gt 0"', 'hardline'],
      ['taskkill /F /FI "IMAGENAME eq node.exe"', 'dangerous'],
    ]);
  });

  it('wmic process … call terminate: no condition, or one every process meets, is every process', () => {
    expectVerdicts([
      ['wmic process where "ProcessId > 0" call terminate', 'hardline'],
      ['wmic process call terminate', 'hardline'],
      ["wmic process where \"name='node.exe'\" call terminate", 'dangerous'],
      ['wmic process list brief', 'safe'],
    ]);
  });

  it('a line written in PowerShell is read as PowerShell: Get-Process piped to Stop-Process, .Kill() or Terminate', () => {
    expectVerdicts([
      ['Get-Process | Stop-Process -Force', 'hardline'],
      ['gps | spps -Force', 'hardline'],
      ['Stop-Process -Name * -Force', 'hardline'],
      ['Get-Process | ForEach-Object { $_.Kill() }', 'hardline'],
      ['Get-CimInstance Win32_Process | Invoke-CimMethod -MethodName Terminate', 'hardline'],
      ['Stop-Process -Name node -Force', 'dangerous'],
      ['Get-Process | Sort-Object CPU -Descending | Select-Object -First 5', 'safe'],
    ]);
  });
});

describe('kill: the shell\'s own process group', () => {
  it('`kill -9 -$$` signals the whole group the shell leads, like `kill 0`: it asks; `kill $$` and `kill $!` do not', () => {
    expectVerdicts([
      ['kill -9 -$$', 'dangerous'],
      ['kill -- -$$', 'dangerous'],
      ['kill -TERM -${$}', 'dangerous'],
      ['kill 0', 'dangerous'],
      ['kill -9 $$', 'safe'],
      ['sleep 60 & kill $!', 'safe'],
    ]);
  });
});
