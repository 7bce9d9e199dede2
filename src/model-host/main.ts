/**
 * Entry point of the model host process. node-llama-cpp lives only here, so a model that aborts
 * natively (GGML_ASSERT on a malformed GGUF) takes down this process and not the engine.
 */
import { ModelHost } from './model-host.js';
import { createProcessTransport } from './process-transport.js';

const transport = createProcessTransport();
const host = new ModelHost(transport);
transport.onMessage((message) => host.handle(message));

// The engine went away (crashed or was killed): nothing is left to serve.
process.on('disconnect', () => {
  void host.shutdown();
});
