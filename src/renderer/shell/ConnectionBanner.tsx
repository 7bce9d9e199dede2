import { useSyncExternalStore } from 'react';
import { useServices } from '../app/services.js';
import { useT } from '../i18n/i18n.js';

const always = () => () => undefined;

/** Web mode: says so while the socket to `hearth serve` is down (calls wait, and fail if it was mid-call). */
export function ConnectionBanner() {
  const t = useT();
  const { connection } = useServices();
  const state = useSyncExternalStore(connection?.subscribe ?? always, () => connection?.current() ?? 'open');
  if (state === 'open') return null;
  return (
    <div className="connection-banner" role="status" data-testid="connection-banner" data-state={state}>
      {t(`connection.${state === 'no-token' ? 'noToken' : state}`)}
    </div>
  );
}
