// First: zod must be told not to use eval before any schema is built (see the module).
import './api/zod-jitless.js';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { pickApi } from './api/pick-api.js';
import { shellApi } from './api/shell-api.js';
import { App } from './app/App.js';
import { createServices, ServicesProvider } from './app/services.js';
import { followShellLinks } from './app/shell-links.js';
import { QuickPrompt } from './quick-prompt/QuickPrompt.js';
import { browserLanguage } from './settings/settings-store.js';
import './styles/app.css';

const picked = pickApi();
const services = createServices(picked.api, {
  language: browserLanguage(navigator.languages),
  ...(picked.kind === 'websocket'
    ? { connection: { current: () => picked.api.connectionState(), subscribe: (listener) => picked.api.onConnectionChange(listener) } }
    : {}),
});

// Questions the engine holds open (an approval asked before this page loaded) are shown on attach; in web mode on
// every (re)connect, since events sent while the socket was down are gone: re-read what the screen shows.
if (picked.kind === 'websocket') {
  picked.api.onConnectionChange((state) => {
    if (state !== 'open') return;
    void services.settings.getState().load();
    void services.chat.getState().syncPending();
  });
}

// The desktop shell opens this page as the main window or as the quick prompt (`?view=quick-prompt`).
const shell = shellApi();
const quickPrompt = shell !== null && new URLSearchParams(window.location.search).get('view') === 'quick-prompt';
if (shell !== null && !quickPrompt) followShellLinks(services, shell, window.location.search);
// The desktop window attaches once (IPC has no reconnects); the quick prompt shows only its own conversation.
if (picked.kind !== 'websocket' && !quickPrompt) void services.chat.getState().syncPending();

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root');
createRoot(rootElement).render(
  <StrictMode>
    <ServicesProvider services={services}>{quickPrompt && shell !== null ? <QuickPrompt shell={shell} /> : <App />}</ServicesProvider>
  </StrictMode>,
);
