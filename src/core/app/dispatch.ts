import type { z } from 'zod';
import { ROUTES, type ApiError, type RouteHandlers } from '../../shared/contract.js';
import { toApiError } from './errors.js';

export type DispatchResult = { ok: true; output: unknown } | { ok: false; error: ApiError };

/** Route name → input schema: `ROUTES` from the contract (a test may serve the same routes with other schemas). */
export type RouteSchemas = Readonly<Record<string, { readonly input: z.ZodType }>>;

export interface DispatchOptions {
  /** Unexpected failures (not HearthError/AppError), for the surface's log; the UI only sees `internal`. */
  onInternalError?: (err: unknown, route: string) => void;
  /** The schemas the input is checked against; `ROUTES` unless a test swaps one in. */
  routes?: RouteSchemas;
}

export type ParseResult = { ok: true; input: unknown } | { ok: false; error: ApiError };

const MAX_ROUTE_ECHO = 80;

/** Whether `route` names one of `routes` (own keys only: "constructor" or "__proto__" are not routes). */
export function isRouteOf(routes: RouteSchemas, route: unknown): route is string {
  return typeof route === 'string' && Object.hasOwn(routes, route);
}

export function unknownRoute(route: unknown): { ok: false; error: ApiError } {
  const shown = typeof route === 'string' ? `"${route.slice(0, MAX_ROUTE_ECHO)}"` : `a ${typeof route}`;
  return { ok: false, error: { code: 'unknown_route', message: `There is no route ${shown}.` } };
}

/**
 * The one parse of a route's input, for whichever transport is the edge (the IPC router, `dispatch` for the
 * WebSocket bridge). A route without input may be called without one; the schema still rejects anything else.
 */
export function parseRouteInput(schema: z.ZodType, route: string, input: unknown): ParseResult {
  const parsed = schema.safeParse(input === undefined ? {} : input);
  if (parsed.success) return { ok: true, input: parsed.data };
  return {
    ok: false,
    error: {
      code: 'invalid_input',
      message: `Invalid input for ${route}.`,
      issues: parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
    },
  };
}

/**
 * The way a transport that has not parsed the input calls the engine (the web server's WebSocket, Electron
 * main's own calls): check the route name, parse the input with the route's schema, call the handler, and
 * turn every failure into an ApiError. It never throws, so a transport needs no error handling of its own.
 */
export async function dispatch(handlers: RouteHandlers, route: unknown, input: unknown, options: DispatchOptions = {}): Promise<DispatchResult> {
  const routes: RouteSchemas = options.routes ?? ROUTES;
  if (!isRouteOf(routes, route)) return unknownRoute(route);
  const parsed = parseRouteInput((routes[route] as { input: z.ZodType }).input, route, input);
  if (!parsed.ok) return parsed;
  return dispatchParsed(handlers, route, parsed.input, options);
}

/**
 * For a transport that parsed the input itself with the same route's schema (the IPC router, which must
 * parse before it decides to dispatch at all): the handler gets `parsedInput` as it is, so a schema's
 * transforms and defaults run once per call. The route name is still checked: a handler lookup on an
 * unchecked name could reach an inherited property.
 */
export async function dispatchParsed(handlers: RouteHandlers, route: string, parsedInput: unknown, options: DispatchOptions = {}): Promise<DispatchResult> {
  if (!isRouteOf(options.routes ?? ROUTES, route) || !Object.hasOwn(handlers, route)) return unknownRoute(route);
  // The schema and the handler belong to the same route name; TypeScript cannot follow that through a lookup.
  const handler = (handlers as unknown as Record<string, (input: unknown) => Promise<unknown>>)[route] as (input: unknown) => Promise<unknown>;
  try {
    return { ok: true, output: await handler(parsedInput) };
  } catch (err) {
    return { ok: false, error: toApiError(err, (e) => options.onInternalError?.(e, route)) };
  }
}
