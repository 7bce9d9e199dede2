import { z } from 'zod';
import type { ToolSchema } from '../llm/types.js';
import type { ApprovalBroker, SessionOrigin } from '../safety/approvals/broker.js';

/** What a tool hands back to the model. `isError` results are shown to the model as failures, not thrown. */
export interface ToolResult {
  content: string;
  isError?: boolean;
}

export interface CheckpointRequest {
  /** Shown in the checkpoint list: "before write_file src/a.ts", "before rm -rf build". */
  reason: string;
  paths?: string[];
  cwd?: string;
}

export interface ClarifyRequest {
  question: string;
  /** Up to four suggested answers; the user may always answer freely. */
  choices?: string[];
}

/** Everything a running tool may touch. Built by the agent for each call. */
export interface ToolContext {
  sessionId: string;
  /** Workspace root; relative paths resolve here. */
  workspace: string;
  /** Fires on interrupt: tools stop work and kill child processes. */
  signal: AbortSignal;
  approvals: ApprovalBroker;
  /** Who runs the session (default `user`); tools pass it to the approval broker, which denies subagents and cron more. */
  origin?: SessionOrigin;
  /**
   * Snapshot the project before files change so `/rollback` can undo the change. `paths` are the files about to
   * be written (file tools); without them `cwd`'s project is snapshotted (a destructive command). Never throws:
   * a snapshot that cannot be taken is reported to the user and the change goes ahead. Absent when checkpoints are off.
   */
  checkpoint?(request: CheckpointRequest): Promise<void>;
  /** Ask the user a question through whichever surface is attached (the `clarify` tool). */
  askUser(request: ClarifyRequest): Promise<string>;
  /** Stream partial output (terminal lines, progress) to the surface. */
  progress(text: string): void;
  /** Per-session mutable state a tool keeps across calls (terminal cwd, todo list). Keyed by tool name. */
  state: Map<string, unknown>;
  /**
   * Tell the user (not the model) something happened: "Memory is full", "Skill 'x' created". Surfaces
   * render it as a notice or a learning update. Absent in contexts with no user attached.
   */
  notify?(update: UserUpdate): void;
}

export type UserUpdate =
  | { kind: 'notice'; level: 'info' | 'warning' | 'error'; message: string }
  | {
      kind: 'learning';
      action: 'skill_created' | 'skill_updated' | 'skill_deleted' | 'skill_archived' | 'memory_updated' | 'user_model_updated' | 'write_staged';
      target: string;
      message: string;
      /** What the user can undo it with: the agent's memory removals and replacements (`memory_changes` id). */
      undo?: { memoryChange: number };
    };

export interface ToolDefinition<Input = unknown> {
  name: string;
  description: string;
  input: z.ZodType<Input>;
  /**
   * May this call run concurrently with the other calls of one response? A function lets file tools
   * say "yes, unless another call in the batch touches an overlapping path" (see `paths`).
   */
  parallelSafe: boolean;
  /** Absolute paths this call reads or writes, for the overlap check of parallel batches. */
  paths?: (input: Input, ctx: Pick<ToolContext, 'workspace' | 'state'>) => string[];
  run(input: Input, ctx: ToolContext): Promise<ToolResult | string>;
}

/** Identity helper that keeps `Input` inferred from the zod schema at the definition site. */
export function defineTool<S extends z.ZodType>(def: Omit<ToolDefinition<z.infer<S>>, 'input'> & { input: S }): ToolDefinition<z.infer<S>> {
  return def as ToolDefinition<z.infer<S>>;
}

/** JSON Schema for the model, generated from the same zod schema that validates the call. */
export function toolSchema<Input>(def: ToolDefinition<Input>): ToolSchema {
  const schema = z.toJSONSchema(def.input, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  delete schema.$schema;
  return { name: def.name, description: def.description, parameters: schema };
}
