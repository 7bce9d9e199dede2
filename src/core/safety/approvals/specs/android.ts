import { REASONS } from '../reasons.js';
import type { CommandSpec } from './spec.js';

/**
 * Android's own service tools, as they run under `adb shell` (the device's shell): the activity manager stopping or
 * killing apps, the package manager disabling, hiding or removing them or wiping their data, the storage manager
 * repartitioning or formatting a disk, `svc`/`setprop` powering it off. Reading (`pm list packages`, `am start`, `sm list-disks`) stays routine.
 */
export const ANDROID_SPECS: readonly CommandSpec[] = [
  { names: ['am'], rules: [{ sub: 'force-stop|kill|kill-all|crash', reason: REASONS.killProcesses }] },
  { names: ['pm'], rules: [
    { sub: 'disable|disable-user|disable-until-used|hide|suspend', reason: REASONS.stopService },
    { sub: 'uninstall|clear', reason: REASONS.packageRemove },
  ] },
  // `svc power shutdown|reboot`, `setprop sys.powerctl reboot`: the device's power, as `shutdown`/`reboot` are this one's.
  { names: ['svc'], rules: [{ sub: 'power', operand: /^(shutdown|reboot)$/, reason: REASONS.shutdown }] },
  { names: ['setprop'], rules: [{ sub: 'sys.powerctl', reason: REASONS.shutdown }] },
  { names: ['sm'], rules: [{ sub: 'partition|format|unmount|forget', reason: REASONS.diskVolume }] },
];
