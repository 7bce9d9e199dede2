import { HearthError, errorMessage } from '../errors.js';

/** gRPC status codes (the SDK's errors carry them as `code`; nice-grpc's ClientError). */
const GRPC = { DEADLINE_EXCEEDED: 4, NOT_FOUND: 5, PERMISSION_DENIED: 7, RESOURCE_EXHAUSTED: 8, FAILED_PRECONDITION: 9, UNAVAILABLE: 14, UNAUTHENTICATED: 16 } as const;

export interface ModalErrorContext {
  /** The Modal API address, for "cannot reach" messages. */
  serverUrl: string;
  /** Where the token came from, so a refused token says which one to fix. */
  credentialSource: 'environment' | 'keychain';
}

/**
 * The SDK's failures as Hearth errors a user can act on: a refused token is `backend_auth` (saying
 * which token), an unreachable API or no capacity is `backend_unavailable`, anything else while a
 * command runs is `backend_failed`.
 */
export function modalError(err: unknown, doing: string, context: ModalErrorContext): HearthError {
  if (err instanceof HearthError) return err;
  const code = grpcCode(err);
  const detail = errorMessage(err);
  if (code === GRPC.UNAUTHENTICATED || code === GRPC.PERMISSION_DENIED) {
    const where = context.credentialSource === 'environment' ? 'MODAL_TOKEN_ID / MODAL_TOKEN_SECRET' : 'the keychain entries "modal:token_id" / "modal:token_secret"';
    return new HearthError('backend_auth', `Modal refused the token from ${where} (${detail}). Create a new one with \`modal token new\` or at modal.com/settings/tokens and put it there.`, {
      cause: err,
      details: { grpcCode: code },
    });
  }
  if (code === GRPC.UNAVAILABLE || code === GRPC.DEADLINE_EXCEEDED) {
    return new HearthError('backend_unavailable', `Cannot reach Modal at ${context.serverUrl} to ${doing}: ${detail}. Check the network (or MODAL_SERVER_URL).`, {
      cause: err,
      details: { grpcCode: code },
    });
  }
  if (code === GRPC.RESOURCE_EXHAUSTED || isNamed(err, 'ResourceExhaustedError')) {
    return new HearthError('backend_unavailable', `Modal has no capacity to ${doing} right now: ${detail}. Try again later.`, { cause: err });
  }
  return new HearthError('backend_failed', `Modal failed to ${doing}: ${detail}`, { cause: err, details: code === null ? undefined : { grpcCode: code } });
}

/** True when the error says the sandbox or the exec no longer exists (it was terminated or timed out). */
export function isGone(err: unknown): boolean {
  const code = grpcCode(err);
  return code === GRPC.NOT_FOUND || code === GRPC.FAILED_PRECONDITION || isNamed(err, 'ClientClosedError');
}

function grpcCode(err: unknown): number | null {
  if (typeof err !== 'object' || err === null) return null;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'number' ? code : null;
}

function isNamed(err: unknown, name: string): boolean {
  return err instanceof Error && (err.name === name || err.constructor.name === name);
}
