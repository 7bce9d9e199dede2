/**
 * Will this model run on this machine, and where? Made before a multi-gigabyte download, against free VRAM and
 * free RAM. `estimateModelFit` sizes the model from its GGUF header (gguf-fit.ts, decision 0017); when the
 * header cannot be read, `estimateFit` estimates from the file size alone and the answer says why. GPU memory
 * comes from the model host; without it the estimate is for the CPU.
 */
import { freemem, totalmem } from 'node:os';
import type { z } from 'zod';
import type { FitEstimate } from '../../shared/contract.js';
import { formatBytes } from './disk-space.js';
import { estimateFitFromGguf } from './gguf-fit.js';

export type FitEstimateView = z.infer<typeof FitEstimate>;

export interface GpuMemory {
  totalBytes: number;
  freeBytes: number;
}

export interface MachineMemory {
  freeRamBytes: number;
  totalRamBytes: number;
  gpu: GpuMemory | null;
}

export function thisMachine(gpu: GpuMemory | null = null): MachineMemory {
  return { freeRamBytes: freemem(), totalRamBytes: totalmem(), gpu };
}

const KIB = 1024;
const MIB = 1024 * KIB;
/** Below this much free VRAM, offloading a few layers costs more in transfers than it saves. */
const MIN_PARTIAL_GPU_BYTES = 512 * MIB;

/**
 * KV cache per token of context (f16 K and V). Real values depend on layers × KV heads × head size,
 * which only the GGUF metadata says: Llama 3.2 1B ≈ 32 KiB, 3B ≈ 112 KiB, Llama 3.1 8B ≈ 128 KiB,
 * 70B ≈ 320 KiB. Growing with the square root of the file size follows that curve closely enough to
 * decide gpu/partial/cpu, and errs on the generous side for small models.
 */
export function kvBytesPerToken(fileBytes: number): number {
  const gigabytes = fileBytes / 1e9;
  return Math.min(320 * KIB, Math.max(32 * KIB, Math.round(64 * KIB * Math.sqrt(gigabytes))));
}

export function estimateFit(input: { fileBytes: number; contextTokens: number; machine: MachineMemory }): FitEstimateView {
  const { fileBytes, contextTokens, machine } = input;
  const kvBytes = kvBytesPerToken(fileBytes) * contextTokens;
  const overheadBytes = 256 * MIB + Math.round(fileBytes * 0.05);
  const requiredBytes = fileBytes + kvBytes + overheadBytes;
  const needs = `needs about ${formatBytes(requiredBytes)} (${formatBytes(fileBytes)} weights + ${formatBytes(kvBytes)} for ${contextTokens} tokens of context + ${formatBytes(overheadBytes)} working memory)`;
  const gpu = machine.gpu;
  if (gpu && gpu.freeBytes >= requiredBytes) {
    return { fits: true, placement: 'gpu', requiredBytes, availableBytes: gpu.freeBytes, detail: `Runs fully on the GPU: it ${needs}; ${formatBytes(gpu.freeBytes)} of video memory is free.` };
  }
  const combined = (gpu?.freeBytes ?? 0) + machine.freeRamBytes;
  if (gpu && gpu.freeBytes >= MIN_PARTIAL_GPU_BYTES && combined >= requiredBytes) {
    const share = Math.min(99, Math.max(1, Math.floor((gpu.freeBytes / requiredBytes) * 100)));
    return {
      fits: true,
      placement: 'partial',
      requiredBytes,
      availableBytes: combined,
      detail: `Runs split between GPU and CPU (about ${share}% on the GPU): it ${needs}; ${formatBytes(gpu.freeBytes)} of video memory and ${formatBytes(machine.freeRamBytes)} of RAM are free. Slower than fully on the GPU.`,
    };
  }
  const where = gpu ? 'Runs on the CPU (too little free video memory)' : 'Runs on the CPU (no GPU detected)';
  if (machine.freeRamBytes >= requiredBytes) {
    return { fits: true, placement: 'cpu', requiredBytes, availableBytes: machine.freeRamBytes, detail: `${where}: it ${needs}; ${formatBytes(machine.freeRamBytes)} of RAM is free.` };
  }
  const advice =
    machine.totalRamBytes >= requiredBytes
      ? 'Close other programs to free memory, or use a smaller context or quantization.'
      : 'This machine has too little memory for it: choose a smaller model or quantization (e.g. Q4_K_M of a smaller model).';
  return {
    fits: false,
    placement: 'cpu',
    requiredBytes,
    availableBytes: machine.freeRamBytes,
    detail: `Does not fit: it ${needs}, and only ${formatBytes(machine.freeRamBytes)} of RAM is free (${formatBytes(machine.totalRamBytes)} in total). ${advice}`,
  };
}

/**
 * The estimate a surface shows: from the GGUF header at `location` (a path, or a URL read with range requests)
 * when node-llama-cpp can read it, else from `fileBytes`, saying why (a file that is not GGUF, an unreachable
 * server, a missing native module).
 */
export async function estimateModelFit(input: { location: string; fileBytes: number; contextTokens: number; machine: MachineMemory; signal?: AbortSignal }): Promise<FitEstimateView> {
  const fromHeader = await estimateFitFromGguf(input);
  if ('estimate' in fromHeader) return fromHeader.estimate;
  const bySize = estimateFit(input);
  return { ...bySize, detail: `${bySize.detail} Estimated from the file size alone: ${fromHeader.unavailable}.` };
}
