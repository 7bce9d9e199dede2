import { useState } from 'react';
import { useServices, useSettings } from '../app/services.js';
import { ErrorText } from '../common/ErrorText.js';
import { useT } from '../i18n/i18n.js';
import { ModelsView } from '../models/ModelsView.js';
import { ProvidersSection } from '../settings/ProvidersSection.js';

/**
 * First run (no model file, no provider): pick a local model or a cloud provider; it ends when the engine
 * reports it no longer needs setup, which drops the user into the chat.
 */
export function Onboarding() {
  const t = useT();
  const { settings, nav } = useServices();
  const error = useSettings((s) => s.error);
  const [path, setPath] = useState<'local' | 'cloud' | null>(null);
  const [model, setModel] = useState('');

  const finish = async () => {
    await settings.getState().load();
    if (settings.getState().status?.needsSetup === false) nav.getState().go('chat');
  };

  return (
    <section className="page onboarding" data-testid="onboarding">
      <h1>{t('onboarding.title')}</h1>
      <p>{t('onboarding.intro')}</p>
      <div className="onboarding-choices">
        <button type="button" className={path === 'local' ? 'primary' : ''} data-testid="onboarding-local" onClick={() => setPath('local')}>
          <strong>{t('onboarding.local')}</strong>
          <span className="muted">{t('onboarding.localHint')}</span>
        </button>
        <button type="button" className={path === 'cloud' ? 'primary' : ''} data-testid="onboarding-cloud" onClick={() => setPath('cloud')}>
          <strong>{t('onboarding.cloud')}</strong>
          <span className="muted">{t('onboarding.cloudHint')}</span>
        </button>
      </div>
      {path === 'local' && <ModelsView onUsed={() => void finish()} />}
      {path === 'cloud' && (
        <div className="card">
          {/* A model picked from a tested provider's list fills the field; "Start chatting" saves it. */}
          <ProvidersSection compact onPickModel={setModel} />
          <form
            className="settings-section"
            onSubmit={(event) => {
              event.preventDefault();
              void settings
                .getState()
                .update({ defaultModel: model.trim() })
                .then(async (ok) => {
                  if (ok) await finish();
                });
            }}
          >
            <label>
              {t('settings.defaultModel')}
              <input data-testid="onboarding-model" value={model} placeholder="openai:gpt-4o-mini" onChange={(event) => setModel(event.target.value)} />
            </label>
            <button type="submit" className="primary" data-testid="onboarding-finish" disabled={!model.trim()}>
              {t('onboarding.finish')}
            </button>
          </form>
        </div>
      )}
      <ErrorText error={error} testId="onboarding-error" />
    </section>
  );
}
