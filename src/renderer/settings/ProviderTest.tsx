import { useEffect, useState } from 'react';
import type { z } from 'zod';
import type { ProviderTestResult, RouteInput } from '../../shared/contract.js';
import { useServices } from '../app/services.js';
import { useAttempt } from '../common/use-attempt.js';
import { ErrorText } from '../common/ErrorText.js';
import { useT } from '../i18n/i18n.js';

/**
 * "Test connection" for one endpoint (saved or being typed): the engine fetches its model list, and each
 * listed model can be picked (as the default model, or in onboarding as the model to start with). A failure
 * shows the engine's message as it is: it already says what to fix ("Is /v1 missing?", "nothing is listening").
 */
export function ProviderTest({ request, testId, onPick }: { request: RouteInput<'providers.test'>; testId: string; onPick?: (model: string) => void }) {
  const t = useT();
  const { api } = useServices();
  const { error, attempt } = useAttempt();
  const [result, setResult] = useState<z.infer<typeof ProviderTestResult> | null>(null);
  const [testing, setTesting] = useState(false);
  // A result is about the endpoint it tested: another URL or protocol clears it.
  useEffect(() => setResult(null), [request.type, request.baseUrl]);

  const test = async () => {
    setTesting(true);
    setResult(null);
    await attempt(async () => setResult(await api.invoke('providers.test', request)));
    setTesting(false);
  };

  return (
    <div className="provider-test" data-testid={testId}>
      <button type="button" data-testid={`${testId}-run`} disabled={testing || !request.baseUrl.trim()} onClick={() => void test()}>
        {testing ? t('settings.testing') : t('settings.testConnection')}
      </button>
      {result && (
        <span className={result.ok ? 'ok' : 'error'} role={result.ok ? 'status' : 'alert'} data-testid={`${testId}-result`} data-ok={String(result.ok)}>
          {result.message}
        </span>
      )}
      {result?.ok && result.models.length > 0 && onPick && (
        <label>
          {t('settings.pickModel')}
          <select data-testid={`${testId}-models`} defaultValue="" onChange={(event) => event.target.value && onPick(event.target.value)}>
            <option value="" disabled>
              {t('settings.pickModelPlaceholder', { count: result.models.length })}
            </option>
            {result.models.map((model) => (
              <option key={model} value={model}>
                {model}
              </option>
            ))}
          </select>
        </label>
      )}
      <ErrorText error={error} testId={`${testId}-error`} />
    </div>
  );
}
