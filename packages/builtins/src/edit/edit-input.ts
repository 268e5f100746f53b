import * as z from 'zod';
import { escalationInputShape, requireJustification } from '../escalation/escalation-parameters.js';
import type { EditEntry } from './match-edit-entry.js';

/** Entries one `edits` call may carry (edit beyond the spec). */
export const MAX_EDIT_ENTRIES = 64;

const editEntrySchema = z.strictObject({
  oldString: z.string().describe('The exact text to replace, as in oldString above; not empty'),
  newString: z.string().describe('The replacement text'),
  replaceAll: z.boolean().default(false).describe('Replace every occurrence of this oldString instead of exactly one'),
});

/**
 * The input of `edit`: §7.3's single form (`oldString`, `newString`, `replaceAll`) or, instead,
 * `edits` (edit beyond the spec). Both forms live in one flat object — no union, so the JSON Schema the model
 * sees is a plain `type: object` (Anthropic refuses `oneOf`/`anyOf`/`allOf` at the top of a tool's
 * input schema, and strict function calling copes badly with nested unions); `requireOneForm`
 * enforces "exactly one form" as an `invalid tool input:` result naming the field.
 */
export const editInputSchema = z
  .strictObject({
    filePath: z.string().describe('File path: absolute, or relative to the working directory; ~ is your home'),
    oldString: z
      .string()
      .optional()
      .describe('The exact text to replace, copied from the file (without the line numbers read shows). An empty string creates a new file. Leave out when sending edits'),
    newString: z.string().optional().describe('The replacement text (at most 1 MiB). Leave out when sending edits'),
    replaceAll: z.boolean().default(false).describe('Replace every occurrence of oldString instead of exactly one'),
    edits: z
      .array(editEntrySchema)
      .min(1)
      .max(MAX_EDIT_ENTRIES)
      .optional()
      .describe(
        'Instead of oldString/newString: 1-64 replacements in this file, none overlapping',
      ),
    ...escalationInputShape,
  })
  .superRefine(requireJustification)
  .superRefine(requireOneForm);

export type EditInput = z.output<typeof editInputSchema>;

/** Which form the call used: the summary and the errors speak of `oldString` or of `edits[i]`. */
export type EditForm = 'single' | 'edits';

/** The call's replacements as entries, whichever form it used (after `requireOneForm`). */
export function editEntries(input: EditInput): { form: EditForm; entries: EditEntry[] } {
  if (input.edits !== undefined) return { form: 'edits', entries: input.edits.map((entry) => ({ ...entry })) };
  return { form: 'single', entries: [{ oldString: input.oldString ?? '', newString: input.newString ?? '', replaceAll: input.replaceAll }] };
}

/** Exactly one form: `oldString` + `newString` (with `replaceAll`), or `edits`. */
function requireOneForm(input: { oldString?: string | undefined; newString?: string | undefined; replaceAll: boolean; edits?: unknown }, context: z.RefinementCtx): void {
  if (input.edits !== undefined) {
    if (input.oldString !== undefined || input.newString !== undefined) {
      context.addIssue({ code: 'custom', path: ['edits'], message: 'send either oldString and newString (one replacement) or edits (several), not both' });
    }
    if (input.replaceAll) context.addIssue({ code: 'custom', path: ['replaceAll'], message: 'with edits, set replaceAll on each entry that needs it instead' });
    return;
  }
  for (const field of ['oldString', 'newString'] as const) {
    if (input[field] === undefined) {
      context.addIssue({ code: 'custom', path: [field], message: 'missing; send oldString and newString for one replacement, or edits for several' });
    }
  }
}
