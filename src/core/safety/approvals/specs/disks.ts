import { REASONS } from '../reasons.js';
import { flag, type Scan } from '../scan.js';
import { checkWriteTarget, DISK_DEVICE, UNNAMED_DEVICE } from '../write-targets.js';
import { normalize, resolvePath } from '../paths.js';
import { valuesOf, type Command, type CommandSpec } from './spec.js';

/**
 * Disks, partitions and volumes. Formatting or writing raw data to a disk device is hardline (certain loss);
 * repartitioning, destroying volumes and pools, or detaching filesystems asks. Listing never does.
 */
// `/dev/$d` counts: these tools only ever act on block devices, so a name known only at run time is a disk too.
const onDevice = (command: Command): boolean => command.operands.some((o) => DISK_DEVICE.test(normalize(o)) || UNNAMED_DEVICE.test(normalize(o)));


const volume = REASONS.diskVolume;

/**
 * `mkfs.ext4 /dev/sdb` formats a disk; `mkfs.ext4 -F ./disk.img` formats an image file in the workspace, which is
 * a file write judged by where it lands. A target that is not a known file path is taken as a device.
 */
function formats(command: Command, scan: Scan, reason: string): void {
  // `mkfs.ext4 -V`, `mkfs --help`: with no target the tool prints its version or usage and exits.
  if (command.operands.length === 0 && command.options.every((o) => /^(-V|--version|-h|--help|-\?)$/.test(o))) return;
  const paths = command.operands.filter((o) => o.includes('/') || /\.(img|iso|raw|bin|qcow2|vhd|dmg)$/i.test(o));
  const files = paths.filter((p) => !DISK_DEVICE.test(normalize(p)) && !normalize(p).startsWith('/dev/') && resolvePath(p, scan.paths) !== null);
  if (files.length === 0 || files.length !== paths.length) {
    flag(scan, reason);
    return;
  }
  for (const file of files) checkWriteTarget(file, scan);
}

export const DISK_SPECS: readonly CommandSpec[] = [
  { names: ['mkfs', 'mke2fs', 'mkfs.ext2', 'mkfs.ext3', 'mkfs.ext4', 'mkfs.xfs', 'mkfs.btrfs', 'mkfs.vfat', 'mkfs.fat', 'mkfs.ntfs', 'mkfs.exfat', 'mkfs.f2fs', 'newfs', 'newfs_msdos', 'newfs_exfat', 'newfs_udf', 'newfs_hfs', 'newfs_apfs', 'mkdosfs', 'mkntfs'], check: (c, s) => formats(c, s, REASONS.mkfs) },
  // mkswap rewrites a partition's start: outside the narrow hardline list (SPLITS.md), so it asks.
  { names: ['mkswap'], check: (c, s) => formats(c, s, volume) },
  // `wipefs -n` / `--no-act` reports what it would erase and writes nothing.
  { names: ['wipefs'], check: (c, s) => (!c.options.some((o) => /^-[a-zA-Z]*n[a-zA-Z]*$/.test(o) || o === '--no-act') && c.options.some((o) => /^-[a-zA-Z]*a|^--all$|^-o|^--offset/.test(o)) && onDevice(c) ? flag(s, REASONS.rawDisk) : undefined) },
  { names: ['blkdiscard'], check: (c: Command, s: Scan) => (onDevice(c) ? flag(s, REASONS.rawDisk) : undefined) },
  { names: ['sgdisk'], check: (c, s) => {
    if (!onDevice(c) || c.options.some((o) => /^(-p|--print|-i|--info|-v|--verify|-b|--backup)/.test(o))) return;
    // Zapping destroys both partition tables outright; the other edits rewrite partitions.
    flag(s, c.options.some((o) => /^(-Z|--zap-all|-z|--zap)$/.test(o)) ? REASONS.rawDisk : volume);
  } },
  { names: ['sfdisk'], check: (c, s) => (c.options.some((o) => /^(-l|--list|-d|--dump|-J|--json|-s|--show-size|-V|--verify|--backup)$/.test(o)) || !onDevice(c) ? undefined : flag(s, volume)) },
  { names: ['fdisk', 'gdisk', 'cfdisk'], check: (c, s) => (c.options.some((o) => /^(-l|--list|-s|--getsz)$/.test(o)) || !onDevice(c) ? undefined : flag(s, volume)) },
  { names: ['parted'], check: (c, s) => (c.options.some((o) => /^(-l|--list)$/.test(o)) || !c.operands.some((o) => /^(rm|mklabel|mktable|mkpart|resizepart|rescue)$/.test(o)) ? undefined : flag(s, volume)) },
  { names: ['badblocks'], values: ['-b', '-c', '-o', '-t', '-e', '-p'], check: (c, s) => (c.options.some((o) => /^-[a-zA-Z]*[wn]/.test(o)) && onDevice(c) ? flag(s, volume) : undefined) },
  { names: ['nvme'], rules: [{ sub: 'format|sanitize|delete-ns|detach-ns', reason: volume }] },
  { names: ['kexec'], rules: [{ option: /^(-e|--exec)$/, reason: REASONS.shutdown }] },
  // Shrinking a volume (`-L -5G`) cuts off the filesystem's end.
  { names: ['lvresize'], values: ['-L', '--size', '-l', '--extents'], check: (c, s) => (valuesOf(c, '-L', '--size', '-l', '--extents').some((v) => v.startsWith('-')) ? flag(s, volume) : undefined) },
  // A drive's own secure erase is outside the narrow hardline list (SPLITS.md), like `nvme format`; raw sector writes are not.
  { names: ['hdparm'], check: (c, s) => {
    if (c.options.some((o) => /^--(trim-sector-ranges|write-sector|make-bad-sector)/.test(o))) flag(s, REASONS.rawDisk);
    else if (c.options.some((o) => /^--security-erase/.test(o))) flag(s, volume);
  } },
  { names: ['lvremove', 'vgremove', 'pvremove', 'lvreduce', 'vgreduce', 'pvmove'], check: (_c, s) => flag(s, volume) },
  // Exporting a pool detaches it, every dataset unmounted (`-f` even when busy), as `umount` does.
  { names: ['zpool'], rules: [{ sub: 'destroy|labelclear|offline|detach|remove|split|clear|export', reason: volume }] },
  // `zfs destroy -n` (any cluster with n: `-nv`, `-rnv`) is a dry run: it lists what it would destroy.
  { names: ['zfs'], rules: [{ sub: 'destroy', unless: /^-[a-zA-Z]*n[a-zA-Z]*$/, reason: volume }, { sub: 'rollback|unmount|umount', reason: volume }] },
  // `ddrescue in out [mapfile]`: the second operand is written, like `dd of=`.
  { names: ['ddrescue', 'gddrescue'], values: ['-a', '-b', '-c', '-e', '-i', '-K', '-l', '-m', '-o', '-s', '-x', '-Z'], check: (c, s) => (c.operands[1] === undefined ? undefined : checkWriteTarget(c.operands[1], s)) },
  // A SCSI low-level format or sanitize erases the whole drive, like `nvme format`; without `--format` sg_format only reports.
  { names: ['sg_format'], rules: [{ option: /^(--format|-[a-zA-Z]*F[a-zA-Z]*)$/, reason: volume }] },
  { names: ['sg_sanitize'], rules: [{ option: /^(--block|--crypto|--overwrite|--fail|-[a-zA-Z]*[BCOF][a-zA-Z]*)$/, reason: volume }] },
  // Repairs that throw away what they cannot replay: `xfs_repair -L` zeroes the log, `btrfs rescue zero-log` too.
  { names: ['xfs_repair'], rules: [{ option: /^-[a-zA-Z]*L[a-zA-Z]*$/, reason: volume }] },
  { names: ['cryptsetup'], rules: [{ sub: 'luksFormat|erase|luksErase|luksKillSlot|luksRemoveKey|close|luksClose|reencrypt', reason: volume }] },
  { names: ['mdadm'], rules: [{ option: /^(--zero-superblock|--stop|-S|--fail|-f|--remove|-r|--create|-C)$/, reason: volume }] },
  { names: ['umount', 'unmount'], check: (_c, s) => flag(s, volume) },
  { names: ['swapoff'], check: (_c, s) => flag(s, volume) },
  { names: ['losetup'], rules: [{ option: /^(-d|--detach|-D|--detach-all)$/, reason: volume }] },
  { names: ['dmsetup'], rules: [{ sub: 'remove|remove_all|wipe_table|clear', reason: volume }] },
  { names: ['btrfs'], rules: [{ sub: 'subvolume delete', reason: volume }, { sub: 'device delete|remove', reason: volume }, { sub: 'filesystem resize', reason: volume }, { sub: 'rescue zero-log|chunk-recover', reason: volume }, { sub: 'check', option: /^--repair$/, reason: volume }] },
  { names: ['diskutil'], rules: [{ sub: 'eraseDisk|eraseVolume|partitionDisk|zeroDisk|secureErase|randomDisk|reformat|unmount|unmountDisk|eject', reason: volume }, { sub: 'apfs deleteContainer|deleteVolume|eraseVolume|deleteSnapshot', reason: volume }] },
  { names: ['hdiutil'], rules: [{ sub: 'detach|eject', reason: volume }] },
  { names: ['vgchange', 'lvchange'], rules: [{ option: /^(-an|-a)$/, operand: /^n$/, reason: volume }, { option: /^-an$/, reason: volume }] },
];
