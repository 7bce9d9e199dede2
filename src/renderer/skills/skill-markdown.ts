/** SKILL.md split into its YAML frontmatter and the markdown body, so the body renders and the metadata shows as is. */
export function splitFrontmatter(markdown: string): { frontmatter: string | null; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(markdown);
  if (!match) return { frontmatter: null, body: markdown };
  return { frontmatter: match[1] ?? '', body: markdown.slice(match[0].length) };
}

export const NEW_SKILL_TEMPLATE = `---
name: my-skill
description: What this skill does, and when to use it.
---

# My skill

1. First step.
2. Second step.
`;
