import { useCallback, useState } from 'react';
import { errorMessage } from '../api/api-error.js';

/**
 * A view's calls to the engine: `attempt` runs one, shows its failure in `error` (cleared by the next success) and
 * says whether it worked, so a view never swallows a failed call nor repeats the try/catch.
 */
export function useAttempt(): { error: string | null; attempt: (action: () => Promise<void>) => Promise<boolean> } {
  const [error, setError] = useState<string | null>(null);
  const attempt = useCallback(async (action: () => Promise<void>): Promise<boolean> => {
    try {
      await action();
      setError(null);
      return true;
    } catch (e) {
      setError(errorMessage(e));
      return false;
    }
  }, []);
  return { error, attempt };
}
