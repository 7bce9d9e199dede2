import { z } from 'zod';
import { AgentEvent, ApprovalRequestEvent, ClarifyRequestEvent, ToolOutcome } from './events.js';
import { LearningRun } from './learning-journal.js';

/**
 * The contract between a UI (the desktop renderer, the same renderer in web mode) and the engine. Every
 * route is declared once here with its input and output schema; Electron main's IPC router and the web
 * server's WebSocket bridge both parse input with these schemas before calling the engine, and the renderer
 * is typed from them, so it cannot tell which transport it is on.
 *
 * Routes are request/response. What happens over time (a turn streaming, a download progressing, a
 * background review) arrives as `UiEvent`s on the one event channel.
 */

const Id = z.string().min(1).max(200);
const Text = z.string().max(1_000_000);
const Empty = z.object({}).strict();

export const MemoryTarget = z.enum(['memory', 'user']);
export const ApprovalChoice = z.enum(['once', 'session', 'always', 'deny']);
export const ThemeSetting = z.enum(['light', 'dark', 'system']);
export const LanguageSetting = z.enum(['en', 'zh-CN']);

export const Attachment = z.object({
  name: z.string().min(1).max(500),
  /** Text content only: binary files are refused by the UI before they get here. */
  content: z.string().max(2_000_000),
});

export const SessionSummary = z.object({
  id: z.string(),
  title: z.string().nullable(),
  source: z.string(),
  model: z.string(),
  parentSessionId: z.string().nullable(),
  startedAt: z.number(),
  updatedAt: z.number(),
  messageCount: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  /** Why the last turn failed; null when it ended normally. The list marks such sessions. */
  lastError: z.string().nullable(),
  /** Whether the model replied at least once: a failed run without a reply is what "clear failed runs" deletes. */
  hasReply: z.boolean(),
});

export const DisplayToolCall = z.object({ id: z.string(), name: z.string(), arguments: z.string() });

export const DisplayMessage = z.object({
  id: z.number(),
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string(),
  reasoning: z.string().nullable(),
  toolCalls: z.array(DisplayToolCall),
  toolCallId: z.string().nullable(),
  toolName: z.string().nullable(),
  /** A tool result's outcome (done, denied, timed out…); null for other roles and for results stored before outcomes were. */
  outcome: ToolOutcome.nullable(),
  createdAt: z.number(),
});

export const SearchResult = z.object({
  sessionId: z.string(),
  sessionTitle: z.string().nullable(),
  messageId: z.number(),
  role: z.string(),
  /** Plain text with the matched words wrapped in U+E000 … U+E001 (the UI turns them into <mark>; no HTML crosses the wire). */
  snippet: z.string(),
  createdAt: z.number(),
});

export const SkillSummary = z.object({
  name: z.string(),
  description: z.string(),
  location: z.string(),
  scope: z.string(),
  category: z.string().nullable(),
  tags: z.array(z.string()),
  /** Only skills under HEARTH_HOME/skills can be edited or deleted from the UI. */
  editable: z.boolean(),
  usage: z.object({ viewed: z.number(), used: z.number(), patched: z.number(), lastUsedAt: z.number().nullable() }),
});

export const SkillProblem = z.object({ field: z.string().nullable(), message: z.string(), severity: z.enum(['error', 'warning']) });

export const PendingChange = z.object({
  id: z.number(),
  kind: z.enum(['memory', 'skill', 'user_model']),
  summary: z.string(),
  /** Unified diff of what approving would change ('' when there is nothing to compare against). */
  diff: z.string(),
  createdAt: z.number(),
});

export const MemoryEntryView = z.object({
  index: z.number(),
  content: z.string(),
  /** The entry's id (`hearth memory protect <id>`). */
  id: z.number(),
  /** Only the user may change or remove it; the agent's attempts wait in the pending list. */
  protected: z.boolean(),
  /** Null for entries saved before Hearth recorded who wrote them. */
  author: z.enum(['user', 'agent']).nullable(),
  /** How it got in: app | cli | import | confirmed | tool | legacy. */
  via: z.string(),
});
/** One removal or replacement the agent made, newest first; `undone` once the user put it back. */
export const MemoryChangeView = z.object({
  id: z.number(),
  target: MemoryTarget,
  action: z.enum(['removed', 'replaced']),
  /** "Removed from user profile: 'Prefers tabs'". */
  message: z.string(),
  createdAt: z.number(),
  undone: z.boolean(),
});
export const MemoryStoreView = z.object({
  target: MemoryTarget,
  entries: z.array(MemoryEntryView),
  usedChars: z.number(),
  limitChars: z.number(),
});

export const UserFactView = z.object({
  id: z.number(),
  statement: z.string(),
  category: z.string(),
  confidence: z.number(),
  /** `rejected`: the user said "this is wrong"; `superseded`: replaced by a newer fact (a correction included). */
  status: z.enum(['active', 'superseded', 'rejected']),
  /** `user`: the user's own wording (a correction); `reflection`: learned from their messages. */
  source: z.enum(['reflection', 'user']),
  evidence: z.array(z.object({ messageId: z.number(), sessionId: z.string().nullable(), excerpt: z.string() })),
});

export const ProviderView = z.object({
  name: z.string(),
  type: z.enum(['openai', 'anthropic']),
  baseUrl: z.string(),
  /** Whether an API key for it is in the OS keychain. The key itself never leaves main/the server. */
  hasKey: z.boolean(),
  /** A preset (openai, anthropic, ollama…): it cannot be removed, only edited (removing an edit restores the preset). */
  builtIn: z.boolean().optional(),
  /** A preset whose entry config.yaml changes: it can be reset to the built-in values. */
  edited: z.boolean().optional(),
  /** On this machine (Ollama, LM Studio, llama-server): the UI says no key is needed. */
  local: z.boolean().optional(),
});

/** What a connection test found (`providers.test`): the models to pick from, or why it failed, in words. */
export const ProviderTestResult = z.object({
  ok: z.boolean(),
  /** The listing URL that was tried. */
  url: z.string(),
  models: z.array(z.string()),
  /** unauthorized | not_found | unreachable | timeout | not_compatible | http_error; null when ok. */
  problem: z.string().nullable(),
  message: z.string(),
});

export const SettingsView = z.object({
  defaultModel: z.string(),
  fallbacks: z.array(z.string()),
  providers: z.array(ProviderView),
  approvals: z.object({ mode: z.enum(['manual', 'smart', 'off']), allowlist: z.array(z.string()), timeoutSeconds: z.number() }),
  toolset: z.string(),
  tools: z.array(z.object({ name: z.string(), enabled: z.boolean() })),
  theme: ThemeSetting,
  language: LanguageSetting,
  quickPromptShortcut: z.string(),
});

export const SettingsPatch = z
  .object({
    defaultModel: z.string().min(1),
    fallbacks: z.array(z.string().min(1)),
    provider: z.object({ name: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/), type: z.enum(['openai', 'anthropic']), baseUrl: z.url({ protocol: /^https?$/ }) }),
    /** Drops a provider of config.yaml (and its stored key); refused while the default model or a fallback uses it. */
    removeProvider: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/),
    approvalsMode: z.enum(['manual', 'smart', 'off']),
    allowlist: z.array(z.string().min(1)),
    disabledTools: z.array(z.string().min(1)),
    theme: ThemeSetting,
    language: LanguageSetting,
    quickPromptShortcut: z.string().min(1).max(100),
  })
  .partial()
  .strict();

export const ModelFileView = z.object({ name: z.string(), path: z.string(), sizeBytes: z.number() });
export const CuratedModel = z.object({
  id: z.string(),
  label: z.string(),
  /** One text per UI language (keys as in the renderer's dictionaries); the renderer shows the one for its language. */
  description: z.object({ en: z.string(), 'zh-CN': z.string() }),
  source: z.string(),
  sizeBytes: z.number(),
  sha256: z.string().nullable(),
});
export const FitEstimate = z.object({
  fits: z.boolean(),
  /** Where it would run: all layers on the GPU, some, or on the CPU. */
  placement: z.enum(['gpu', 'partial', 'cpu']),
  requiredBytes: z.number(),
  availableBytes: z.number(),
  detail: z.string(),
});
export const DownloadState = z.enum(['queued', 'downloading', 'paused', 'verifying', 'done', 'cancelled', 'failed']);
export const DownloadView = z.object({
  id: z.string(),
  source: z.string(),
  file: z.string(),
  state: DownloadState,
  receivedBytes: z.number(),
  totalBytes: z.number().nullable(),
  bytesPerSecond: z.number(),
  etaSeconds: z.number().nullable(),
  error: z.string().nullable(),
  /** Something the user should know that is not a failure ("the server cannot resume: started again from 0"). */
  notice: z.string().nullable().optional(),
});

export const StatusView = z.object({
  model: z.string(),
  device: z.enum(['gpu', 'cpu', 'remote', 'unknown']),
  tokensPerSecond: z.number().nullable(),
  contextUsed: z.number().nullable(),
  contextSize: z.number().nullable(),
  /** No model file and no provider configured: the UI shows onboarding. */
  needsSetup: z.boolean(),
  /** While the local model loads: 0…1; null otherwise. */
  loadProgress: z.number().min(0).max(1).nullable().optional(),
});

/** A snapshot of the workspace taken before the agent changed files (`checkpoints.*`); 1 is the newest. */
export const CheckpointView = z.object({
  number: z.number().int(),
  /** The change it was taken before ("before write_file plan.md", "before rm -rf build"). */
  reason: z.string(),
  /** Later changes of the same turn it also holds the state before (one snapshot per turn). */
  covers: z.array(z.string()),
  time: z.number(),
  filesChanged: z.number().int(),
});

/**
 * The questions a running turn waits on, held by the engine rather than by the page that first showed them, so
 * a reloaded page, a second tab or another window shows them again and can answer (`approvals.pending`).
 */
export const PendingApprovalView = z.object({ sessionId: z.string(), request: ApprovalRequestEvent });
export const PendingClarifyView = z.object({ sessionId: z.string(), request: ClarifyRequestEvent });

/** One approval decision from the audit log, newest first (`approvals.log`). */
export const ApprovalLogEntry = z.object({
  at: z.number(),
  sessionId: z.string(),
  kind: z.string(),
  origin: z.string(),
  command: z.string(),
  verdict: z.string(),
  reasons: z.array(z.string()),
  approved: z.boolean(),
  decision: z.string(),
  judged: z.string().nullable(),
});

const route = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O) => ({ input, output });
const Ok = z.object({ ok: z.literal(true) });

export const ROUTES = {
  'app.status': route(Empty, StatusView),

  'chat.start': route(z.object({ title: z.string().max(200).optional() }).strict(), z.object({ sessionId: z.string() })),
  /** Starts a turn; its events arrive as `agent` UiEvents for this session. Resolves once the turn has started. */
  'chat.send': route(z.object({ sessionId: Id, text: Text, attachments: z.array(Attachment).max(20).default([]) }).strict(), Ok),
  'chat.interrupt': route(z.object({ sessionId: Id }).strict(), z.object({ interrupted: z.boolean() })),
  'chat.steer': route(z.object({ sessionId: Id, text: Text.min(1) }).strict(), z.object({ accepted: z.boolean() })),
  /** `accepted: false` when the question is no longer open (answered elsewhere first, timed out, withdrawn). */
  'approvals.answer': route(z.object({ id: Id, choice: ApprovalChoice }).strict(), z.object({ accepted: z.boolean() })),
  /** Every approval and clarify question still waiting for an answer, of every session: what a surface shows when it attaches. */
  'approvals.pending': route(Empty, z.object({ approvals: z.array(PendingApprovalView), clarifications: z.array(PendingClarifyView) })),
  'clarify.answer': route(z.object({ id: Id, text: Text }).strict(), z.object({ accepted: z.boolean() })),
  'approvals.log': route(z.object({ limit: z.number().int().min(1).max(1000).default(100) }).strict(), z.array(ApprovalLogEntry)),

  /** Checkpoints of the workspace the engine serves; `enabled: false` when `checkpoints.enabled` is off. */
  'checkpoints.list': route(Empty, z.object({ project: z.string(), enabled: z.boolean(), checkpoints: z.array(CheckpointView) })),
  'checkpoints.diff': route(z.object({ number: z.number().int().min(1) }).strict(), z.object({ diff: z.string() })),
  /** Puts the files back as they were at checkpoint `number`, after snapshotting the present (so it can be undone). */
  'checkpoints.rollback': route(z.object({ number: z.number().int().min(1) }).strict(), z.object({ restored: z.array(z.string()), removed: z.array(z.string()) })),

  'sessions.list': route(z.object({ limit: z.number().int().min(1).max(500).default(100), offset: z.number().int().min(0).default(0) }).strict(), z.array(SessionSummary)),
  'sessions.search': route(z.object({ query: z.string().min(1).max(1000), limit: z.number().int().min(1).max(200).default(50) }).strict(), z.array(SearchResult)),
  'sessions.open': route(z.object({ sessionId: Id }).strict(), z.object({ session: SessionSummary, messages: z.array(DisplayMessage) })),
  'sessions.rename': route(z.object({ sessionId: Id, title: z.string().min(1).max(200) }).strict(), Ok),
  'sessions.delete': route(z.object({ sessionId: Id }).strict(), Ok),
  /** Deletes the sessions whose last turn failed before the model replied at all; running ones are kept. */
  'sessions.clearFailed': route(Empty, z.object({ deleted: z.number().int() })),
  /** A new session holding a copy of the messages up to and including `messageId` (all of them when omitted). */
  'sessions.branch': route(z.object({ sessionId: Id, messageId: z.number().int().optional() }).strict(), z.object({ sessionId: z.string() })),

  'skills.list': route(Empty, z.array(SkillSummary)),
  'skills.show': route(z.object({ name: Id }).strict(), z.object({ skill: SkillSummary, markdown: z.string(), files: z.array(z.string()) })),
  'skills.validate': route(z.object({ content: Text }).strict(), z.object({ valid: z.boolean(), problems: z.array(SkillProblem) })),
  /** Create and edit take the whole SKILL.md; the name comes from its frontmatter. Invalid content is refused with its problems. */
  'skills.create': route(z.object({ content: Text }).strict(), z.object({ name: z.string() })),
  'skills.edit': route(z.object({ name: Id, content: Text }).strict(), Ok),
  'skills.delete': route(z.object({ name: Id }).strict(), Ok),
  'pending.list': route(Empty, z.array(PendingChange)),
  'pending.decide': route(z.object({ id: z.number().int(), approve: z.boolean() }).strict(), Ok),

  'memory.list': route(Empty, z.array(MemoryStoreView)),
  'memory.add': route(z.object({ target: MemoryTarget, content: z.string().min(1).max(10_000) }).strict(), Ok),
  'memory.replace': route(z.object({ target: MemoryTarget, oldText: z.string().min(1), content: z.string().min(1).max(10_000) }).strict(), Ok),
  'memory.remove': route(z.object({ target: MemoryTarget, oldText: z.string().min(1) }).strict(), Ok),
  /** Mark an entry as a standing rule / confirm it (true), or let the agent consolidate it again (false). */
  'memory.protect': route(z.object({ id: z.number().int(), protected: z.boolean() }).strict(), Ok),
  /** The agent's recent removals and replacements, each with what undo would restore. */
  'memory.changes': route(Empty, z.array(MemoryChangeView)),
  /** Put back what the agent removed or replaced (the `undo` of a `learning` event). */
  'memory.undo': route(z.object({ changeId: z.number().int() }).strict(), z.object({ message: z.string() })),
  'userModel.facts': route(z.object({ includeSuperseded: z.boolean().default(false) }).strict(), z.array(UserFactView)),
  /** The user's wording replaces the fact (the old one is kept as superseded). */
  'userModel.correct': route(z.object({ id: z.number().int(), statement: z.string().trim().min(3).max(400) }).strict(), UserFactView),
  /** "This is wrong": the fact stops being used, and the reflection will not learn it again. */
  'userModel.reject': route(z.object({ id: z.number().int() }).strict(), Ok),
  'userModel.delete': route(z.object({ id: z.number().int() }).strict(), Ok),
  /** The learning journal: background reviews, flushes, reflections and curator runs with their outcomes, newest first. */
  'learning.log': route(z.object({ limit: z.number().int().min(1).max(1000).default(200) }).strict(), z.array(LearningRun)),

  'settings.get': route(Empty, SettingsView),
  'settings.update': route(SettingsPatch, SettingsView),
  /** The key goes to the OS keychain and nowhere else; the reply says only that it is stored. */
  'secrets.setApiKey': route(z.object({ provider: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/), key: z.string().min(1).max(4096) }).strict(), z.object({ stored: z.literal(true) })),
  'secrets.deleteApiKey': route(z.object({ provider: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/) }).strict(), Ok),
  /**
   * Connection test and model discovery (`GET {baseUrl}/models`) before or after saving a provider. The key is
   * `apiKey` when given (typed, not stored yet), else the one stored for `provider`; it is never sent back.
   */
  'providers.test': route(
    z.object({
      type: z.enum(['openai', 'anthropic']),
      baseUrl: z.string().min(1).max(2000),
      provider: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/).optional(),
      apiKey: z.string().min(1).max(4096).optional(),
    }).strict(),
    ProviderTestResult,
  ),

  'models.list': route(Empty, z.object({ files: z.array(ModelFileView), curated: z.array(CuratedModel), downloads: z.array(DownloadView) })),
  /** `source`: an `hf:` URI, an http(s) URL, or a local .gguf path. */
  'models.fit': route(z.object({ source: z.string().min(1).max(2000), sizeBytes: z.number().optional() }).strict(), FitEstimate),
  'models.download': route(z.object({ source: z.string().min(1).max(2000), sha256: z.string().regex(/^[0-9a-f]{64}$/).optional() }).strict(), DownloadView),
  'models.pause': route(z.object({ id: Id }).strict(), DownloadView),
  'models.resume': route(z.object({ id: Id }).strict(), DownloadView),
  'models.cancel': route(z.object({ id: Id }).strict(), DownloadView),
  'models.use': route(z.object({ path: z.string().min(1) }).strict(), Ok),
} as const;

export type RouteName = keyof typeof ROUTES;
export type RouteInput<R extends RouteName> = z.input<(typeof ROUTES)[R]['input']>;
export type ParsedInput<R extends RouteName> = z.output<(typeof ROUTES)[R]['input']>;
export type RouteOutput<R extends RouteName> = z.output<(typeof ROUTES)[R]['output']>;

export const ROUTE_NAMES = Object.keys(ROUTES) as RouteName[];
export function isRouteName(name: unknown): name is RouteName {
  return typeof name === 'string' && Object.hasOwn(ROUTES, name);
}

/** Events pushed to every connected UI. */
export const UiEvent = z.discriminatedUnion('channel', [
  /** An event of a turn (or a background review) of one session. */
  z.object({ channel: z.literal('agent'), sessionId: z.string(), event: AgentEvent }),
  z.object({ channel: z.literal('download'), download: DownloadView }),
  z.object({ channel: z.literal('status'), status: StatusView }),
]);
export type UiEvent = z.infer<typeof UiEvent>;

/** A failed call, the same shape on every transport. */
export const ErrorCode = z.enum(['invalid_input', 'unknown_route', 'forbidden', 'not_found', 'conflict', 'unavailable', 'internal']);
export const ApiError = z.object({ code: z.string(), message: z.string(), issues: z.array(z.object({ path: z.string(), message: z.string() })).optional() });
export type ApiError = z.infer<typeof ApiError>;

/** What the renderer talks to: `window.hearth` from the preload, or the WebSocket bridge in web mode. */
export interface HearthApi {
  invoke<R extends RouteName>(route: R, input: RouteInput<R>): Promise<RouteOutput<R>>;
  onEvent(listener: (event: UiEvent) => void): () => void;
}

/** The engine side: one async function per route, given already-parsed input. */
export type RouteHandlers = { [R in RouteName]: (input: ParsedInput<R>) => Promise<RouteOutput<R>> };

/** Web-mode wire frames (JSON text frames on the WebSocket). */
export const ClientFrame = z.object({ id: z.number().int().nonnegative(), route: z.string(), input: z.unknown() }).strict();
export const ServerFrame = z.union([
  z.object({ id: z.number(), ok: z.literal(true), output: z.unknown() }),
  z.object({ id: z.number(), ok: z.literal(false), error: ApiError }),
  z.object({ event: UiEvent }),
]);
export type ClientFrame = z.infer<typeof ClientFrame>;
export type ServerFrame = z.infer<typeof ServerFrame>;

/** Electron IPC channel names (main ↔ preload). */
export const IPC_INVOKE_CHANNEL = 'hearth:invoke';
export const IPC_EVENT_CHANNEL = 'hearth:event';
