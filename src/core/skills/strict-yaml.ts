import { isAlias, isCollection, isPair, isScalar, isSeq, parseDocument, visit, type Document } from 'yaml';
import type { SkillIssue } from './types.js';

/**
 * `ok: false` with a `value`: the text is YAML but uses constructs strict mode refuses (F4); the value
 * lets the caller still check the fields, so `hearth skills validate` lists every problem at once.
 */
export type YamlParse = { ok: true; value: unknown; issues: SkillIssue[] } | { ok: false; issues: SkillIssue[]; value?: unknown };

/**
 * The reference validator's YAML (strictyaml, SKILLS-SPEC F4): block mappings and block lists only,
 * every scalar read as a string (`version: 1` is "1", `on: yes` is "yes"), and no flow collections,
 * anchors, aliases or explicit tags. The `yaml` failsafe schema already reads every scalar as a
 * string; the walk below rejects the constructs strictyaml refuses.
 */
export function parseStrictYaml(source: string): YamlParse {
  const doc = parseDocument(source, { schema: 'failsafe', uniqueKeys: true, prettyErrors: true });
  const syntax = yamlErrors(doc);
  if (syntax.length) return { ok: false, issues: syntax };

  const issues: SkillIssue[] = [];
  let hasAlias = false;
  visit(doc, {
    Node(_key, node, path) {
      const parent = path[path.length - 1];
      const where = isPair(parent) && isScalar(parent.key) ? `\`${String(parent.key.value)}\`` : 'a value';
      if (isAlias(node)) {
        hasAlias = true;
        issues.push(strictIssue(`aliases (*${node.source}) are not allowed in strict YAML`));
        return;
      }
      if (isCollection(node) && node.flow) {
        const kind = isSeq(node) ? '[…]' : '{…}';
        issues.push(strictIssue(`${where} uses flow style ${kind} at ${lineOf(source, node.range)} of the frontmatter; strict YAML accepts only block mappings and "- item" lists`));
        return visit.SKIP;
      }
      if ((isCollection(node) || isScalar(node)) && node.anchor) issues.push(strictIssue(`anchors (&${node.anchor}) are not allowed in strict YAML`));
      if ((isCollection(node) || isScalar(node)) && node.tag) issues.push(strictIssue(`explicit tags (${node.tag}) are not allowed in strict YAML`));
      return undefined;
    },
  });
  // Aliases are already an error above; refusing to expand them also stops alias bombs.
  const value = hasAlias ? undefined : (doc.toJS({ maxAliasCount: 0 }) as unknown);
  if (issues.length) return { ok: false, issues, value };
  // An empty document is null; the caller reports it as "not a mapping".
  return { ok: true, value, issues: [] };
}

/** The first YAML error only: later ones are usually the same mistake seen again further down. */
export function yamlErrors(doc: Document): SkillIssue[] {
  const first = doc.errors[0];
  if (!first) return [];
  return [{ rule: 'F3', severity: 'error', message: `frontmatter is not valid YAML: ${first.message.split('\n')[0] ?? first.code}` }];
}

function strictIssue(message: string): SkillIssue {
  return { rule: 'F4', severity: 'error', message };
}

function lineOf(source: string, range: [number, number, number] | null | undefined): string {
  if (!range) return 'an unknown line';
  return `line ${source.slice(0, range[0]).split('\n').length}`;
}
