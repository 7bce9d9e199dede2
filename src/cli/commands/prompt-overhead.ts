import type { HearthConfig } from '../../core/config/schema.js';
import { LocalBackend } from '../../core/exec/local.js';
import { createLearning } from '../../core/learning/components.js';
import { countReferenceTokens, REFERENCE_TOKENIZER } from '../../core/llm/token-count.js';
import type { ChatModel } from '../../core/llm/types.js';
import { openScratchStore } from '../../core/store/open-store.js';
import { TOOLSETS, createToolset } from '../../core/tools/registry.js';
import { buildSystemPrompt } from '../../core/agent/prompt.js';

export interface PromptOverhead {
  chars: number;
  tokens: number;
  systemPromptChars: number;
  toolSchemaChars: number;
  tools: number;
}

/**
 * The fixed part of every model call for a toolset: the system prompt (identity, guidance, the skills
 * catalog of this home, empty memory and user blocks with their usage headers) plus the tool schemas as
 * an OpenAI-compatible provider receives them. Measured on the real prompt builder and real tools, over
 * a scratch store so the user's database is never opened (their memory is not part of the fixed cost).
 */
export async function measurePromptOverhead(inputs: { home: string; workspace: string; config: HearthConfig; model: ChatModel; userHome?: string }): Promise<{
  tokenizer: string;
  toolsets: Record<string, PromptOverhead>;
}> {
  const backend = new LocalBackend();
  const scratch = openScratchStore();
  const learning = createLearning({
    home: inputs.home,
    workspace: inputs.workspace,
    config: inputs.config,
    store: scratch.store,
    model: inputs.model,
    ...(inputs.userHome === undefined ? {} : { userHome: inputs.userHome }),
  });
  try {
    const toolsets: Record<string, PromptOverhead> = {};
    for (const name of Object.keys(TOOLSETS)) {
      const registry = createToolset(name, { backend, extra: learning.tools });
      const system = buildSystemPrompt({
        home: inputs.home,
        workspace: inputs.workspace,
        modelId: inputs.model.id,
        sessionId: '00000000-000000-000000',
        toolNames: registry.names(),
        startedAt: new Date(0),
        learned: learning.loop.sources.learnedContext(),
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
  } finally {
    await learning.dispose();
    scratch.dispose();
    await backend.dispose();
  }
}
