/**
 * The stable name of a tool, written out explicitly by its author (§2: never derived from a type
 * name), e.g. `read` or `bash`. It is what the model calls and what `ToolsetConfig` selects.
 */
export type ToolId = string;
