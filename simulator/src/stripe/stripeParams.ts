import { parse } from 'qs';
import { invalidRequest, parameterInvalid, parameterMissing, parameterUnknown, StripeRefusal } from './stripeErrors';

/**
 * Stripe's parameters: form-encoded bodies and query strings in bracket notation (`line_items[0][price]`,
 * `metadata[uid]`, `expand[]`), read with `qs` as Stripe's own clients write them.
 */
export type Params = Record<string, unknown>;

/** Stripe accepts up to 20 levels of nesting, never more than its objects need. */
export const parseParams = (text: string): Params => parse(text, { depth: 20, arrayLimit: 100 });

export function queryOf(url: string): Params {
  const index = url.indexOf('?');
  return index === -1 ? {} : parseParams(url.slice(index + 1));
}

/** Refuses a parameter the endpoint does not take, as Stripe does: a typo must not pass silently. */
export function onlyKnown(params: Params, known: readonly string[], prefix = ''): void {
  for (const key of Object.keys(params)) {
    if (!known.includes(key)) throw new StripeRefusal(parameterUnknown(`${prefix}${key}`));
  }
}

export function optionalString(params: Params, name: string, path = name): string | null {
  const value = params[name];
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string') throw invalid(path, `Invalid string: ${JSON.stringify(value)}`);
  return value;
}

export function requiredString(params: Params, name: string, path = name): string {
  const value = optionalString(params, name, path);
  if (value === null) throw new StripeRefusal(parameterMissing(path));
  return value;
}

export function optionalInteger(params: Params, name: string, path = name, min = 0): number | null {
  const raw = optionalString(params, name, path);
  if (raw === null) return null;
  const value = Number(raw);
  if (!/^-?\d+$/.test(raw) || value < min) throw invalid(path, `Invalid integer: ${raw}`);
  return value;
}

export function optionalBoolean(params: Params, name: string, path = name): boolean | null {
  const raw = optionalString(params, name, path);
  if (raw === null) return null;
  if (raw !== 'true' && raw !== 'false') throw invalid(path, `Invalid boolean: ${raw}`);
  return raw === 'true';
}

export function optionalObject(params: Params, name: string, path = name): Params {
  const value = params[name];
  if (value === undefined || value === '') return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(path, `Invalid hash`);
  return value as Params;
}

/** `metadata[key]=value`; an empty value removes a key, which a new object simply leaves out. */
export function metadataOf(params: Params, name = 'metadata', path = name): Record<string, string> {
  const entries = Object.entries(optionalObject(params, name, path));
  for (const [key, value] of entries) {
    if (typeof value !== 'string') throw invalid(`${path}[${key}]`, `Invalid string: ${JSON.stringify(value)}`);
  }
  return Object.fromEntries(entries.filter(([, value]) => value !== '')) as Record<string, string>;
}

/** `expand[]=subscription`: the fields to expand, each one the endpoint can expand. */
export function expandOf(params: Params, expandable: readonly string[]): Set<string> {
  const value = params.expand;
  if (value === undefined) return new Set();
  const fields = Array.isArray(value) ? value : [value];
  for (const field of fields) {
    if (typeof field !== 'string' || !expandable.includes(field)) {
      throw new StripeRefusal(invalidRequest(`This property cannot be expanded (${String(field)}).`, 'expand'));
    }
  }
  return new Set(fields as string[]);
}

function invalid(param: string, message: string): StripeRefusal {
  return new StripeRefusal(parameterInvalid(param, message));
}
