import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { HearthError, errorMessage } from '../errors.js';
import type { Deliverer, DeliveryContext, DeliveryTarget, TargetKind } from './targets.js';

/**
 * `file:<path>`: appends the output under a header naming the job and the time. One `appendFile` call (an
 * O_APPEND write of the whole entry) so two runs finishing together do not interleave their lines.
 */
export const fileDeliverer: Deliverer = {
  kind: 'file',
  async deliver(target: DeliveryTarget, text: string, context: DeliveryContext): Promise<void> {
    const entry = `\n## ${context.jobName} (cron ${context.jobId}, run ${context.runId}) ${new Date(context.at).toISOString()}\n\n${text.trimEnd()}\n`;
    try {
      await mkdir(dirname(target.address), { recursive: true });
      await appendFile(target.address, entry, { encoding: 'utf8', mode: 0o600 });
    } catch (err) {
      throw new HearthError('config_io', `Cannot write ${target.address}: ${errorMessage(err)}`, { cause: err });
    }
  },
};

/** What the desktop shell provides: show a notification (the tray app fills it; elsewhere there is none). */
export type DesktopNotifier = (notification: { title: string; body: string }) => Promise<void>;

/**
 * `desktop`: a notification through the desktop shell's port. Without one (the CLI, a headless gateway) the
 * delivery fails and says so, so the run is failed rather than logged as delivered to nobody.
 */
export function desktopDeliverer(notify: DesktopNotifier | null): Deliverer {
  return {
    kind: 'desktop',
    async deliver(_target, text, context) {
      if (notify === null) {
        throw new HearthError('usage', 'desktop notifications are not available here: no desktop app runs this cron ticker (deliver to a file or a chat instead)');
      }
      await notify({ title: `Hearth: ${context.jobName}`, body: text });
    },
  };
}

/** The deliverers a ticker uses, by kind; later entries (the gateway's chat platforms) replace earlier ones. */
export function delivererRegistry(deliverers: readonly Deliverer[]): ReadonlyMap<TargetKind, Deliverer> {
  return new Map(deliverers.map((d) => [d.kind, d]));
}
