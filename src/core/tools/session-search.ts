import { z } from 'zod';
import { isHearthError } from '../errors.js';
import { renderSearchResult } from '../search/render-results.js';
import { SEARCH_LIMITS, type SessionSearch } from '../search/session-search.js';
import { defineTool } from './define.js';

const Input = z.object({
  query: z.string().optional().describe('Words or a question to look for in past sessions. Returns ranked matches with surrounding messages.'),
  session_id: z.string().min(1).optional().describe('With around_message_id: read a session around one message (ids come from earlier results).'),
  around_message_id: z.number().int().positive().optional().describe('The message (#id) to read around; needs session_id.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(SEARCH_LIMITS.maxBrowse)
    .optional()
    .describe(`Matches to return (default ${SEARCH_LIMITS.defaultHits}, at most ${SEARCH_LIMITS.maxHits}), or sessions to list when browsing (default ${SEARCH_LIMITS.defaultBrowse}).`),
});

/**
 * `session_search`: the model's view of past sessions. The shape comes from the arguments: `query`
 * searches, `session_id` + `around_message_id` scrolls, nothing lists recent sessions. A bad
 * combination comes back as an error result the model can correct, never a thrown exception.
 */
export function createSessionSearchTool(deps: { search: SessionSearch }) {
  return defineTool({
    name: 'session_search',
    description:
      'Search past conversations (no arguments: list recent sessions; query: find where something was discussed, with the messages around it and how each session began and ended; session_id + around_message_id: read more around a message).',
    input: Input,
    parallelSafe: true,
    async run(input) {
      try {
        return renderSearchResult(await deps.search.run(input));
      } catch (err) {
        if (isHearthError(err, 'usage') || isHearthError(err, 'session_not_found')) return { isError: true, content: err.message };
        throw err;
      }
    },
  });
}
