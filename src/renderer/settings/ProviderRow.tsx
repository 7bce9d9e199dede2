import { useState } from 'react';
import type { z } from 'zod';
import type { ProviderView } from '../../shared/contract.js';
import { useServices } from '../app/services.js';
import { ConfirmButton } from '../common/ConfirmButton.js';
import { useT } from '../i18n/i18n.js';
import { ApiKeyField } from './ApiKeyField.js';
import { ProviderTest } from './ProviderTest.js';

type Provider = z.infer<typeof ProviderView>;
type WireType = Provider['type'];

/**
 * One provider: its endpoint, key, connection test and model picker, and editing (protocol and base URL; the
 * name is the keychain account and the model prefix, so it stays) and removal. Built-in providers cannot be
 * removed; an edited one can be reset (the engine restores the preset).
 */
export function ProviderRow({ provider, onPick }: { provider: Provider; onPick: (spec: string) => void }) {
  const t = useT();
  const { settings } = useServices();
  const [editing, setEditing] = useState(false);
  const [type, setType] = useState<WireType>(provider.type);
  const [baseUrl, setBaseUrl] = useState(provider.baseUrl);

  const save = async () => {
    const ok = await settings.getState().update({ provider: { name: provider.name, type, baseUrl: baseUrl.trim() } });
    if (ok) setEditing(false);
  };
  const startEditing = () => {
    setType(provider.type);
    setBaseUrl(provider.baseUrl);
    setEditing(true);
  };
  const remove = () => void settings.getState().update({ removeProvider: provider.name });

  return (
    <li className="provider card" data-testid="provider" data-provider={provider.name}>
      {editing ? (
        <form
          className="provider-edit"
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <strong>{provider.name}</strong>
          <select data-testid="provider-edit-type" value={type} onChange={(event) => setType(event.target.value as WireType)} aria-label={t('settings.providerType')}>
            <option value="openai">{t('settings.typeOpenai')}</option>
            <option value="anthropic">{t('settings.typeAnthropic')}</option>
          </select>
          <input data-testid="provider-edit-url" value={baseUrl} onChange={(event) => setBaseUrl(event.target.value)} aria-label={t('settings.baseUrl')} />
          <button type="submit" className="primary" data-testid="provider-edit-save" disabled={!baseUrl.trim()}>
            {t('common.save')}
          </button>
          <button type="button" data-testid="provider-edit-cancel" onClick={() => setEditing(false)}>
            {t('common.cancel')}
          </button>
        </form>
      ) : (
        <div className="provider-head">
          <strong>{provider.name}</strong> <span className="muted" data-testid="provider-endpoint">{provider.type} · {provider.baseUrl}</span>
          {provider.builtIn && <span className="badge muted">{t('settings.builtIn')}</span>}
          <button type="button" data-testid="provider-edit" onClick={startEditing}>
            {t('common.edit')}
          </button>
          {provider.builtIn ? (
            provider.edited && (
              <button type="button" data-testid="provider-reset" onClick={remove} title={t('settings.resetProviderHint')}>
                {t('settings.resetProvider')}
              </button>
            )
          ) : (
            <ConfirmButton testId="provider-remove" onConfirm={remove} question={t('settings.removeProviderQuestion', { provider: provider.name })} confirmLabel={t('settings.removeProvider')}>
              {t('settings.removeProvider')}
            </ConfirmButton>
          )}
        </div>
      )}
      {provider.local && !provider.hasKey && (
        <p className="muted" data-testid="provider-no-key-needed">
          {t('settings.noKeyNeeded')}
        </p>
      )}
      <ApiKeyField provider={provider.name} hasKey={provider.hasKey} />
      <ProviderTest
        testId="provider-test"
        request={{ type: provider.type, baseUrl: provider.baseUrl, provider: provider.name }}
        onPick={(model) => onPick(`${provider.name}:${model}`)}
      />
    </li>
  );
}
