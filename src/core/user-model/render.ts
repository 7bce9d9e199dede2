import type { UserFact } from './facts.js';

/**
 * The user-model lines of the prompt's user block: active facts, most confident first (then most
 * recently confirmed), as many whole lines as fit in `charBudget`. When some do not fit, the last line
 * says how many more the `user_model` tool can answer from, so the model knows they exist.
 */
export function renderUserModel(facts: readonly UserFact[], charBudget: number): string {
  const ranked = facts
    .filter((f) => f.status === 'active')
    .sort((a, b) => b.confidence - a.confidence || b.updatedAt - a.updatedAt || a.id - b.id);
  const lines: string[] = [];
  let used = 0;
  for (const [i, fact] of ranked.entries()) {
    const line = `- ${fact.statement} (${fact.category.replace('_', ' ')}, ${fact.confidence.toFixed(2)})`;
    const left = ranked.length - i - 1;
    // Room for this line, and for the "more" note if anything would still be left out after it.
    const reserve = left > 0 ? moreNote(left).length + 1 : 0;
    const cost = used + (lines.length ? 1 : 0) + line.length;
    if (cost + reserve > charBudget) {
      const note = moreNote(ranked.length - i);
      if (used + (lines.length ? 1 : 0) + note.length <= charBudget) lines.push(note);
      break;
    }
    lines.push(line);
    used = cost;
  }
  return lines.join('\n');
}

function moreNote(count: number): string {
  return `(+${count} more fact${count === 1 ? '' : 's'}: ask the user_model tool)`;
}
