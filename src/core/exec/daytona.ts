import type { HearthConfig } from '../config/schema.js';
import { HearthError } from '../errors.js';
import type { ExecutionBackend } from './backend.js';

// Placeholder while the daytona backend is being written (this session); replaced by the real adapter.
export function createDaytonaBackend(_config: HearthConfig['terminal']['daytona'], _ctx: { workspace: string; env: NodeJS.ProcessEnv }): ExecutionBackend {
  throw new HearthError('config_invalid', 'terminal.backend "daytona" is not available yet');
}
