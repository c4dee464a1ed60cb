/**
 * The structure of a JSON value: the type of each field, recursively (arrays by their first item), so
 * two answers with different values but the same fields compare equal.
 */
export function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return [value.length === 0 ? 'empty' : shapeOf(value[0])];
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, shapeOf(field)]));
  }
  return value === null ? 'null' : typeof value;
}

export interface ShapeOptions {
  /**
   * A null on either side matches any type: for APIs whose fields are nullable almost everywhere
   * (Stripe's), where an example's value and an answer's null only mean different states.
   */
  nullable?: boolean;
}

/**
 * Where `actual` lacks a field of `documented` or holds it with another type, recursively (arrays by
 * their first items, when both have one): an answer may carry more fields than a document shows, never
 * fewer or different ones.
 */
export function shapeMismatches(
  documented: unknown,
  actual: unknown,
  path = '$',
  options: ShapeOptions = {},
): string[] {
  const expected = kindOf(documented);
  const got = kindOf(actual);
  if (options.nullable === true && (expected === 'null' || got === 'null')) return [];
  if (expected !== got) return [`${path}: documented ${expected}, got ${got}`];
  if (Array.isArray(documented) && Array.isArray(actual)) {
    if (documented.length === 0 || actual.length === 0) return [];
    return shapeMismatches(documented[0], actual[0], `${path}[0]`, options);
  }
  if (expected !== 'object') return [];
  const fields = actual as Record<string, unknown>;
  return Object.entries(documented as Record<string, unknown>).flatMap(([key, field]) =>
    key in fields ? shapeMismatches(field, fields[key], `${path}.${key}`, options) : [`${path}.${key}: missing`],
  );
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}
