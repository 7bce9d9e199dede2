import { useState } from 'react';
import { useServices, useSettings } from '../app/services.js';
import { useT } from '../i18n/i18n.js';
import { ProviderRow } from './ProviderRow.js';
import { ProviderTest } from './ProviderTest.js';

/**
 * Providers: each with its key field, connection test, model picker, edit and remove, and a form to add one
 * (name, wire type, base URL) that can be tested before it is added. Picking a listed model makes it the
 * default unless the caller (onboarding) takes the pick itself.
 */
export function ProvidersSection({ compact = false, onPickModel }: { compact?: boolean; onPickModel?: (spec: string) => void }) {
  const t = useT();
  const { settings } = useServices();
  const providers = useSettings((s) => s.settings?.providers ?? []);
  const [name, setName] = useState('');
  const [type, setType] = useState<'openai' | 'anthropic'>('openai');
  const [baseUrl, setBaseUrl] = useState('https://api.openai.com/v1');
  const pick = onPickModel ?? ((spec: string) => void settings.getState().update({ defaultModel: spec }));

  const add = async () => {
    const ok = await settings.getState().update({ provider: { name: name.trim(), type, baseUrl: baseUrl.trim() } });
    if (ok) setName('');
  };

  return (
    <div className="settings-section" data-testid="providers-section">
      {!compact && <h2>{t('settings.providers')}</h2>}
      <ul className="provider-list">
        {providers.map((p) => (
          <ProviderRow key={p.name} provider={p} onPick={pick} />
        ))}
      </ul>
      <form
        className="provider-add"
        onSubmit={(event) => {
          event.preventDefault();
          void add();
        }}
      >
        <input data-testid="provider-name" value={name} placeholder={t('settings.providerName')} onChange={(event) => setName(event.target.value)} aria-label={t('settings.providerName')} />
        <select data-testid="provider-type" value={type} onChange={(event) => setType(event.target.value as 'openai' | 'anthropic')} aria-label={t('settings.providerType')}>
          <option value="openai">{t('settings.typeOpenai')}</option>
          <option value="anthropic">{t('settings.typeAnthropic')}</option>
        </select>
        <input data-testid="provider-url" value={baseUrl} placeholder="https://…" onChange={(event) => setBaseUrl(event.target.value)} aria-label={t('settings.baseUrl')} />
        <button type="submit" data-testid="provider-add" disabled={!name.trim() || !baseUrl.trim()}>
          {t('settings.addProvider')}
        </button>
      </form>
      {/* Before adding: a wrong URL or a dead port shows here, not at the first message. No key yet: one is saved after adding. */}
      <ProviderTest testId="provider-add-test" request={{ type, baseUrl: baseUrl.trim() }} />
    </div>
  );
}
