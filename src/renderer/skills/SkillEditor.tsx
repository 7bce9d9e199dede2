import { useState } from 'react';
import type { z } from 'zod';
import type { SkillProblem } from '../../shared/contract.js';
import { ApiCallError, errorMessage } from '../api/api-error.js';
import { useServices } from '../app/services.js';
import { ErrorText } from '../common/ErrorText.js';
import { useT } from '../i18n/i18n.js';

type Problem = z.infer<typeof SkillProblem>;

/**
 * The whole SKILL.md in a text area. Validate asks the engine's own validator (the same rules the loader
 * applies), so what passes here loads; save is refused by the engine with the same problems otherwise.
 */
export function SkillEditor({ name, initial, onSaved, onCancel }: { name: string | null; initial: string; onSaved: (name: string) => void; onCancel: () => void }) {
  const t = useT();
  const { api } = useServices();
  const [content, setContent] = useState(initial);
  const [problems, setProblems] = useState<Problem[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const validate = async () => {
    try {
      const result = await api.invoke('skills.validate', { content });
      setProblems(result.problems);
      setError(null);
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  const save = async () => {
    try {
      if (name === null) onSaved((await api.invoke('skills.create', { content })).name);
      else {
        await api.invoke('skills.edit', { name, content });
        onSaved(name);
      }
    } catch (e) {
      setError(errorMessage(e));
      // A refused save explains itself best as the validator's list.
      if (e instanceof ApiCallError && e.code === 'invalid_input') await validate();
    }
  };

  return (
    <div className="skill-editor">
      <h2>{name === null ? t('skills.create') : t('skills.editing', { name })}</h2>
      <textarea
        data-testid="skill-editor"
        className="code-input"
        value={content}
        spellCheck={false}
        rows={22}
        onChange={(event) => {
          setContent(event.target.value);
          setProblems(null);
        }}
      />
      <div className="row-actions">
        <button type="button" data-testid="skill-validate" onClick={() => void validate()}>
          {t('skills.validate')}
        </button>
        <button type="button" className="primary" data-testid="skill-save" onClick={() => void save()}>
          {t('common.save')}
        </button>
        <button type="button" data-testid="skill-cancel" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
      <ErrorText error={error} testId="skill-error" />
      {problems !== null &&
        (problems.length === 0 ? (
          <div className="ok" data-testid="skill-valid">
            {t('skills.valid')}
          </div>
        ) : (
          <ul className="problems" data-testid="skill-problems">
            {problems.map((p, i) => (
              <li key={i} className={`problem-${p.severity}`} data-testid="skill-problem" data-severity={p.severity}>
                <strong>{p.severity === 'error' ? t('skills.error') : t('skills.warning')}</strong>
                {p.field ? ` ${p.field}: ` : ' '}
                {p.message}
              </li>
            ))}
          </ul>
        ))}
    </div>
  );
}
