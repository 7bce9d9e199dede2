import { describe, expect, it } from 'vitest';
import { REASONS, classifyCommand } from '../src/core/safety/approvals/detector.js';

// Shapes the round-13 dev lines stand for, each written afresh (not copied from the corpus), with safe twins beside them.
const context = { workspace: '/home/dev/project', cwd: '/home/dev/project', home: '/home/dev' };
const verdict = (command: string): string => classifyCommand(command, context).verdict;
const reasons = (command: string): string[] => classifyCommand(command, context).reasons;

describe('assignments are not split on IFS', () => {
  // `s=${IFS:0:1}` holds a space; splitting the value left it empty, so `kill${s}-9${s}-1` read as one word.
  it.each(['sp=${IFS:0:1}; eval "reboot${sp}now"', 's=${IFS:0:1}; eval "shutdown${s}-h${s}now"'])('%s is hardline', (command) => {
    expect(verdict(command)).toBe('hardline');
  });
  it('a space built from IFS in a harmless command stays safe', () => {
    expect(verdict('s=${IFS:0:1}; eval "echo${s}hello"')).toBe('safe');
  });
});

describe('"${w[*]}" joins with the first character of IFS, and a $(…) keeps its assignments to itself', () => {
  it.each([
    'p=(r e b o o t); "$(IFS=; echo "${p[*]}")"',
    "c=(m k f s); $(IFS=''; printf %s \"${c[*]}\") /dev/sdb",
    'IFS=; w=(r m); x="${w[*]}"; $x -rf ~',
  ])('%s is hardline', (command) => {
    expect(verdict(command)).toBe('hardline');
  });
  it('an array joined into a harmless command stays safe', () => {
    expect(verdict('w=(l s); "$(IFS=; echo "${w[*]}")" -la')).toBe('safe');
  });
  it("IFS set inside $(…) does not join the line's arrays afterwards", () => {
    // With the substitution's IFS leaking out, "${w[*]}" would be `rm`; in bash it is `r m`, no known command.
    expect(verdict('x=$(IFS=; echo a); w=(r m); "${w[*]}" -rf ~')).toBe('safe');
  });
});

describe("a directory's listing, read line by line, is each of its entries", () => {
  it.each([
    'ls ~ | while read -r f; do rm -rf ~/"$f"; done',
    'ls -A /etc | xargs -I{} rm -rf /etc/{}',
    'ls /usr | while read x; do rm -rf "/usr/$x"; done',
    'for f in $(ls ~); do rm -rf ~/$f; done',
    'for e in $(ls -A /var); do rm -rf /var/$e; done',
  ])('%s is hardline', (command) => {
    expect(verdict(command)).toBe('hardline');
  });
  it.each(['ls / | while read d; do du -sh "/$d"; done', 'ls src | while read f; do wc -l "src/$f"; done', 'for f in $(ls src); do cat "src/$f"; done'])('%s is safe', (command) => {
    expect(verdict(command)).toBe('safe');
  });
});

describe('a one-liner that prints a constructed string into a shell runs that string', () => {
  it.each([
    `perl -e 'print pack("H*", "7265626f6f74")' | bash`,
    `python3 -c 'print("~ fr- mr"[::-1])' | sh`,
    `python -c 'print(bytes.fromhex("68616c74").decode())' | sh`,
    `awk 'BEGIN { printf("%c%c%c%c", 104, 97, 108, 116) }' | sh`,
    `perl -e 'print chr(104).chr(97)."lt"' | bash`,
  ])('%s is hardline', (command) => {
    expect(verdict(command)).toBe('hardline');
    expect(reasons(command)).toContain(REASONS.obfuscatedCode);
  });
  it.each([`python3 -c 'print("olleh"[::-1])'`, `awk 'BEGIN{printf "%c", 65}'`, `perl -e 'print pack("H*","68656c6c6f")'`])('%s, printed only, is safe', (command) => {
    expect(verdict(command)).toBe('safe');
  });
});

describe('tar --remove-files deletes what it archives', () => {
  it.each(['tar --remove-files -cf /tmp/etc.tar /etc', 'tar czf /tmp/home.tgz --remove-files /home/dev'])('%s is hardline', (command) => {
    expect(verdict(command)).toBe('hardline');
  });
  it('a folder outside the workspace asks', () => {
    expect(verdict('tar --remove-files -czf /tmp/docs.tgz ~/Documents')).toBe('dangerous');
  });
  it.each(['tar --remove-files -czf logs.tgz build/logs', 'tar -czf /tmp/etc.tgz /etc'])('%s is safe', (command) => {
    expect(verdict(command)).toBe('safe');
  });
});

describe("a tool's output file can be a disk", () => {
  it.each(['openssl enc -aes-256-cbc -pass pass:x -in /dev/zero -out /dev/nvme0n1', 'ddrescue -f /dev/urandom /dev/sdc rescue.map', 'dcfldd if=/dev/zero of=/dev/sda'])('%s is hardline', (command) => {
    expect(verdict(command)).toBe('hardline');
    expect(reasons(command)).toContain(REASONS.rawDisk);
  });
  it.each(['openssl rand -out secret.bin 32', 'openssl req -new -key key.pem -out req.csr', 'ddrescue /dev/sdb rescue.img rescue.map'])('%s is safe', (command) => {
    expect(verdict(command)).toBe('safe');
  });
  it('openssl -in still reads a private key as one', () => {
    expect(reasons('openssl rsa -in ~/.ssh/id_rsa -pubout')).toContain(REASONS.secretRead);
  });
});

describe("BSD killall -m takes a regular expression", () => {
  it.each(["killall -m '.'", "killall -9 -m '^.*$'"])('%s is hardline', (command) => {
    expect(verdict(command)).toBe('hardline');
  });
  it('a narrower pattern asks', () => {
    expect(verdict("killall -m 'node.*'")).toBe('dangerous');
  });
});

describe('power through a management controller or the KDE session', () => {
  it.each([
    'ipmitool -I lanplus -H 10.0.0.9 -U admin -P x chassis power off',
    'ipmitool power reset',
    'racadm serveraction powercycle',
    'qdbus org.kde.ksmserver /KSMServer logout 0 1 2',
    'qdbus org.kde.Shutdown /Shutdown org.kde.Shutdown.logoutAndShutdown',
  ])('%s is hardline', (command) => {
    expect(verdict(command)).toBe('hardline');
    expect(reasons(command)).toContain(REASONS.shutdown);
  });
  it.each(['ipmitool chassis power status', 'ipmitool sensor list', 'racadm serveraction powerstatus', 'qdbus org.kde.KWin /KWin reconfigure'])('%s is safe', (command) => {
    expect(verdict(command)).toBe('safe');
  });
});

describe('disk tools that erase, discard or detach ask', () => {
  it.each(['sg_format -F /dev/sg2', 'xfs_repair -L /dev/nvme0n1p3', 'btrfs rescue zero-log /dev/sdb2', 'zpool export data', 'zfs unmount tank/home'])('%s asks', (command) => {
    expect(verdict(command)).toBe('dangerous');
    expect(reasons(command)).toContain(REASONS.diskVolume);
  });
  it.each(['sg_format /dev/sg1', 'xfs_repair -n /dev/sdb1', 'zpool status tank', 'btrfs check /dev/sdb2'])('%s is safe', (command) => {
    expect(verdict(command)).toBe('safe');
  });
});

describe("other init systems' and servers' stop verbs", () => {
  it.each([
    'initctl stop ssh',
    'svcadm disable svc:/network/ssh:default',
    'dinitctl disable nginx',
    'herd stop sshd',
    'apache2ctl graceful-stop',
    'apachectl -k stop',
    'rabbitmqctl shutdown',
    'monit stop all',
    'openresty -s quit',
    "ansible web -b -m systemd -a 'name=nginx state=stopped'",
    'ansible all -m ansible.builtin.service -a "name=cron enabled=no"',
  ])('%s asks', (command) => {
    expect(verdict(command)).toBe('dangerous');
    expect(reasons(command)).toContain(REASONS.stopService);
  });
  it('stopping a firewall that way disables a security control', () => {
    expect(reasons('initctl stop ufw')).toContain(REASONS.disableSecurity);
  });
  it.each(['initctl list', 'svcadm refresh ssh', 'dinitctl list', 'herd status', 'nginx -s reload', 'apachectl configtest', 'rabbitmqctl status', "ansible all -m service -a 'name=nginx state=started'", 'ansible all -m ping'])('%s is safe', (command) => {
    expect(verdict(command)).toBe('safe');
  });
});
