/**
 * llama.cpp's split GGUF models: `<base>-00001-of-00003.gguf`, `…-00002-of-00003.gguf`, … Every part is a GGUF
 * file of its own; llama.cpp loads the whole model from the first part's path and finds the others beside it by
 * name. So a split model is downloaded as all of its parts into one folder, and named by its first part.
 */
const SPLIT_NAME = /^(.*)-(\d{5})-of-(\d{5})\.gguf$/i;

export interface SplitName {
  /** Everything before `-00001-of-0000N.gguf`. */
  base: string;
  /** 1-based. */
  part: number;
  parts: number;
}

/** The split numbering in a file name, or null for a single-file model (or numbering that cannot be right). */
export function splitNameOf(fileName: string): SplitName | null {
  const match = SPLIT_NAME.exec(fileName);
  if (!match) return null;
  const part = Number(match[2]);
  const parts = Number(match[3]);
  if (part < 1 || parts < 1 || part > parts) return null;
  return { base: match[1] as string, part, parts };
}

/** The names of every part of the model `fileName` belongs to, first part first; `[fileName]` when it is not split. */
export function partNames(fileName: string): string[] {
  const split = splitNameOf(fileName);
  if (!split) return [fileName];
  const count = String(split.parts).padStart(5, '0');
  return Array.from({ length: split.parts }, (_, i) => `${split.base}-${String(i + 1).padStart(5, '0')}-of-${count}.gguf`);
}

/** A part other than the first: not a model to list or load on its own. */
export function isLaterPart(fileName: string): boolean {
  return (splitNameOf(fileName)?.part ?? 1) > 1;
}
