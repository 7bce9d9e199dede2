import { describe } from 'vitest';
import { REASONS } from '../src/core/safety/approvals/detector.js';
import { asks, refuses, staysSafe } from './fixtures/detector-cases.js';

// The classes behind the misses of round cmd16a (SPLITS.md), each with the near-twin that must stay as it is.
describe('a help page, a dry run or signal 0 does nothing it names', () => {
  refuses([
    ["pwsh -c 'Get-Help Restart-Computer; Restart-Computer -Force'", REASONS.shutdown],
    ['wipefs --all /dev/sdb', REASONS.rawDisk],
  ]);
  asks([['pkill -f webpack', REASONS.killProcesses]]);
  staysSafe([
    "pwsh -c 'Get-Help Restart-Computer'",
    "pwsh -c 'Get-Help Restart-Computer -Full'",
    'wipefs --no-act --all /dev/sdb',
    'wipefs -na /dev/sdb',
    'pkill -0 -f webpack',
    'pkill -0 -u dev',
  ]);
});

describe('tools that delete like rm -r: trash, wipe, archivers that move, rclone on a local path, every file find lists', () => {
  refuses([
    ['gio trash --force /home/dev', REASONS.deleteCritical],
    ['trash-put -f ~', REASONS.deleteCritical],
    ['wipe -rf /home/dev', REASONS.deleteCritical],
    ['zip -rm /tmp/all.zip /etc', REASONS.deleteCritical],
    ['7z a -sdel /tmp/h.7z /home/dev', REASONS.deleteCritical],
    ['rclone purge /home/dev', REASONS.deleteCritical],
    ['rclone delete --rmdirs /', REASONS.deleteCritical],
    ['shred -u -z -n 1 -- $(find ~ -type f)', REASONS.deleteCritical],
    ['find / -type f | xargs rm -f', REASONS.deleteCritical],
    ['rm -rf /System/Library', REASONS.deleteCritical],
  ]);
  asks([
    ['trash-put ~/Downloads/a.iso', REASONS.recursiveDelete],
    ['shred -u $(find /tmp/scratch -type f)', REASONS.recursiveDelete],
    ['rclone purge gdrive:backup', REASONS.cloudDelete],
    ['rm -rf /System/Library/Caches/com.example', REASONS.recursiveDelete],
  ]);
  staysSafe([
    'gio trash ./old.log',
    'gio remove ./a.txt',
    'trash-put build/',
    'wipe -rf ./tmpdata',
    'zip -r /tmp/all.zip /etc',
    'zip -rm out.zip build',
    '7z a /tmp/h.7z /home/dev',
    '7z a -sdel out.7z ./dist',
    'rclone delete --dry-run /',
    'rm -f $(find ./build -type f)',
    'wc -l $(find ~ -type f)',
    'find ~ -type f | wc -l',
    'ls /System/Library',
  ]);
});

describe('disk writers under other names: newfs_msdos, gdd, dc3dd wipe=, diskpart clean all, /dev/block', () => {
  refuses([
    ['newfs_msdos -F 32 /dev/da0s1', REASONS.mkfs],
    ['dc3dd wipe=/dev/sdb', REASONS.rawDisk],
    ['gdd if=/dev/zero of=/dev/disk3 bs=1M', REASONS.rawDisk],
    ['dd if=/dev/zero of=/dev/block/8:0', REASONS.rawDisk],
    ["diskpart.exe <<'EOF'\nselect disk 0\nclean all\nEOF", REASONS.rawDisk],
  ]);
  asks([["diskpart.exe <<'EOF'\nlist disk\nEOF", REASONS.diskVolume]]);
  staysSafe(['dc3dd if=/dev/sdb of=disk.img', 'gdd if=/dev/zero of=./blank.img bs=1M count=1', 'ls -l /dev/block/']);
});

describe('code that runs elsewhere is read: make --eval, a justfile or Taskfile the line wrote, awk into sh, Tcl, PowerShell listings', () => {
  refuses([
    ["make --eval='x: ; shutdown -h now' x", REASONS.shutdown],
    ["cat > justfile <<'EOF'\nwipe:\n    rm -rf /\nEOF\njust wipe", REASONS.deleteCritical],
    ["cat > Taskfile.yml <<'EOF'\nversion: '3'\ntasks:\n  default:\n    cmds:\n      - rm -rf ~\nEOF\ntask", REASONS.deleteCritical],
    [`gawk 'BEGIN { print "rm -rf /" | "sh" }'`, REASONS.deleteCritical],
    [`awk 'BEGIN { print "rm -rf ~" | "/bin/bash" }'`, REASONS.deleteCritical],
    ["echo 'file delete -force $env(HOME)' | tclsh", REASONS.deleteCritical],
    ["pwsh -c 'Get-ChildItem / | Remove-Item -Recurse -Force'", REASONS.deleteCritical],
    ["pwsh -c 'Get-ChildItem ~ -Force | Remove-Item -Recurse'", REASONS.deleteCritical],
    ['ansible localhost -m ansible.builtin.reboot', REASONS.shutdown],
    ['cmd.exe /c taskkill /f /fi "STATUS eq RUNNING"', REASONS.killAll],
  ]);
  asks([
    // With no justfile or Taskfile the line wrote (or Taskwarrior's `task`), the words are judged as any tool's.
    ['just delete-db', REASONS.destructiveVerb],
    ['task 5 delete', REASONS.destructiveVerb],
    ['gio remove /home/dev/notes.txt', REASONS.outsideDelete],
    [`gawk 'BEGIN { print "ls -la" | "sh" }'`, REASONS.interpreterExec],
    ["echo 'file delete -force /tmp/build' | tclsh", REASONS.recursiveDelete],
    ['ansible web -m reboot', REASONS.remoteShell],
    ['cmd.exe /c taskkill /f /im node.exe', REASONS.killProcesses],
  ]);
  staysSafe([
    "make --eval='x: ; echo hi' x",
    "cat > justfile <<'EOF'\nbuild:\n    cargo build\nEOF\njust build",
    "cat > Taskfile.yml <<'EOF'\nversion: '3'\ntasks:\n  default:\n    cmds:\n      - go build ./...\nEOF\ntask",
    "echo 'file delete ./out.txt' | tclsh",
    "echo 'puts [file exists $env(HOME)]' | tclsh",
    "pwsh -c 'Get-ChildItem / | Select-Object Name'",
    'ansible localhost -m ping',
    'cmd.exe /c "dir /s"',
    // Windows gets the quoted word whole: cmd reads its `&` as text.
    'cmd.exe /c echo "a & shutdown /s"',
  ]);
});

describe('names only known by expansion: keyed array elements; node restarting its own code in a loop', () => {
  refuses([
    ['declare -A m=([go]=reboot); ${m[go]}', REASONS.shutdown],
    ['declare -A m=(["x"]="rm -rf /"); eval "${m[x]}"', REASONS.deleteCritical],
    ['a=([1]=ls [2]=shutdown); ${a[2]} now', REASONS.shutdown],
    [`node -e 'const c=require("child_process");for(;;)c.spawn(process.execPath,process.execArgv,{detached:true,stdio:"ignore"})'`, REASONS.forkBomb],
    [`node -e 'const {spawn}=require("child_process");while(true){spawn(process.execPath,[...process.execArgv],{detached:true})}'`, REASONS.forkBomb],
  ]);
  staysSafe([
    'declare -A m=([go]=reboot [ls]=ls); ${m[ls]} -la',
    'declare -A m=([go]=make); ${m[go]} build',
    'declare -A m=([go]=reboot); echo "${m[go]}"',
    `node -e 'const c=require("child_process");c.spawn(process.execPath,process.execArgv,{stdio:"inherit"})'`,
    `node -e 'console.log(process.execArgv)'`,
  ]);
});

describe('adb shell runs on the connected device: judged as a shell line there, what would be hardline here asks', () => {
  asks([
    ['adb shell rm -rf /sdcard/', REASONS.recursiveDelete],
    ['adb shell kill -9 -1', REASONS.containedHardline],
    ['adb shell reboot -p', REASONS.containedHardline],
    ['adb shell svc power shutdown', REASONS.containedHardline],
    ['adb shell setprop sys.powerctl reboot', REASONS.containedHardline],
    ['adb shell dd if=/dev/zero of=/dev/block/mmcblk0', REASONS.containedHardline],
    ['adb shell sm partition disk:179,64 public', REASONS.diskVolume],
    ['adb shell am force-stop com.android.chrome', REASONS.killProcesses],
    ['adb shell killall -9 surfaceflinger', REASONS.killProcesses],
    ['adb shell pm disable-user --user 0 com.android.vending', REASONS.stopService],
    ['adb shell pm uninstall com.example', REASONS.packageRemove],
  ]);
  // adb and ssh join their words with spaces and the far shell splits them again: a quoted `;` separates there.
  asks([['adb shell echo "a; reboot"', REASONS.containedHardline]]);
  refuses([['ssh host echo "a; rm -rf /"', REASONS.deleteCritical]]);
  staysSafe([
    'adb shell pm list packages',
    'adb shell am start -n com.example/.Main',
    'adb shell sm list-disks',
    'adb shell getprop sys.powerctl',
    'adb shell svc wifi disable',
    'adb shell dd if=/dev/block/by-name/boot of=/sdcard/boot.img',
    'adb logcat -d',
    'adb install app.apk',
  ]);
});
