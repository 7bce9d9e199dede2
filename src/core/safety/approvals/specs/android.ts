import { REASONS } from '../reasons.js';
import { classifyByVerb } from '../generic-verbs.js';
import type { Command, CommandSpec } from './spec.js';
import type { Scan } from '../scan.js';

/** What the rules do not name (`pm reset-permissions`) is judged like any tool's words, as before these specs. */
const byVerb = (c: Command, s: Scan): void => classifyByVerb(c.name, c.args, s);

/**
 * Android's own service tools, as they run under `adb shell` (the device's shell): the activity manager stopping or
 * killing apps, the package manager disabling, hiding or removing them or wiping their data, the storage manager
 * repartitioning or formatting a disk, `svc`/`setprop` powering it off. Reading (`pm list packages`, `am start`,
 * `sm list-disks`) stays routine.
 */
export const ANDROID_SPECS: readonly CommandSpec[] = [
  { names: ['am'], check: byVerb, rules: [{ sub: 'force-stop|kill|kill-all|crash', reason: REASONS.killProcesses }] },
  { names: ['pm'], check: byVerb, rules: [
    { sub: 'disable|disable-user|disable-until-used|hide|suspend', reason: REASONS.stopService },
    { sub: 'uninstall|clear', reason: REASONS.packageRemove },
  ] },
  // `svc power shutdown|reboot`, `setprop sys.powerctl reboot`: the device's power, as `shutdown`/`reboot` are this one's.
  { names: ['svc'], rules: [{ sub: 'power', operand: /^(shutdown|reboot)$/, reason: REASONS.shutdown }] },
  { names: ['setprop'], rules: [{ sub: 'sys.powerctl', reason: REASONS.shutdown }] },
  { names: ['sm'], check: byVerb, rules: [{ sub: 'partition|format|unmount|forget', reason: REASONS.diskVolume }] },
];
