import { HearthError } from '../errors.js';
import type { ToolSchema } from '../llm/types.js';
import type { ExecutionBackend } from '../exec/backend.js';
import { clarifyTool } from './clarify.js';
import { toolSchema, type ToolDefinition } from './define.js';
import { patchTool } from './patch.js';
import { readFileTool } from './read-file.js';
import { createSearchFilesTool, type SearchFilesOptions } from './search-files.js';
import { createTerminalTool, type TerminalToolOptions } from './terminal.js';
import { todoTool } from './todo.js';
import { writeFileTool } from './write-file.js';

/** A tool of any input type, as the registry and the loop hold them: the loop validates input with the tool's own schema first. */
export type AnyTool = ToolDefinition<unknown>;

/** Erases a tool's input type. Sound because the loop only calls `run`/`paths` with what `input.parse` returned. */
export function anyTool<Input>(tool: ToolDefinition<Input>): AnyTool {
  return tool as unknown as AnyTool;
}

/** The tools one session can call, by name, in a fixed order (the order their schemas are sent). */
export class ToolRegistry {
  private readonly byName = new Map<string, AnyTool>();
  private schemaCache: ToolSchema[] | undefined;

  constructor(tools: readonly AnyTool[]) {
    for (const tool of tools) {
      if (this.byName.has(tool.name)) throw new HearthError('usage', `two tools are named "${tool.name}"`);
      this.byName.set(tool.name, tool);
    }
  }

  get(name: string): AnyTool | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  list(): AnyTool[] {
    return [...this.byName.values()];
  }

  /** A registry of only the named tools that exist here, in this registry's order (background reviews, subagents). */
  subset(names: readonly string[]): ToolRegistry {
    const wanted = new Set(names);
    return new ToolRegistry(this.list().filter((tool) => wanted.has(tool.name)));
  }

  /** Generated once: the loop sends them on every model call, and the registry never changes. */
  schemas(): ToolSchema[] {
    this.schemaCache ??= this.list().map((tool) => toolSchema(tool));
    return this.schemaCache;
  }
}

/**
 * Named tool sets. `lite` leaves out what small local models handle badly (regex search, questions
 * mid-task), which also keeps their prompt short.
 */
export const TOOLSETS: Readonly<Record<string, readonly string[]>> = {
  default: [
    'read_file', 'write_file', 'patch', 'search_files', 'terminal', 'todo', 'clarify',
    'memory', 'session_search', 'skills_list', 'skill_view', 'skills_search', 'skill_manage', 'user_model',
    'send_message', 'send_file',
  ],
  lite: ['read_file', 'write_file', 'patch', 'terminal', 'todo', 'memory', 'skill_view', 'session_search'],
};

export interface BuiltinToolOptions {
  backend: ExecutionBackend;
  /**
   * Tools built elsewhere because they need the open store (memory, skills, session search, user
   * model). A toolset names them; without them (tests, tools-only contexts) they are left out.
   */
  extra?: readonly AnyTool[];
  terminal?: Omit<TerminalToolOptions, 'backend'>;
  search?: SearchFilesOptions;
}

export function builtinTools(options: BuiltinToolOptions): AnyTool[] {
  return [
    anyTool(readFileTool),
    anyTool(writeFileTool),
    anyTool(patchTool),
    anyTool(createSearchFilesTool(options.search)),
    anyTool(createTerminalTool({ backend: options.backend, ...options.terminal })),
    anyTool(todoTool),
    anyTool(clarifyTool),
  ];
}

export function createToolset(name: string, options: BuiltinToolOptions): ToolRegistry {
  const names = TOOLSETS[name];
  if (names === undefined) throw new HearthError('usage', `unknown toolset "${name}"; known toolsets: ${Object.keys(TOOLSETS).join(', ')}`);
  const all = new Map([...builtinTools(options), ...(options.extra ?? [])].map((tool) => [tool.name, tool]));
  return new ToolRegistry(names.flatMap((n) => all.get(n) ?? []));
}
