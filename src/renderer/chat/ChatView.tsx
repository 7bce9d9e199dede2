import { useChat } from '../app/services.js';
import { useT } from '../i18n/i18n.js';
import { ClarifyPrompt } from './ClarifyPrompt.js';
import { Composer } from './Composer.js';
import { MessageList } from './MessageList.js';

export function ChatView() {
  const t = useT();
  const phase = useChat((s) => s.phase);
  const newChat = useChat((s) => s.newChat);
  const error = useChat((s) => s.actionError);
  return (
    <section className="chat-view" data-testid="chat-view" data-phase={phase}>
      <header className="view-header">
        <h1>{t('nav.chat')}</h1>
        <span className={`phase phase-${phase}`} data-testid="chat-phase">
          {t(`phase.${phase}`)}
        </span>
        <button type="button" data-testid="new-chat" onClick={newChat} disabled={phase !== 'idle'}>
          {t('chat.new')}
        </button>
      </header>
      {error && (
        <div className="error" role="alert" data-testid="chat-error">
          {error}
        </div>
      )}
      <MessageList />
      <ClarifyPrompt />
      <Composer />
    </section>
  );
}
