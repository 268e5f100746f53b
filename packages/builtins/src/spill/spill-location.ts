/**
 * Where one call's spill file is (§8.2), and how results show it. The shape matches
 * `SpillTarget` of `@openwork/process-backend`, so bash can hand it to `spawn` as is.
 */
export interface SpillLocation {
  /** Absolute path of the file. */
  readonly path: string;
  /** `~/.openwork/spill/<session-id>/<tool-call-id>.txt` when under the home directory, else `path`; `read` opens exactly this. */
  readonly displayPath: string;
}
