import type { HearthConfig } from '../config/schema.js';
import { HearthError } from '../errors.js';
import type { ExecutionBackend } from './backend.js';

// Placeholder while the singularity backend is being written (this session); replaced by the real adapter.
export function createSingularityBackend(_config: HearthConfig['terminal']['singularity'], _ctx: { workspace: string; env: NodeJS.ProcessEnv }): ExecutionBackend {
  throw new HearthError('config_invalid', 'terminal.backend "singularity" is not available yet');
}
