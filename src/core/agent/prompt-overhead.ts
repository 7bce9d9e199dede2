import { LocalBackend } from '../exec/local.js';
import { countReferenceTokens, REFERENCE_TOKENIZER } from '../llm/token-count.js';
import { TOOLSETS, createToolset } from '../tools/registry.js';
import { buildSystemPrompt } from './prompt.js';

export interface PromptOverhead {
  chars: number;
  tokens: number;
  systemPromptChars: number;
  toolSchemaChars: number;
  tools: number;
}

/**
 * The fixed part of every model call for a toolset: the system prompt plus the tool schemas as an
 * OpenAI-compatible provider receives them. Measured on the real prompt builder and real schemas.
 */
export function measurePromptOverhead(inputs: { home: string; workspace: string; modelId: string }): {
  tokenizer: string;
  toolsets: Record<string, PromptOverhead>;
} {
  const backend = new LocalBackend();
  const toolsets: Record<string, PromptOverhead> = {};
  for (const name of Object.keys(TOOLSETS)) {
    const registry = createToolset(name, { backend });
    const system = buildSystemPrompt({
      home: inputs.home,
      workspace: inputs.workspace,
      modelId: inputs.modelId,
      sessionId: '00000000-000000-000000',
      toolNames: registry.names(),
      startedAt: new Date(0),
    });
    const tools = JSON.stringify(registry.schemas().map((s) => ({ type: 'function', function: s })));
    toolsets[name] = {
      chars: system.length + tools.length,
      tokens: countReferenceTokens(system) + countReferenceTokens(tools),
      systemPromptChars: system.length,
      toolSchemaChars: tools.length,
      tools: registry.names().length,
    };
  }
  return { tokenizer: REFERENCE_TOKENIZER, toolsets };
}
