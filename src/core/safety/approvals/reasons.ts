/**
 * The detector's reasons. They are stable rule descriptions (never the command's own arguments)
 * because the policy remembers approvals per reason and config.yaml stores "always" answers by this
 * text: changing a string silently revokes what users approved, so add new reasons instead.
 */
export const REASONS = {
  deleteCritical: 'recursive delete of the root, home or a system directory',
  lockOutCritical: 'recursive permission removal or owner change of the root, home or a system directory',
  mkfs: 'formats a filesystem',
  rawDisk: 'writes raw data to a disk device',
  forkBomb: 'fork bomb',
  killAll: 'kills every process (kill -1)',
  shutdown: 'shuts down or reboots the machine',
  recursiveDelete: 'recursive delete',
  findDelete: 'finds and deletes files',
  worldWritable: 'makes files world-writable',
  recursiveSystemPerms: 'recursive permission or owner change on a system path',
  systemPerms: 'permission or owner change on a system path',
  setuid: 'sets the setuid or setgid bit',
  pipeToShell: 'pipes a download into a shell or interpreter',
  obfuscatedCode: 'runs decoded (obfuscated) text as code',
  sensitiveWrite: 'writes to a system or security-sensitive file (/etc, ~/.ssh, shell rc files)',
  forcePush: 'force-pushes git history',
  sqlDrop: 'drops or truncates a database table or database',
  sudo: 'runs as root (sudo/doas)',
  disableSecurity: 'disables a security control (SELinux, AppArmor, firewall, ASLR)',
  exfiltration: 'sends secrets or credentials over the network',
  secretRead: 'reads a private key or credentials file',
  remoteShell: 'opens a shell or raw connection to a remote host',
  crontab: 'removes or replaces the crontab',
  history: 'erases or disables shell history',
  accounts: 'changes user accounts or passwords',
  hostContainer: 'runs a container with access to the host (privileged or the host root mounted)',
  cloudDelete: 'deletes cloud or cluster resources',
  dynamicCommand: 'runs a command whose name is only known when it runs',
  unreadable: 'nested or malformed beyond what the checker can read',
  selfModification: "changes Hearth's own settings, persona (SOUL.md) or skills",
  scheduleJob: 'schedules a job to run later',
  gitHistory: 'destroys git history, branches or stashes that a checkpoint cannot restore',
  remoteGitDelete: 'deletes a remote git branch or tag',
  workingTreeReset: 'discards uncommitted changes in the working tree',
  killProcesses: 'kills processes broadly (by name, pattern or user, or pid 1)',
  stopService: 'stops, disables or unloads a system service',
  diskVolume: 'destroys, detaches or repartitions a disk, volume or filesystem',
  packageRemove: 'removes installed packages outside the workspace',
  containerDelete: 'deletes containers, images, volumes or networks',
  destructiveVerb: 'runs a delete/destroy-style subcommand of a tool the checker has no rules for',
  interpreterExec: 'runs shell commands from inline interpreter code',
  persistence: 'makes something run at every login or boot (launch agents, login items, enabled units, scheduled tasks)',
  outsideDelete: 'deletes or empties files outside the workspace',
  unknownWrapper: 'passes what would be a flagged command to a program the checker does not know',
  containedHardline: 'runs, inside a new container, a command that would wreck the machine it ran on',
  capabilities: 'gives a program file capabilities (setcap), root powers like a setuid bit',
  windowsPerms: 'changes the owner or access rules of Windows files (icacls, takeown)',
  unknownDevice: 'writes to a device whose name is only known when it runs (it may be a disk)',
} as const;

export type Reason = (typeof REASONS)[keyof typeof REASONS];

/** Reasons that make a command `hardline`: refused in every mode, yolo included. */
export const HARDLINE_REASONS: ReadonlySet<string> = new Set<string>([
  REASONS.deleteCritical,
  REASONS.lockOutCritical,
  REASONS.mkfs,
  REASONS.rawDisk,
  REASONS.forkBomb,
  REASONS.killAll,
  REASONS.shutdown,
]);
