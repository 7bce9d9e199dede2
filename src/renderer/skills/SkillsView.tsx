import { useCallback, useEffect, useMemo, useState } from 'react';
import type { z } from 'zod';
import type { SkillSummary } from '../../shared/contract.js';
import { useServices } from '../app/services.js';
import { ConfirmButton } from '../common/ConfirmButton.js';
import { ErrorText } from '../common/ErrorText.js';
import { useAttempt } from '../common/use-attempt.js';
import { useFormatDate, useT } from '../i18n/i18n.js';
import { Markdown } from '../markdown/Markdown.js';
import { PendingChanges } from './PendingChanges.js';
import { SkillEditor } from './SkillEditor.js';
import { NEW_SKILL_TEMPLATE, splitFrontmatter } from './skill-markdown.js';

type Skill = z.infer<typeof SkillSummary>;
type Shown = { skill: Skill; markdown: string; files: string[] };

/** The filter matches name, description, category and tags, all words in any order. */
export function filterSkills(skills: Skill[], query: string): Skill[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return skills;
  return skills.filter((s) => {
    const haystack = [s.name, s.description, s.category ?? '', ...s.tags].join(' ').toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
}

export function SkillsView() {
  const t = useT();
  const formatDate = useFormatDate();
  const { api } = useServices();
  const [skills, setSkills] = useState<Skill[]>([]);
  const [query, setQuery] = useState('');
  const [shown, setShown] = useState<Shown | null>(null);
  const [editing, setEditing] = useState<{ name: string | null; content: string } | null>(null);

  const { error, attempt } = useAttempt();
  const reload = useCallback(() => attempt(async () => setSkills(await api.invoke('skills.list', {}))), [api, attempt]);
  useEffect(() => void reload(), [reload]);
  const show = (name: string) =>
    attempt(async () => {
      setEditing(null);
      setShown(await api.invoke('skills.show', { name }));
    });

  const visible = useMemo(() => filterSkills(skills, query), [skills, query]);
  const parts = shown ? splitFrontmatter(shown.markdown) : null;

  return (
    <section className="page split" data-testid="skills-view">
      <div className="split-list">
        <header className="view-header">
          <h1>{t('nav.skills')}</h1>
          <button type="button" className="primary" data-testid="skill-new" onClick={() => setEditing({ name: null, content: NEW_SKILL_TEMPLATE })}>
            {t('skills.new')}
          </button>
        </header>
        <input type="search" data-testid="skill-search" value={query} placeholder={t('skills.searchPlaceholder')} onChange={(event) => setQuery(event.target.value)} />
        <ul className="skill-list" data-testid="skill-list">
          {visible.length === 0 && <li className="muted">{t('skills.none')}</li>}
          {visible.map((s) => (
            <li key={`${s.scope}:${s.name}`}>
              <button type="button" className={`skill-item${shown?.skill.name === s.name ? ' selected' : ''}`} data-testid="skill-item" data-skill={s.name} onClick={() => void show(s.name)}>
                <span className="skill-name">{s.name}</span>
                <span className="muted">{s.description}</span>
              </button>
            </li>
          ))}
        </ul>
        <PendingChanges kind="skill" onDecided={() => void reload()} />
      </div>
      <div className="split-detail">
        <ErrorText error={error} />
        {editing ? (
          <SkillEditor
            key={editing.name ?? '(new)'}
            name={editing.name}
            initial={editing.content}
            onCancel={() => setEditing(null)}
            onSaved={(name) => {
              void reload();
              void show(name);
            }}
          />
        ) : shown && parts ? (
          <article className="skill-detail" data-testid="skill-detail" data-skill={shown.skill.name}>
            <header className="view-header">
              <h2>{shown.skill.name}</h2>
              {shown.skill.editable && (
                <>
                  <button type="button" data-testid="skill-edit" onClick={() => setEditing({ name: shown.skill.name, content: shown.markdown })}>
                    {t('common.edit')}
                  </button>
                  <ConfirmButton
                    testId="skill-delete"
                    question={t('skills.confirmDelete', { name: shown.skill.name })}
                    onConfirm={() =>
                      void attempt(async () => {
                        await api.invoke('skills.delete', { name: shown.skill.name });
                        setShown(null);
                        await reload();
                      })
                    }
                  >
                    {t('common.delete')}
                  </ConfirmButton>
                </>
              )}
            </header>
            <dl className="skill-usage" data-testid="skill-usage">
              <dt>{t('skills.viewed')}</dt>
              <dd>{shown.skill.usage.viewed}</dd>
              <dt>{t('skills.used')}</dt>
              <dd>{shown.skill.usage.used}</dd>
              <dt>{t('skills.patched')}</dt>
              <dd>{shown.skill.usage.patched}</dd>
              <dt>{t('skills.lastUsed')}</dt>
              <dd>{shown.skill.usage.lastUsedAt ? formatDate(shown.skill.usage.lastUsedAt) : t('skills.never')}</dd>
            </dl>
            <p className="muted">
              {shown.skill.scope} · {shown.skill.location}
            </p>
            {parts.frontmatter !== null && <pre className="frontmatter">{parts.frontmatter}</pre>}
            <Markdown text={parts.body} />
            <h3>{t('skills.files')}</h3>
            <ul className="skill-files" data-testid="skill-files">
              {shown.files.length === 0 && <li className="muted">{t('skills.noFiles')}</li>}
              {shown.files.map((f) => (
                <li key={f}>
                  <code>{f}</code>
                </li>
              ))}
            </ul>
          </article>
        ) : (
          <p className="muted empty-hint">{t('skills.pick')}</p>
        )}
      </div>
    </section>
  );
}
