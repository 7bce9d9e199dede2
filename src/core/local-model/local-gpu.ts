/**
 * Which GPU backend llama.cpp would use on this machine, for `hearth doctor` and the model manager.
 * Reads node-llama-cpp's detection without loading a model, so it cannot abort natively.
 */
export async function detectGpu(): Promise<string | false> {
  const { getLlama, LlamaLogLevel } = await import('node-llama-cpp');
  const llama = await getLlama({ gpu: 'auto', logLevel: LlamaLogLevel.error, build: 'never' });
  try {
    return llama.gpu;
  } finally {
    await llama.dispose();
  }
}
