/**
 * A structured record attached to a result for the host and the user interface, never sent to
 * the model (§8.1), e.g. `kind: 'file_change'` (§8.4). Opaque to the contract apart from `kind`.
 */
export interface ToolArtifact {
  readonly kind: string;
  readonly [field: string]: unknown;
}
