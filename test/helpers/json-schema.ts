/**
 * A small JSON Schema checker for the subset the OpenAPI document uses: $ref (local), type, const,
 * enum, properties, required, additionalProperties, items, allOf, minimum, maximum, maxLength,
 * pattern and the date-time and uuid formats. Returns every problem with its JSON path.
 * Objects with `properties` are closed unless `additionalProperties` says otherwise, so a field the
 * server sends but the document does not list is a problem too.
 */
type Schema = Record<string, unknown>;

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeMatches(want: string, have: string): boolean {
  return want === have || (want === 'number' && have === 'integer');
}

export function validate(value: unknown, schema: Schema, root: Schema, at = '$'): string[] {
  const problems: string[] = [];
  if (typeof schema.$ref === 'string') {
    const target = schema.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], root);
    if (!target) return [`${at}: unresolved ${schema.$ref}`];
    return validate(value, target as Schema, root, at);
  }
  for (const sub of (schema.allOf as Schema[] | undefined) ?? []) problems.push(...validate(value, sub, root, at));
  const have = typeOf(value);
  if (schema.type !== undefined) {
    const wants = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    if (!wants.some((w) => typeMatches(w, have)))
      return [...problems, `${at}: expected ${wants.join('|')}, got ${have}`];
  }
  if ('const' in schema && value !== schema.const) problems.push(`${at}: expected ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.includes(value))
    problems.push(`${at}: ${JSON.stringify(value)} not in enum`);
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) problems.push(`${at}: below ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) problems.push(`${at}: above ${schema.maximum}`);
  }
  if (typeof value === 'string') {
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) problems.push(`${at}: too long`);
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern).test(value))
      problems.push(`${at}: does not match ${schema.pattern}`);
    if (schema.format === 'date-time' && !DATE_TIME.test(value)) problems.push(`${at}: not a date-time`);
    if (schema.format === 'uuid' && !UUID.test(value)) problems.push(`${at}: not a uuid`);
  }
  if (have === 'array' && schema.items) {
    (value as unknown[]).forEach((item, i) =>
      problems.push(...validate(item, schema.items as Schema, root, `${at}[${i}]`)),
    );
  }
  if (have === 'object') {
    const obj = value as Record<string, unknown>;
    const props = (schema.properties as Record<string, Schema> | undefined) ?? {};
    for (const r of (schema.required as string[] | undefined) ?? [])
      if (!(r in obj)) problems.push(`${at}: missing ${r}`);
    for (const [k, v] of Object.entries(obj)) {
      if (props[k]) problems.push(...validate(v, props[k]!, root, `${at}.${k}`));
      else if (
        schema.additionalProperties === false ||
        (schema.additionalProperties === undefined && schema.properties)
      )
        problems.push(`${at}: undocumented ${k}`);
      else if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        problems.push(...validate(v, schema.additionalProperties as Schema, root, `${at}.${k}`));
      }
    }
  }
  return problems;
}
