import type { LearnedContext } from '../learning/learning-loop.js';
import { loadContextFiles, quarantineNote, type ContextNotice, type ScreenedContextFile } from './context-files.js';

export { PROJECT_FILES, PROJECT_FILE_LIMIT, loadProjectContext, truncateHeadTail, type ContextNotice } from './context-files.js';

/**
 * The system prompt, assembled in three tiers (PARITY §6): stable (identity, tool guidance), context
 * (one project file, screened for prompt injection by context-files.ts), volatile (when the session started, model, session, workspace). It is built
 * once per session and sent byte-identical on every call, so providers' prompt caches and the local
 * model's KV cache keep the whole prefix. Nothing in it may depend on the current time or turn.
 */
export interface PromptInputs {
  /** HEARTH_HOME: `SOUL.md` there replaces the default identity. */
  home: string;
  workspace: string;
  modelId: string;
  sessionId: string;
  /** Tools the session exposes: guidance is given only for tools that exist (no hallucinated tools). */
  toolNames: readonly string[];
  /** When the session started (not "now": a resumed session must rebuild the same prompt). */
  startedAt: Date;
  /**
   * What the learning loop knows, rendered at session start and frozen for the session (writes during
   * the session reach the next one): the skills catalog, the agent's memory, the user profile.
   */
  learned?: LearnedContext;
}

/** Declared by learning, which sits below the agent and fills it in (decision 0016). */
export type { LearnedContext };

const DEFAULT_IDENTITY =
  'You are Hearth, a capable assistant running on the user\'s own computer. You get things done with your tools, ' +
  'say plainly what you did and what you found, and ask when a request is ambiguous rather than guessing.';

const GENERAL_GUIDANCE = [
  'Act rather than narrate: call tools to do the work instead of describing what you would do.',
  'Paths are relative to the workspace unless absolute.',
  'When the task is done, answer briefly: what you did and anything the user must know.',
];

const TOOL_GUIDANCE: Readonly<Record<string, string>> = {
  read_file: 'Read a file before editing it; page long files with offset/limit.',
  patch: 'Prefer patch for edits to existing files; include enough context in old_string to match once.',
  write_file: 'Use write_file for new files or complete rewrites.',
  search_files: 'Find code and files with search_files instead of guessing paths.',
  terminal: 'terminal runs bash; the working directory carries over. Avoid interactive programs. Risky commands wait for the user\'s approval.',
  todo: 'For work with several steps, keep a todo list and update it as you go.',
  clarify: 'Use clarify only when you cannot proceed sensibly without the user\'s answer.',
  memory:
    'Save durable facts with memory: the user\'s preferences and standing instructions (target "user"), their environment and projects (target "memory"). Declarative facts only, not task progress. The snapshot below is from the start of this session.',
  session_search: 'When the user refers to earlier work or you need something from a past session, use session_search before asking them.',
  skill_view: 'Before a task, check the skills catalog and any skill hints on the request; load a relevant skill with skill_view and follow it.',
  skills_search: 'The catalog shows only some skills: use skills_search to find others.',
  skill_manage:
    'After a complex task (about 5+ tool calls), a tricky fix, or a workflow the user will repeat, save it with skill_manage: patch an existing skill before creating a new one.',
  user_model: 'user_model answers what is known about the user, with evidence.',
};

export interface AssembledPrompt {
  prompt: string;
  /** What the injection screen did to SOUL.md or the project file; the caller must show these to the user. */
  notices: ContextNotice[];
}

/** The prompt as a string. Callers that can show notices to the user should use assembleSystemPrompt. */
export function buildSystemPrompt(inputs: PromptInputs): string {
  return assembleSystemPrompt(inputs).prompt;
}

export function assembleSystemPrompt(inputs: PromptInputs): AssembledPrompt {
  const learned = inputs.learned ?? {};
  const { soul, project, notices } = loadContextFiles(inputs.home, inputs.workspace);
  const stable = [
    ...identity(soul),
    section('How to work', guidance(inputs.toolNames)),
    ...optionalSection('Skills', learned.skillsCatalog),
  ];
  const context = project === null ? [] : [section(`Project instructions (${project.file})`, project.text ?? quarantineNote(project))];
  const remembered = [...optionalSection('Memory', learned.memory), ...optionalSection('About the user', learned.user)];
  const volatile = section(
    'Environment',
    [
      `Session started: ${inputs.startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      `Model: ${inputs.modelId}`,
      `Session: ${inputs.sessionId}`,
      `Workspace: ${inputs.workspace}`,
    ].join('\n'),
  );
  return { prompt: [...stable, ...context, ...remembered, volatile].join('\n\n'), notices };
}

/** SOUL.md replaces the default identity; a quarantined one falls back to it, with a note saying why. */
function identity(soul: ScreenedContextFile | null): string[] {
  if (soul === null) return [DEFAULT_IDENTITY];
  if (soul.text === null) return [DEFAULT_IDENTITY, quarantineNote(soul)];
  return [soul.text];
}

function optionalSection(title: string, body: string | undefined): string[] {
  return body === undefined || body.trim() === '' ? [] : [section(title, body)];
}

function guidance(toolNames: readonly string[]): string {
  const perTool = toolNames.flatMap((name) => (TOOL_GUIDANCE[name] === undefined ? [] : [TOOL_GUIDANCE[name]]));
  return [...GENERAL_GUIDANCE, ...perTool].map((line) => `- ${line}`).join('\n');
}

function section(title: string, body: string): string {
  return `# ${title}\n${body.trim()}`;
}
