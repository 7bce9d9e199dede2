import { useState } from 'react';
import { useChat } from '../app/services.js';
import { useT } from '../i18n/i18n.js';

/** The agent's question to the user, with its suggested answers and room for one of the user's own. */
export function ClarifyPrompt() {
  const t = useT();
  const clarify = useChat((s) => s.clarify);
  const answer = useChat((s) => s.answerClarify);
  const [text, setText] = useState('');
  if (!clarify) return null;
  const submit = (value: string) => {
    setText('');
    void answer(clarify.id, value);
  };
  return (
    <div className="clarify" data-testid="clarify" role="group" aria-label={t('clarify.title')}>
      <div className="clarify-question" data-testid="clarify-question">
        {clarify.question}
      </div>
      {clarify.choices.length > 0 && (
        <div className="clarify-choices">
          {clarify.choices.map((choice) => (
            <button key={choice} type="button" data-testid="clarify-choice" onClick={() => submit(choice)}>
              {choice}
            </button>
          ))}
        </div>
      )}
      <form
        className="clarify-free"
        onSubmit={(event) => {
          event.preventDefault();
          if (text.trim()) submit(text.trim());
        }}
      >
        <input data-testid="clarify-input" value={text} placeholder={t('clarify.placeholder')} onChange={(event) => setText(event.target.value)} />
        <button type="submit" data-testid="clarify-submit" disabled={!text.trim()}>
          {t('clarify.answer')}
        </button>
      </form>
    </div>
  );
}
