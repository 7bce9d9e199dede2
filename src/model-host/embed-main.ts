/**
 * Entry point of the embedding host process: node-llama-cpp's embedding context lives only here, so a
 * model that aborts natively (GGML_ASSERT on a malformed GGUF) takes down this process, not the engine.
 * A process of its own (not the chat model host) so semantic indexing never waits behind a chat turn.
 */
import type { EmbedHostEvent } from '../shared/embed-host-protocol.js';
import type { MessageTransport } from '../shared/model-host-protocol.js';
import { EmbedHost } from './embed-host.js';
import { createProcessTransport } from './process-transport.js';

// The channel carries any message; its type names the chat host's events only because that host came first.
const transport = createProcessTransport() as unknown as MessageTransport<EmbedHostEvent, unknown>;
const host = new EmbedHost(transport);
transport.onMessage((message) => host.handle(message));

// The engine went away (crashed or was killed): nothing is left to serve.
process.on('disconnect', () => {
  void host.shutdown();
});
