/**
 * Builds the JSON schema that constrains a Hermes tool call: `{"name": <one tool>, "arguments":
 * <that tool's parameters>}` as a oneOf over tools, in the dialect node-llama-cpp's grammar
 * generator understands (`GbnfJsonSchema`). Tool schemas arrive as standard JSON Schema (zod's
 * draft-7 output), so a few constructs are translated on the way.
 */
import type { GbnfJsonSchema } from 'node-llama-cpp';
import type { HostToolSchema } from '../shared/model-host-protocol.js';

type Json = Record<string, unknown>;

const SCALAR_TYPES = ['string', 'number', 'integer', 'boolean', 'null'] as const;
type Scalar = (typeof SCALAR_TYPES)[number];

/** A value we cannot constrain more precisely: any scalar (objects/arrays of unknown shape are not worth a guess). */
const ANY_SCALAR: GbnfJsonSchema = { type: ['string', 'number', 'boolean', 'null'] };

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function withDescription(schema: Json, description: unknown): Json {
  return typeof description === 'string' ? { ...schema, description } : schema;
}

function convert(schema: unknown, defs: Json, depth: number): GbnfJsonSchema {
  if (!isObject(schema) || depth > 32) return ANY_SCALAR;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace(/^#\/(\$defs|definitions)\//, '');
    return convert(defs[name], defs, depth + 1);
  }
  if ('const' in schema) {
    const c = schema.const;
    if (c === null || ['string', 'number', 'boolean'].includes(typeof c)) return { const: c as string | number | boolean | null };
  }
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.filter((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v));
    if (values.length > 0) return { enum: values as (string | number | boolean | null)[] };
  }
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union) && union.length > 0) return { oneOf: union.map((s) => convert(s, defs, depth + 1)) };
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1) return convert(schema.allOf[0], defs, depth + 1);

  const type = schema.type;
  if (Array.isArray(type)) {
    const scalars = type.filter((t): t is Scalar => (SCALAR_TYPES as readonly unknown[]).includes(t));
    const others = type.filter((t) => t === 'object' || t === 'array').map((t) => convert({ ...schema, type: t }, defs, depth + 1));
    const basic: GbnfJsonSchema[] = scalars.length > 0 ? [{ type: scalars.length === 1 ? (scalars[0] as Scalar) : scalars }] : [];
    const all = [...basic, ...others];
    return all.length === 1 ? (all[0] as GbnfJsonSchema) : { oneOf: all };
  }
  switch (type) {
    case 'object': {
      const props = isObject(schema.properties) ? schema.properties : {};
      const properties: Record<string, GbnfJsonSchema> = {};
      for (const [key, value] of Object.entries(props)) properties[key] = convert(value, defs, depth + 1);
      // node-llama-cpp's grammar writes every declared property (optional ones too), which still
      // validates; extra keys are never useful to a tool, so they are forbidden unless given a shape.
      const additional = isObject(schema.additionalProperties) ? convert(schema.additionalProperties, defs, depth + 1) : false;
      return withDescription({ type: 'object', properties, additionalProperties: additional }, schema.description) as GbnfJsonSchema;
    }
    case 'array': {
      const out: Json = { type: 'array', items: convert(schema.items, defs, depth + 1) };
      if (typeof schema.minItems === 'number') out.minItems = schema.minItems;
      if (typeof schema.maxItems === 'number') out.maxItems = schema.maxItems;
      return withDescription(out, schema.description) as GbnfJsonSchema;
    }
    case 'string': {
      const out: Json = { type: 'string' };
      if (typeof schema.minLength === 'number') out.minLength = schema.minLength;
      if (typeof schema.maxLength === 'number') out.maxLength = schema.maxLength;
      return out as GbnfJsonSchema;
    }
    case 'number':
    case 'integer':
    case 'boolean':
    case 'null':
      return { type };
    default:
      return ANY_SCALAR;
  }
}

/** Translate one tool's JSON Schema parameters into node-llama-cpp's grammar schema dialect. */
export function toGrammarSchema(parameters: Json): GbnfJsonSchema {
  const defs = { ...(isObject(parameters.definitions) ? parameters.definitions : {}), ...(isObject(parameters.$defs) ? parameters.$defs : {}) };
  const converted = convert(parameters, defs, 0);
  // Arguments are always an object, even for a tool whose schema says nothing.
  return isObject(converted) && (converted as Json).type === 'object' ? converted : { type: 'object', properties: {}, additionalProperties: false };
}

/** `{"name": …, "arguments": …}` constrained to the given tools. */
export function toolCallGrammarSchema(tools: readonly HostToolSchema[]): GbnfJsonSchema {
  const variants: GbnfJsonSchema[] = tools.map((t) => ({
    type: 'object',
    properties: { name: { const: t.name }, arguments: toGrammarSchema(t.parameters) },
    additionalProperties: false,
  }));
  return variants.length === 1 ? (variants[0] as GbnfJsonSchema) : { oneOf: variants };
}

/**
 * node-llama-cpp 3.21.1 writes numbers with an unbounded exponent (`59E307`, `1e400`): JSON.parse
 * turns those into Infinity, and its "integer" admits exponents too. Replace both rules with
 * bounded ones — integers get no exponent (≤ 15 digits, always a safe integer), fractional numbers
 * an exponent of at most two digits — so every number the grammar admits is a finite JS number.
 */
export function boundNumberRules(grammar: string): string {
  const digits = '("0" | [1-9] [0-9]{0,14})';
  const rules: Record<string, string> = {
    'integer-number-rule': `"-"? ${digits}`,
    'fractional-number-rule': `"-"? ${digits} ("." [0-9]{1,16})? ([eE] [-+]? [0-9]{1,2})?`,
  };
  return grammar
    .split('\n')
    .map((line) => {
      const name = line.slice(0, line.indexOf(' ::= '));
      const rule = rules[name];
      return rule === undefined ? line : `${name} ::= ${rule}`;
    })
    .join('\n');
}
