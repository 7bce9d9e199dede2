import { z } from 'zod';

/**
 * Keys in the user's config that the schema does not know. zod strips them silently; a typo such as
 * `max_iteration` would then be ignored without a word, so the loader turns each into a warning.
 */
export function findUnknownKeys(schema: z.ZodType, value: unknown, path: string[] = []): string[] {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject) {
    if (!isPlainObject(value)) return [];
    const shape = inner.shape as Record<string, z.ZodType>;
    return Object.entries(value).flatMap(([key, child]) => {
      const childSchema = shape[key];
      if (!childSchema) return [formatUnknown([...path, key], Object.keys(shape))];
      return findUnknownKeys(childSchema, child, [...path, key]);
    });
  }
  if (inner instanceof z.ZodRecord) {
    if (!isPlainObject(value)) return [];
    return Object.entries(value).flatMap(([key, child]) => findUnknownKeys(inner.valueType as z.ZodType, child, [...path, key]));
  }
  return [];
}

/** Peel defaults, optionals and transforms down to the schema that describes the value's shape. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  for (;;) {
    if (current instanceof z.ZodDefault || current instanceof z.ZodPrefault || current instanceof z.ZodOptional || current instanceof z.ZodNullable) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodPipe) {
      current = current.in as z.ZodType;
    } else {
      return current;
    }
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function formatUnknown(path: string[], known: string[]): string {
  const key = path[path.length - 1] ?? '';
  const guess = closest(key, known);
  const hint = guess ? ` (did you mean "${[...path.slice(0, -1), guess].join('.')}"?)` : '';
  return `unknown key "${path.join('.')}" is ignored${hint}`;
}

/** The known key within edit distance 2 of a typo, if any. */
function closest(word: string, candidates: string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(word, name);
    if (distance <= 2 && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
