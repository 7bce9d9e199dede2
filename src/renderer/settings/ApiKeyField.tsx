import { useState } from 'react';
import { useServices } from '../app/services.js';
import { useT } from '../i18n/i18n.js';

/**
 * An API key goes from this input straight to the keychain (`secrets.setApiKey`) and is then forgotten: the
 * input is cleared and no store ever holds it; what stays is the provider's `hasKey` flag. The key lives only
 * in this component's local state between typing and saving.
 */
export function ApiKeyField({ provider, hasKey }: { provider: string; hasKey: boolean }) {
  const t = useT();
  const { settings } = useServices();
  const [key, setKey] = useState('');
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const save = async () => {
    if (!key.trim()) return;
    setSaving(true);
    const stored = await settings.getState().saveApiKey(provider, key.trim());
    setSaving(false);
    // Kept after a failure so the user can retry without pasting again; it was never stored anywhere.
    if (stored) setKey('');
    setFailure(stored ? null : settings.getState().error);
  };

  return (
    <form
      className="key-field"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <span className={`badge ${hasKey ? 'ok' : 'muted'}`} data-testid="provider-has-key" data-provider={provider}>
        {hasKey ? t('settings.keyStored') : t('settings.noKey')}
      </span>
      <input
        type="password"
        autoComplete="off"
        spellCheck={false}
        data-testid="provider-key-input"
        data-provider={provider}
        aria-label={t('settings.apiKeyFor', { provider })}
        placeholder={hasKey ? t('settings.replaceKey') : t('settings.apiKey')}
        value={key}
        onChange={(event) => setKey(event.target.value)}
      />
      <button type="submit" className="primary" data-testid="provider-key-save" data-provider={provider} disabled={saving || !key.trim()}>
        {t('settings.saveKey')}
      </button>
      {hasKey && (
        <button type="button" data-testid="provider-key-delete" data-provider={provider} onClick={() => void settings.getState().deleteApiKey(provider)}>
          {t('settings.deleteKey')}
        </button>
      )}
      {failure && (
        <span className="error" role="alert" data-testid="provider-key-error">
          {failure}
        </span>
      )}
    </form>
  );
}
