/**
 * The fit estimate from the model's own GGUF header (decision 0017): node-llama-cpp's `readGgufFileInfo` reads
 * only the header (over HTTP with range requests for a model not yet downloaded), and `GgufInsights` sizes
 * the real tensors per layer and the KV cache from the layer count, KV heads and head size, so the estimate
 * knows how many layers fit in free VRAM instead of guessing from the file size.
 *
 * Only the analytic estimators are used. The newer `…V2` ones simulate by loading the model in llama.cpp,
 * which can abort the whole process on a malformed file; this runs in the engine process, which must not die.
 * node-llama-cpp is imported on first use, so no other command pays for loading it.
 */
import type * as NodeLlamaCpp from 'node-llama-cpp';
import type { GgufFileInfo, GgufInsights } from 'node-llama-cpp';
import { errorMessage } from '../errors.js';
import { formatBytes } from './disk-space.js';
import type { FitEstimateView, MachineMemory } from './fit-estimate.js';

/** The model host's context holds this many sequences by default (model-host.ts DEFAULT_MAX_SESSIONS); each has its own KV cells. */
export const HOST_SEQUENCES = 4;
const MIB = 1024 ** 2;
/** Below this much free VRAM, offloading a few layers costs more in transfers than it saves. */
const MIN_PARTIAL_GPU_BYTES = 512 * MIB;

export interface GgufFitInput {
  /** A local path or an http(s) URL of the GGUF file. */
  location: string;
  contextTokens: number;
  machine: MachineMemory;
  sequences?: number;
  signal?: AbortSignal;
}

/** Either the estimate, or why the header path cannot give one (the caller falls back to the file size). */
export type GgufFitResult = { estimate: FitEstimateView } | { unavailable: string };

export async function estimateFitFromGguf(input: GgufFitInput): Promise<GgufFitResult> {
  let nodeLlamaCpp: typeof NodeLlamaCpp;
  try {
    nodeLlamaCpp = await import('node-llama-cpp');
  } catch (err) {
    return { unavailable: `node-llama-cpp could not be loaded (${errorMessage(err)})` };
  }
  let info: GgufFileInfo;
  try {
    info = await nodeLlamaCpp.readGgufFileInfo(input.location, {
      logWarnings: false,
      // One retry: an unreachable server should fall back within seconds, not after async-retry's default back-off.
      fetchRetryOptions: { retries: 1, minTimeout: 200, maxTimeout: 1000 },
      ...(input.signal === undefined ? {} : { signal: input.signal }),
    });
  } catch (err) {
    return { unavailable: `its GGUF header could not be read (${oneLine(errorMessage(err))})` };
  }
  let insights: GgufInsights;
  try {
    insights = await nodeLlamaCpp.GgufInsights.from(info);
  } catch (err) {
    return { unavailable: `node-llama-cpp's native module could not be loaded to size the tensors (${oneLine(errorMessage(err))})` };
  }
  const architecture = info.metadata?.general?.architecture ?? 'unknown';
  if (!insights.isSupportedByLlamaCpp) {
    return {
      estimate: {
        fits: false,
        placement: 'cpu',
        requiredBytes: insights.modelSize,
        availableBytes: input.machine.freeRamBytes,
        detail: `Does not run here: its architecture "${architecture}" is not one this build of llama.cpp supports. Choose a model of a supported architecture (llama, qwen2, mistral, gemma…).`,
      },
    };
  }
  return { estimate: placeLayers(insights, input) };
}

interface Need {
  vram: number;
  ram: number;
}

function placeLayers(insights: GgufInsights, input: GgufFitInput): FitEstimateView {
  const { machine } = input;
  const sequences = input.sequences ?? HOST_SEQUENCES;
  const layers = insights.totalLayers;
  // The host never makes a context longer than the model was trained for.
  const trained = insights.trainContextSize;
  const contextTokens = trained !== undefined && trained > 0 ? Math.min(input.contextTokens, trained) : input.contextTokens;
  const need = (gpuLayers: number): Need => {
    const model = insights.estimateModelResourceRequirements({ gpuLayers });
    const context = insights.estimateContextResourceRequirements({ contextSize: contextTokens, modelGpuLayers: gpuLayers, sequences });
    return { vram: model.gpuVram + context.gpuVram, ram: model.cpuRam + context.cpuRam };
  };
  const onCpu = need(0);
  const weights = insights.modelSize;
  const contextBytes = onCpu.ram - Math.min(onCpu.ram, insights.estimateModelResourceRequirements({ gpuLayers: 0 }).cpuRam);
  const capped = contextTokens < input.contextTokens ? ` (capped at the ${contextTokens} tokens it was trained for)` : '';
  const needs =
    `needs about ${formatBytes(onCpu.ram + onCpu.vram)} (${formatBytes(weights)} weights in ${layers} layers + ${formatBytes(contextBytes)} ` +
    `for ${sequences} × ${contextTokens} tokens of context${capped} with compute buffers, sized from its GGUF header)`;

  const gpu = machine.gpu;
  if (gpu !== null) {
    // node-llama-cpp keeps this much VRAM free (its default vramPadding), so a plan that uses it would not load.
    const usable = gpu.freeBytes - Math.floor(Math.min(gpu.totalBytes * 0.08, 1.6 * 1024 ** 3));
    const offloaded = mostLayersWithin(layers, usable, need);
    const placed = need(offloaded);
    if (offloaded === layers && placed.ram <= machine.freeRamBytes) {
      return {
        fits: true,
        placement: 'gpu',
        requiredBytes: placed.vram,
        availableBytes: gpu.freeBytes,
        detail: `Runs fully on the GPU (all ${layers} layers): it ${needs}; ${formatBytes(gpu.freeBytes)} of video memory is free.`,
      };
    }
    if (offloaded > 0 && gpu.freeBytes >= MIN_PARTIAL_GPU_BYTES && placed.ram <= machine.freeRamBytes) {
      return {
        fits: true,
        placement: 'partial',
        requiredBytes: placed.vram + placed.ram,
        availableBytes: gpu.freeBytes + machine.freeRamBytes,
        detail:
          `Runs split between GPU and CPU (${offloaded} of ${layers} layers on the GPU, ${formatBytes(placed.vram)} of video memory): it ${needs}; ` +
          `${formatBytes(gpu.freeBytes)} of video memory and ${formatBytes(machine.freeRamBytes)} of RAM are free. Slower than fully on the GPU.`,
      };
    }
  }
  const where = gpu ? 'Runs on the CPU (too little free video memory for a single layer)' : 'Runs on the CPU (no GPU detected)';
  const required = onCpu.ram + onCpu.vram;
  if (machine.freeRamBytes >= required) {
    return { fits: true, placement: 'cpu', requiredBytes: required, availableBytes: machine.freeRamBytes, detail: `${where}: it ${needs}; ${formatBytes(machine.freeRamBytes)} of RAM is free.` };
  }
  const advice =
    machine.totalRamBytes >= required
      ? 'Close other programs to free memory, or use a smaller context or quantization.'
      : 'This machine has too little memory for it: choose a smaller model or quantization (e.g. Q4_K_M of a smaller model).';
  return {
    fits: false,
    placement: 'cpu',
    requiredBytes: required,
    availableBytes: machine.freeRamBytes,
    detail: `Does not fit: it ${needs}, and only ${formatBytes(machine.freeRamBytes)} of RAM is free (${formatBytes(machine.totalRamBytes)} in total). ${advice}`,
  };
}

/** The most layers whose VRAM need stays within `usable` (the need grows with every layer offloaded). */
function mostLayersWithin(layers: number, usable: number, need: (gpuLayers: number) => Need): number {
  let low = 0;
  let high = layers;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (need(mid).vram <= usable) low = mid;
    else high = mid - 1;
  }
  return low;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
