/**
 * The host side of the engine ↔ host channel: Node IPC when started with `child_process.fork`, the
 * parent port when started as an Electron `utilityProcess`. Everything else talks to the
 * `MessageTransport` interface only.
 */
import type { HostEvent, MessageTransport } from '../shared/model-host-protocol.js';

interface ElectronParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
}

export function createProcessTransport(): MessageTransport<HostEvent, unknown> {
  const parentPort = (process as unknown as { parentPort?: ElectronParentPort }).parentPort;
  if (parentPort) {
    return {
      postMessage: (message) => parentPort.postMessage(message),
      onMessage: (listener) => parentPort.on('message', (e) => listener(e.data)),
    };
  }
  const send = process.send?.bind(process);
  if (!send) throw new Error('The model host must be started by the engine (child_process.fork or utilityProcess), not run directly.');
  return {
    postMessage: (message) => {
      send(message);
    },
    onMessage: (listener) => {
      process.on('message', listener);
    },
  };
}
