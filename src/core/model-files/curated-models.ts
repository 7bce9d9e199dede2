/**
 * The models offered before the user has chosen one. Sizes are approximate (the Hugging Face listing,
 * rounded): the fit estimate and the disk-space check use the server's Content-Length once known.
 * `sha256` stays null unless the digest is known for certain: a wrong digest would fail every download,
 * and Hugging Face sends the LFS digest itself (X-Linked-Etag), which the download checks instead.
 */
/** A text in each UI language; the keys are the renderer's languages (src/renderer/settings). */
export interface LocalizedText {
  en: string;
  'zh-CN': string;
}

export interface CuratedModelEntry {
  id: string;
  /** The model's name: the same in every language. */
  label: string;
  /** What it is good for and what it needs, shown under the name in the UI's language. */
  description: LocalizedText;
  source: string;
  sizeBytes: number;
  sha256: string | null;
  /**
   * The name the file gets in HEARTH_HOME/models, when it differs from the name on the server. The default
   * model keeps the name `config.yaml` points at out of the box (`models/hermes-3-llama-3.2-3b.Q4_K_M.gguf`),
   * so downloading it is all the setup a first run needs.
   */
  fileName?: string;
}

export const CURATED_MODELS: readonly CuratedModelEntry[] = Object.freeze([
  {
    id: 'hermes-3-llama-3.2-3b-q4_k_m',
    label: 'Hermes 3 (Llama 3.2 3B, Q4_K_M)',
    description: {
      en: 'The default: runs on most laptops, about 4 GB of memory. Good for chat, notes and simple tool use.',
      'zh-CN': '默认模型：大多数笔记本电脑都能运行，约需 4 GB 内存。适合聊天、整理笔记和简单的工具调用。',
    },
    source: 'hf:NousResearch/Hermes-3-Llama-3.2-3B-GGUF/Hermes-3-Llama-3.2-3B.Q4_K_M.gguf',
    sizeBytes: 2_020_000_000,
    sha256: null,
    fileName: 'hermes-3-llama-3.2-3b.Q4_K_M.gguf',
  },
  {
    id: 'hermes-3-llama-3.1-8b-q4_k_m',
    label: 'Hermes 3 (Llama 3.1 8B, Q4_K_M)',
    description: {
      en: 'Stronger at reasoning and following longer instructions; needs about 8 GB of memory.',
      'zh-CN': '推理和执行较长指令的能力更强；约需 8 GB 内存。',
    },
    source: 'hf:NousResearch/Hermes-3-Llama-3.1-8B-GGUF/Hermes-3-Llama-3.1-8B.Q4_K_M.gguf',
    sizeBytes: 4_920_000_000,
    sha256: null,
  },
]);

export function findCuratedBySource(source: string): CuratedModelEntry | undefined {
  return CURATED_MODELS.find((m) => m.source === source.trim());
}
