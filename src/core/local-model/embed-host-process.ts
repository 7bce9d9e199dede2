/**
 * The engine's handle on one embedding host process: starts it (`child_process.fork` of
 * `model-host/embed-main`), validates what it sends, and reports the process dying, with the same
 * plumbing as the chat model host (`HostProcess`).
 */
import { embedHostEventSchema, type EmbedHostEvent, type EmbedHostRequest } from '../../shared/embed-host-protocol.js';
import { HostProcess } from './host-process.js';
import { forkHostModule, type HostSpawner } from './local-process.js';

/** The embedding host (`model-host/embed-main`), forked like the chat model host. */
export const forkEmbedHostChild: HostSpawner = () => forkHostModule('embed-main');

export class EmbedHostProcess extends HostProcess<EmbedHostEvent, EmbedHostRequest> {
  static start(spawn: HostSpawner = forkEmbedHostChild): EmbedHostProcess {
    return new EmbedHostProcess(spawn(), embedHostEventSchema, 'embedding host');
  }
}
