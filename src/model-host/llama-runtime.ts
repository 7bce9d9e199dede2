import { getLlama, LlamaLogLevel, type Llama } from 'node-llama-cpp';

export function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The one `Llama` instance of a host process and what both hosts need around it: a GPU backend with
 * a CPU fallback (and the reason it fell back), explicit threads, and the last llama.cpp log lines,
 * because llama.cpp explains load failures only in its log.
 */
export class LlamaRuntime {
  private llama: Llama | undefined;
  private recentLogs: string[] = [];
  /** Why a `gpu: 'auto'` request ended up on the CPU, when it did. */
  gpuFallbackReason: string | undefined;

  get instance(): Llama | undefined {
    return this.llama;
  }

  async get(gpu: 'auto' | false, threads: number): Promise<Llama> {
    if (this.llama) return this.llama;
    const base = {
      build: 'never',
      logLevel: LlamaLogLevel.warn,
      maxThreads: threads,
      logger: (level: LlamaLogLevel, message: string) => {
        if (level !== LlamaLogLevel.error && level !== LlamaLogLevel.warn) return;
        this.recentLogs = [...this.recentLogs, message.trim()].slice(-4);
        process.stderr.write(`[llama.cpp ${level}] ${message.trimEnd()}\n`);
      },
    } as const;
    if (gpu === 'auto') {
      try {
        this.llama = await getLlama({ ...base, gpu: 'auto' });
        if (this.llama.gpu === false) this.gpuFallbackReason = 'no supported GPU (CUDA, Vulkan or Metal) was found';
        return this.llama;
      } catch (err) {
        // A GPU backend that fails to initialise must not stop the model from running on CPU.
        this.gpuFallbackReason = `GPU backend failed to start: ${describe(err)}`;
      }
    }
    this.llama = await getLlama({ ...base, gpu: false });
    return this.llama;
  }

  /** Forget earlier log lines: a new load's failure should quote only its own. */
  startLoad(): void {
    this.recentLogs = [];
  }

  /** `err` plus llama.cpp's last words, for a load_error message. */
  async describeLoadFailure(err: unknown): Promise<string> {
    // llama.cpp's log lines reach JS on a later tick than the rejection: let them arrive.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const log = this.recentLogs.length > 0 ? ` (llama.cpp: ${this.recentLogs.join(' | ')})` : '';
    return `${describe(err)}${log}`;
  }

  async dispose(): Promise<void> {
    await this.llama?.dispose();
  }
}
