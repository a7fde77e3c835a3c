import { z } from './zod.ts';

// Query strings arrive as text. These helpers turn them into a plain record the shared
// schemas can check strictly: a repeated parameter stays an array (and is refused by the
// schema), so `?page=1&page=2` is an error rather than a silent pick.

export type QueryRecord = Record<string, string | string[]>;

export function queryRecord(input: URLSearchParams | string): QueryRecord {
  const params = typeof input === 'string' ? new URLSearchParams(input) : input;
  const record: QueryRecord = Object.create(null);
  for (const [key, value] of params) {
    const existing = record[key];
    if (existing === undefined) record[key] = value;
    else record[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return record;
}

/**
 * A whole-number query parameter within [min, max]. Only plain digits are accepted: no sign,
 * exponent, hex, decimals or surrounding spaces, so every caller reads the same number.
 */
export function intParam(name: string, min: number, max: number, rangeText = `from ${min} to ${max}`) {
  const message = `${name} must be a whole number ${rangeText}`;
  return z.pipe(
    z.pipe(
      /* @__PURE__ */ z
        .string({ error: `${name} must be given once, as a whole number ${rangeText}` })
        .check(z.regex(/^[0-9]{1,15}$/, { error: message })),
      z.transform(Number),
    ),
    /* @__PURE__ */ z
      .number()
      .check(z.gte(min, { error: message }), z.lte(max, { error: `${name} must be at most ${max}` })),
  );
}

/** A query parameter given once, naming one of `values` (which `schema` accepts). */
export function oneOfParam<T extends z.ZodMiniType<unknown, string>>(
  name: string,
  values: readonly string[],
  schema: T,
) {
  return z.optional(
    z.pipe(z.string({ error: `${name} must be given once: one of ${values.join(', ')}` }), schema),
  );
}

/** A query's canonical search string maker: the schema's parameters that are given, in its order. */
export function searchParamsOf<Shape extends z.core.$ZodShape, Config extends z.core.$ZodObjectConfig>(
  schema: z.ZodMiniObject<Shape, Config>,
) {
  const names = Object.keys(schema.shape);
  return (query: Partial<z.output<z.ZodMiniObject<Shape, Config>>>): URLSearchParams => {
    const given = query as Record<string, string | number | undefined>;
    return toSearchParams(Object.fromEntries(names.map((name) => [name, given[name]])));
  };
}

/** Builds a canonical query string from defined values, in the order given. */
export function toSearchParams(values: Record<string, string | number | undefined | null>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  return params;
}
