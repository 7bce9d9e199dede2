import type { AgentEvent } from '../../shared/events.js';
import type { AgentHost } from '../agent/host.js';
import { errorMessage, isHearthError } from '../errors.js';
import type { SessionStore } from '../store/types.js';
import type { CompletionOutput } from './completion-output.js';
import { invalid, lastUserText, seedHistory } from './messages.js';
import { ApiError, type ChatCompletionBody } from './wire.js';

/**
 * `model: "hearth-agent"`: one turn of the full agent (tools, memory, skills) in a session of source `api`.
 *
 * Sessions: a request with an `X-Hearth-Session: <id>` header continues that stored session (its stored
 * history is the context; the earlier messages the client resends are not added again). Without it, a new
 * session starts, seeded with the request's earlier messages. Every answer names its session in the same
 * header, so a client continues by sending it back.
 *
 * Approvals: with `approvals: 'deny'` (nobody but the API client is there, `hearth serve --api`) a dangerous
 * action is denied at once and the agent is told; with `'surface'` (the desktop or the gateway runs the same
 * engine) the question waits in the host's open questions for that surface, and unanswered means denied.
 */

export const SESSION_HEADER = 'x-hearth-session';

/** What the agent hears when it asks a question nobody can answer through the API. */
export const NO_ANSWER = 'No answer: the user reaches Hearth through its API and cannot be asked questions during a turn. Make a reasonable choice, say which, and carry on.';

export interface AgentDeps {
  host: AgentHost;
  store: SessionStore;
  /** The chat model's id, recorded on new sessions. */
  modelId(): string;
  approvals: 'deny' | 'surface';
  /** How long a clarify question waits for another surface before the agent hears NO_ANSWER (`'surface'` only). */
  clarifyWaitMs(): number;
}

export interface AgentTurn {
  sessionId: string;
  events: AsyncIterable<AgentEvent>;
}

/** Opens or continues the session and starts the turn; a request that cannot run throws its 4xx `ApiError`. */
export function startAgentTurn(deps: AgentDeps, body: ChatCompletionBody, sessionHeader: string | undefined): AgentTurn {
  if ((body.tools ?? []).length > 0) {
    throw invalid('hearth-agent runs its own tools (terminal, files, memory, skills…), so it takes no "tools": pass a configured model id to use yours.');
  }
  const text = lastUserText(body.messages);
  const sessionId = sessionHeader === undefined ? newSession(deps, body) : existingSession(deps, sessionHeader.trim());
  try {
    return { sessionId, events: deps.host.send(sessionId, text) };
  } catch (err) {
    // Another request started a turn in this session between the check and now.
    if (isHearthError(err, 'usage')) throw new ApiError(409, 'invalid_request_error', 'session_busy', errorMessage(err));
    throw err;
  }
}

function existingSession(deps: AgentDeps, sessionId: string): string {
  if (deps.store.getSession(sessionId) === null) throw new ApiError(404, 'not_found_error', 'session_not_found', `No session with id "${sessionId}" (from the X-Hearth-Session header).`);
  if (deps.host.isRunning(sessionId)) throw new ApiError(409, 'invalid_request_error', 'session_busy', `A turn is already running in session ${sessionId}: wait for its answer before sending the next message.`);
  return sessionId;
}

function newSession(deps: AgentDeps, body: ChatCompletionBody): string {
  const history = seedHistory(body.messages);
  if (history.length === 0) return deps.host.startSession({ source: 'api' });
  // Stored first, then opened like any stored session, so the transcript shows the context the turn had.
  const record = deps.store.createSession({ source: 'api', model: deps.modelId() });
  for (const message of history) deps.store.appendMessage(record.id, message);
  deps.host.resumeSession(record.id);
  return record.id;
}

/**
 * Relays the turn's events into the completion: its text (the rounds between tool runs joined by a blank line,
 * streamed or whole alike), its usage summed over every model call. The signal fires when the client goes away:
 * the turn is interrupted, its tools and processes stopped.
 */
export async function relayAgentTurn(deps: AgentDeps, turn: AgentTurn, output: CompletionOutput, signal: AbortSignal): Promise<void> {
  const interrupt = () => deps.host.interrupt(turn.sessionId);
  signal.addEventListener('abort', interrupt, { once: true });
  if (signal.aborted) interrupt();
  const clarifyTimers = new Set<NodeJS.Timeout>();
  let wroteText = false;
  let toolsRanSinceText = false;
  try {
    for await (const event of turn.events) {
      switch (event.type) {
        case 'text_delta':
          if (toolsRanSinceText && wroteText) output.text('\n\n');
          toolsRanSinceText = false;
          wroteText = true;
          output.text(event.delta);
          break;
        case 'tool_end':
          toolsRanSinceText = true;
          break;
        case 'usage':
          output.usage(event);
          break;
        case 'approval_request':
          if (deps.approvals === 'deny') deps.host.answerApproval(event.id, 'deny');
          break;
        case 'clarify_request':
          if (deps.approvals === 'deny') deps.host.answerClarify(event.id, NO_ANSWER);
          else clarifyTimers.add(setTimeout(() => deps.host.answerClarify(event.id, NO_ANSWER), deps.clarifyWaitMs()));
          break;
        case 'turn_end':
          if (event.reason === 'stop' || event.reason === 'budget') output.finish('stop');
          else if (event.reason === 'error') output.fail(new ApiError(502, 'server_error', event.error?.code ?? 'internal', event.error?.message ?? 'the turn failed'));
          else if (!signal.aborted) output.fail(new ApiError(503, 'server_error', 'aborted', 'The turn was stopped before it answered (Hearth is shutting down, or it was stopped from another surface).'));
          return;
        default:
          // Status, tool progress, notices and learning events are the desktop's to show; the format has no place for them.
          break;
      }
    }
    if (!signal.aborted) output.fail(new ApiError(500, 'server_error', 'internal', 'The turn ended without saying how.'));
  } finally {
    signal.removeEventListener('abort', interrupt);
    for (const timer of clarifyTimers) clearTimeout(timer);
  }
}
