import { useEffect, useState } from 'react';
import { ApprovalModal } from '../chat/ApprovalModal.js';
import { ChatView } from '../chat/ChatView.js';
import { useT } from '../i18n/i18n.js';
import { LearningView } from '../learning/LearningView.js';
import { MemoryView } from '../memory/MemoryView.js';
import { ModelsView } from '../models/ModelsView.js';
import { Onboarding } from '../onboarding/Onboarding.js';
import { SessionsView } from '../sessions/SessionsView.js';
import { SettingsView } from '../settings/SettingsView.js';
import { ConnectionBanner } from '../shell/ConnectionBanner.js';
import { NavBar } from '../shell/NavBar.js';
import { StatusBar } from '../shell/StatusBar.js';
import { SkillsView } from '../skills/SkillsView.js';
import type { ViewName } from './nav-store.js';
import { useNav, useServices, useSettings } from './services.js';
import { useDocumentPreferences } from './use-document-preferences.js';

const PAGES: Record<ViewName, () => React.JSX.Element> = {
  chat: ChatView,
  sessions: SessionsView,
  skills: SkillsView,
  memory: MemoryView,
  learning: LearningView,
  models: () => <ModelsView />,
  settings: SettingsView,
};

export function App() {
  const t = useT();
  const { settings } = useServices();
  const view = useNav((s) => s.view);
  const status = useSettings((s) => s.status);
  const [skippedSetup, setSkippedSetup] = useState(false);
  useDocumentPreferences();
  useEffect(() => void settings.getState().load(), [settings]);

  const onboarding = status?.needsSetup === true && !skippedSetup;
  const Page = PAGES[view];
  return (
    <div className="app">
      <NavBar disabled={onboarding} />
      <main className="main">
        <ConnectionBanner />
        {onboarding ? (
          <>
            <Onboarding />
            <button type="button" className="link skip" data-testid="onboarding-skip" onClick={() => setSkippedSetup(true)}>
              {t('onboarding.skip')}
            </button>
          </>
        ) : (
          <Page />
        )}
        <StatusBar />
      </main>
      <ApprovalModal />
    </div>
  );
}
