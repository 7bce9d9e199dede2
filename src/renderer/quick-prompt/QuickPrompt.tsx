import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { HearthShellApi } from '../../shared/shell-contract.js';
import { useChat } from '../app/services.js';
import { ApprovalModal } from '../chat/ApprovalModal.js';
import { ClarifyPrompt } from '../chat/ClarifyPrompt.js';
import { MessageList } from '../chat/MessageList.js';
import { useT } from '../i18n/i18n.js';

/**
 * The small frameless window the global shortcut opens (desktop app only): one question, the answer streaming
 * below it, and a way to carry the conversation on in the main window. Escape hides it; a new question while an
 * answer streams steers it, as in the main chat.
 */
export function QuickPrompt({ shell }: { shell: HearthShellApi }) {
  const t = useT();
  const phase = useChat((s) => s.phase);
  const sessionId = useChat((s) => s.sessionId);
  const send = useChat((s) => s.send);
  const newChat = useChat((s) => s.newChat);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLTextAreaElement>(null);

  // Each time the shortcut shows the window, the cursor is in the box.
  useEffect(
    () =>
      shell.onShellEvent((event) => {
        if (event.type === 'quick_prompt_shown') input.current?.focus();
      }),
    [shell],
  );

  const call = (promise: Promise<unknown>) => promise.then(() => setError(null), (err: unknown) => setError(err instanceof Error ? err.message : String(err)));
  const submit = () => {
    const message = text.trim();
    if (!message) return;
    setText('');
    void send(message);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <section
      className="quick-prompt"
      data-testid="quick-prompt"
      data-phase={phase}
      onKeyDown={(event) => {
        if (event.key === 'Escape') void call(shell.invoke('quickPrompt.hide', {}));
      }}
    >
      <textarea
        ref={input}
        autoFocus
        rows={2}
        data-testid="quick-prompt-input"
        placeholder={phase === 'idle' ? t('quick.placeholder') : t('chat.steerPlaceholder')}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {sessionId !== null && <MessageList />}
      <ClarifyPrompt />
      {error && (
        <div className="error" role="alert" data-testid="quick-prompt-error">
          {error}
        </div>
      )}
      <footer className="quick-prompt-actions">
        <button type="button" data-testid="quick-prompt-new" onClick={newChat} disabled={phase !== 'idle' || sessionId === null}>
          {t('chat.new')}
        </button>
        <button
          type="button"
          className="primary"
          data-testid="quick-prompt-continue"
          disabled={sessionId === null}
          onClick={() => sessionId !== null && void call(shell.invoke('quickPrompt.continueInMain', { sessionId }))}
        >
          {t('quick.continue')}
        </button>
      </footer>
      <ApprovalModal />
    </section>
  );
}
