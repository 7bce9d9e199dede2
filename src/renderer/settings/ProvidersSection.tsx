import { useState } from 'react';
import { useServices, useSettings } from '../app/services.js';
import { useT } from '../i18n/i18n.js';
import { ApiKeyField } from './ApiKeyField.js';

/** Cloud providers: each with its key field, and a form to add one (name, wire type, base URL). */
export function ProvidersSection({ compact = false }: { compact?: boolean }) {
  const t = useT();
  const { settings } = useServices();
  const providers = useSettings((s) => s.settings?.providers ?? []);
  const [name, setName] = useState('');
  const [type, setType] = useState<'openai' | 'anthropic'>('openai');
  const [baseUrl, setBaseUrl] = useState('https://api.openai.com/v1');

  const add = async () => {
    const ok = await settings.getState().update({ provider: { name: name.trim(), type, baseUrl: baseUrl.trim() } });
    if (ok) setName('');
  };

  return (
    <div className="settings-section" data-testid="providers-section">
      {!compact && <h2>{t('settings.providers')}</h2>}
      <ul className="provider-list">
        {providers.map((p) => (
          <li key={p.name} className="provider card" data-testid="provider" data-provider={p.name}>
            <div>
              <strong>{p.name}</strong> <span className="muted">{p.type} · {p.baseUrl}</span>
            </div>
            <ApiKeyField provider={p.name} hasKey={p.hasKey} />
          </li>
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
    </div>
  );
}
