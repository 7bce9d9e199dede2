import { abortError, errorMessage } from '../errors.js';
import { capHeadTail } from '../exec/output-cap.js';
import type { ToolCall } from '../llm/types.js';
import type { ToolContext, ToolResult } from '../tools/define.js';
import type { AnyTool, ToolRegistry } from '../tools/registry.js';

/** A tool call checked against the registry and the tool's schema, ready to run or already failed. */
export type PreparedCall =
  | { call: ToolCall; args: unknown; tool: AnyTool; input: unknown; error?: undefined }
  | { call: ToolCall; args: unknown; tool?: undefined; error: string };

/**
 * Turns a raw call into something runnable. Every problem becomes an error result the model can act
 * on (never an exception): an unknown name lists the tools that exist, bad JSON quotes the parser, and
 * schema failures list each zod issue with its path.
 */
export function prepareCall(call: ToolCall, tools: ToolRegistry): PreparedCall {
  const tool = tools.get(call.name);
  const raw = call.arguments.trim();
  let args: unknown;
  try {
    // Some providers send "" for a call without arguments.
    args = raw === '' ? {} : JSON.parse(raw);
  } catch (err) {
    const error = `Invalid JSON in the arguments of ${call.name}: ${errorMessage(err)}. Send the arguments as a single JSON object.`;
    return tool === undefined ? { call, args: call.arguments, error: unknownTool(call.name, tools) } : { call, args: call.arguments, error };
  }
  if (tool === undefined) return { call, args, error: unknownTool(call.name, tools) };
  const parsed = tool.input.safeParse(args);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}`);
    return { call, args, error: `Invalid arguments for ${call.name}: ${issues.join('; ')}. Fix them and call again.` };
  }
  return { call, args, tool, input: parsed.data };
}

function unknownTool(name: string, tools: ToolRegistry): string {
  return `Unknown tool "${name}". Available tools: ${tools.names().join(', ')}.`;
}

export const CANCELLED_RESULT = 'Cancelled by the user before this call finished.';

export interface ExecutedCall {
  result: ToolResult;
  /** The exception a tool threw (already turned into an error result), for the surface to report. */
  thrown?: string;
  /** The call was interrupted before it finished (its result is CANCELLED_RESULT). */
  cancelled?: true;
}

/**
 * Runs one prepared call. An interrupt resolves at once with a "cancelled" result even if the tool is
 * slow to notice: the turn must end promptly, and tools that spawn processes kill them on the same signal.
 *
 * `redact` (secret redaction) sees the whole result before the cap, so a key cut in half by the cap
 * cannot slip through as two unrecognisable pieces; the text of a thrown error is redacted too.
 */
export async function executeCall(
  prepared: PreparedCall,
  ctx: ToolContext,
  resultLimit: number,
  redact: (text: string) => string = (text) => text,
): Promise<ExecutedCall> {
  if (prepared.tool === undefined) return { result: { content: redact(prepared.error), isError: true } };
  if (ctx.signal.aborted) return { result: { content: CANCELLED_RESULT, isError: true }, cancelled: true };
  const running = prepared.tool.run(prepared.input, ctx);
  let outcome: ExecutedCall;
  try {
    const raw = await raceAbort(running, ctx.signal);
    const result: ToolResult = typeof raw === 'string' ? { content: raw } : raw;
    outcome = { result };
  } catch (err) {
    if (ctx.signal.aborted) return { result: { content: CANCELLED_RESULT, isError: true }, cancelled: true };
    const message = redact(errorMessage(err));
    outcome = { result: { content: `Tool ${prepared.call.name} failed: ${message}`, isError: true }, thrown: message };
  }
  if (outcome.thrown === undefined) outcome.result = { ...outcome.result, content: redact(outcome.result.content) };
  const capped = capHeadTail(outcome.result.content, resultLimit);
  if (capped.truncated) {
    outcome.result = {
      ...outcome.result,
      content: `${capped.text}\n[Result cut to ${resultLimit} of ${outcome.result.content.length} characters. Ask for less: a smaller range, a narrower pattern.]`,
    };
  }
  return outcome;
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        // After an interrupt the call already counts as cancelled; its late failure (usually the abort itself) changes nothing.
        reject(err);
      },
    );
  });
}
