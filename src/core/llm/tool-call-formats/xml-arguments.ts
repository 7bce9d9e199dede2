/**
 * Qwen3-Coder and GLM-4.5 write each argument as text between tags, so a number, a boolean or a
 * list arrives as the characters the model typed. The tool's schema says what the value should be:
 * a string property keeps the text exactly; other types are read as JSON, then as a Python literal
 * (`True`, `['a', 'b']`); what neither reads stays the text, for the agent's validation to report.
 */
import type { JsonSchema } from '../types.js';
import { parseJsonOrPythonLiteral } from './python-literal.js';

function propertyTypes(parameters: JsonSchema | undefined, key: string): string[] {
  const props = parameters?.properties;
  if (!props || typeof props !== 'object') return [];
  const schema = (props as Record<string, unknown>)[key];
  if (!schema || typeof schema !== 'object') return [];
  const type = (schema as { type?: unknown }).type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}

export function argumentValue(raw: string, parameters: JsonSchema | undefined, key: string): unknown {
  const types = propertyTypes(parameters, key);
  if (types.length === 1 && types[0] === 'string') return raw;
  const trimmed = raw.trim();
  // No declared type (no schema, or an untyped property): only text that plainly is a literal is read as one.
  if (types.length === 0 && !looksStructured(trimmed)) return raw;
  const parsed = parseJsonOrPythonLiteral(trimmed);
  if (!parsed.ok) return raw;
  if (typeof parsed.value === 'string' && types.includes('string')) return raw;
  return parsed.value;
}

/** A number, a constant, or a bracketed value: text that means the same as a literal. */
function looksStructured(text: string): boolean {
  return /^(?:[-+]?\d[\d.eE+-]*|true|false|null|True|False|None|\{[\s\S]*\}|\[[\s\S]*\])$/.test(text);
}

/** Drop the one newline a template puts after an opening tag and before a closing one. */
export function trimTagNewlines(text: string): string {
  return text.replace(/^\r?\n/, '').replace(/\r?\n$/, '');
}
