/**
 * The tool-call formats Hearth reads, and which one a model writes. A local GGUF says so in its
 * metadata: the chat template (`tokenizer.chat_template`) names the format's own markers, and when
 * a file has no template, `general.name` and `general.architecture` still identify the family.
 */
import { deepseekV3Format } from './deepseek-v3.js';
import type { ToolCallFormat, ToolCallFormatName } from './format.js';
import { glm45Format } from './glm45.js';
import { hermesFormat } from './hermes.js';
import { llama3Format } from './llama3.js';
import { mistralFormat } from './mistral.js';
import { qwen3CoderFormat } from './qwen3-coder.js';

export type { ToolCallFormat, ToolCallFormatName } from './format.js';

/**
 * Every format, in the order their template markers are tested: the most specific first, because
 * Qwen3-Coder's and GLM's templates also contain Hermes' `<tool_call>`.
 */
export const TOOL_CALL_FORMATS: readonly ToolCallFormat[] = [qwen3CoderFormat, glm45Format, deepseekV3Format, mistralFormat, llama3Format, hermesFormat];

/** Names are tested Hermes first: a Hermes fine-tune of Llama or Mistral ("Hermes 3 Llama 3.1") writes Hermes. */
const NAME_ORDER: readonly ToolCallFormat[] = [hermesFormat, qwen3CoderFormat, glm45Format, deepseekV3Format, mistralFormat, llama3Format];

export interface ModelFormatHints {
  /** `tokenizer.chat_template` of the GGUF (a Jinja template). */
  chatTemplate?: string;
  /** `general.architecture`. */
  architecture?: string;
  /** `general.name`, or a model id such as a file name. */
  name?: string;
}

export interface FormatChoice {
  format: ToolCallFormat;
  /** What decided it, for logs and `hearth doctor`. */
  reason: string;
}

export function toolCallFormat(name: ToolCallFormatName): ToolCallFormat {
  return TOOL_CALL_FORMATS.find((f) => f.name === name) ?? hermesFormat;
}

/** The format a model writes; Hermes when nothing identifies it (it is the format Hearth's own prompt asks for). */
export function chooseToolCallFormat(hints: ModelFormatHints): FormatChoice {
  const template = hints.chatTemplate;
  if (template) {
    const byTemplate = TOOL_CALL_FORMATS.find((f) => f.recognise.templateMarkers.every((m) => template.includes(m)));
    if (byTemplate) return { format: byTemplate, reason: `chat template contains ${byTemplate.recognise.templateMarkers.join(' and ')}` };
  }
  const name = hints.name;
  if (name) {
    const byName = NAME_ORDER.find((f) => f.recognise.modelName?.test(name));
    if (byName) return { format: byName, reason: `model name "${name}"` };
  }
  const architecture = hints.architecture;
  if (architecture) {
    const byArchitecture = TOOL_CALL_FORMATS.find((f) => f.recognise.architectures?.includes(architecture));
    if (byArchitecture) return { format: byArchitecture, reason: `architecture ${architecture}` };
  }
  return { format: hermesFormat, reason: 'nothing in the metadata names a format; Hermes is what Hearth prompts for' };
}
