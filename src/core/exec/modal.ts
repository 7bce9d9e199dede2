import type { HearthConfig } from '../config/schema.js';
import { HearthError } from '../errors.js';
import type { ExecutionBackend } from './backend.js';

// Placeholder while the modal backend is being written (this session); replaced by the real adapter.
export function createModalBackend(_config: HearthConfig['terminal']['modal'], _ctx: { workspace: string; env: NodeJS.ProcessEnv }): ExecutionBackend {
  throw new HearthError('config_invalid', 'terminal.backend "modal" is not available yet');
}
