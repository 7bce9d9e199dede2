import { ROUTES, isRouteName, type ApiError, type RouteHandlers } from '../../shared/contract.js';
import { toApiError } from './errors.js';

export type DispatchResult = { ok: true; output: unknown } | { ok: false; error: ApiError };

export interface DispatchOptions {
  /** Unexpected failures (not HearthError/AppError), for the surface's log; the UI only sees `internal`. */
  onInternalError?: (err: unknown, route: string) => void;
}

const MAX_ROUTE_ECHO = 80;

/**
 * The one way a transport calls the engine (Electron's IPC router, the web server's WebSocket): check
 * the route name, parse the input with the route's schema, call the handler, and turn every failure
 * into an ApiError. It never throws, so a transport needs no error handling of its own.
 */
export async function dispatch(handlers: RouteHandlers, route: unknown, input: unknown, options: DispatchOptions = {}): Promise<DispatchResult> {
  if (!isRouteName(route)) {
    const shown = typeof route === 'string' ? `"${route.slice(0, MAX_ROUTE_ECHO)}"` : `a ${typeof route}`;
    return { ok: false, error: { code: 'unknown_route', message: `There is no route ${shown}.` } };
  }
  // A route without input may be called without one; the schema still rejects anything else.
  const parsed = ROUTES[route].input.safeParse(input === undefined ? {} : input);
  if (!parsed.success) {
    return {
      ok: false,
      error: {
        code: 'invalid_input',
        message: `Invalid input for ${route}.`,
        issues: parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
      },
    };
  }
  // The schema and the handler belong to the same route name; TypeScript cannot follow that through a lookup.
  const handler = handlers[route] as (input: unknown) => Promise<unknown>;
  try {
    return { ok: true, output: await handler(parsed.data) };
  } catch (err) {
    return { ok: false, error: toApiError(err, (e) => options.onInternalError?.(e, route)) };
  }
}
