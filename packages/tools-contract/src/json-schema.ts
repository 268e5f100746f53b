/**
 * A JSON Schema document as plain JSON data. The contract only produces and transports schemas;
 * it does not interpret them beyond `properties`, `required` and `$defs` (§7.5).
 */
export type JsonSchema = { readonly [keyword: string]: JsonValue };

/** Any JSON value. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };
