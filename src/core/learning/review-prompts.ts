import type { ReviewKind } from './nudges.js';

/**
 * What a background review is asked to do. The preference order and the "don'ts" follow Hermes
 * Agent's review (PARITY §3), including its lesson that reviews must not record tool or environment
 * failures as facts, and Hearth's own: no duplicate skills, patch before create.
 */
export type ReviewPurpose = ReviewKind | 'flush';

const MEMORY_PART = [
  'Memory: save durable facts worth knowing in every future session with the `memory` tool —',
  'the user\'s preferences, standing instructions, expertise and context (target "user"), and facts about their environment',
  'and projects (target "memory"). Save declarative facts, not task progress, not anything stale within a week.',
  'Consolidate with replace/remove when a store is nearly full; never remove a standing instruction of the user\'s to make room.',
].join(' ');

const SKILL_PART = [
  'Skills: if the conversation completed a non-trivial, reusable workflow (several steps, a tricky fix, a procedure the',
  'user will want again), capture it with `skill_manage`. Order of preference: (1) patch a skill that was loaded in this',
  'session, (2) patch an existing umbrella skill that covers this kind of task, (3) add a support file to such a skill,',
  '(4) create ONE new class-level skill (general name, description saying what it does and when to use it, concrete steps).',
  'Check `skills_list`/`skills_search` first and never create a skill that duplicates an existing one.',
].join(' ');

const RULES = [
  'Do not record environment failures, flaky tools or negative claims about tools as facts.',
  'Do not ask the user anything: they are not watching this review.',
  'When nothing is worth saving, reply exactly "Nothing to save." and stop.',
].join(' ');

/**
 * The review's instructions. `tools` are the tools it really has: a part whose tool is missing is left
 * out, so the model is never told to call something it cannot.
 */
export function reviewPrompt(purpose: ReviewPurpose, loadedSkills: readonly string[], tools: readonly string[] = ['memory', 'skill_manage']): string {
  const loaded = loadedSkills.length === 0 ? 'No skill was loaded in this session.' : `Skills loaded in this session: ${loadedSkills.join(', ')}.`;
  const memory = purpose !== 'skill' && tools.includes('memory') ? [MEMORY_PART] : [];
  const skills = purpose !== 'memory' && tools.includes('skill_manage') ? [SKILL_PART, loaded] : [];
  const parts = [...memory, ...skills];
  const opening =
    purpose === 'flush'
      ? '[Background review] This conversation is about to leave your context (it is being compressed into a summary, or the session is ending). Before that happens, save anything worth keeping.'
      : '[Background review] Look back over the conversation above and save what will make future sessions better.';
  return [opening, ...parts, RULES].join('\n\n');
}
