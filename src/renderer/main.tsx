// First: zod must be told not to use eval before any schema is built (see the module).
import './api/zod-jitless.js';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { pickApi } from './api/pick-api.js';
import { App } from './app/App.js';
import { createServices, ServicesProvider } from './app/services.js';
import { browserLanguage } from './settings/settings-store.js';
import './styles/app.css';

const picked = pickApi();
const services = createServices(picked.api, {
  language: browserLanguage(navigator.languages),
  ...(picked.kind === 'websocket'
    ? { connection: { current: () => picked.api.connectionState(), subscribe: (listener) => picked.api.onConnectionChange(listener) } }
    : {}),
});

// After a reconnect, events sent while the socket was down are gone: re-read what the screen shows.
if (picked.kind === 'websocket') {
  picked.api.onConnectionChange((state) => {
    if (state === 'open') void services.settings.getState().load();
  });
}

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root');
createRoot(rootElement).render(
  <StrictMode>
    <ServicesProvider services={services}>
      <App />
    </ServicesProvider>
  </StrictMode>,
);
