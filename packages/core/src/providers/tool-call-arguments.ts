import type { JsonValue } from '@openwork/tools-contract';

/** The arguments of a call as JSON text (OpenAI's `arguments`): raw text stays as the model sent it. */
export function argumentsText(input: JsonValue): string {
  return typeof input === 'string' ? input : JSON.stringify(input);
}

/**
 * The arguments of a call as a JSON object (Anthropic's `input` must be one): raw text is parsed
 * when it holds an object, and anything else becomes `{}` (the call already got its
 * `invalid_arguments` result, which the model reads next).
 */
export function argumentsObject(input: JsonValue): { readonly [key: string]: JsonValue } {
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      return {};
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { readonly [key: string]: JsonValue }) : {};
}
