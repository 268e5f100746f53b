/** §9: the most bytes (UTF-8) of text a result from `FinalizedToolset.call` has, footer included. */
export const MAX_RESULT_BYTES = 32_000;

/** §9: bytes of `MAX_RESULT_BYTES` kept free for a truncation footer. */
export const FOOTER_RESERVE_BYTES = 512;

/** §8.2/§9: the most bytes one spill file holds. */
export const MAX_SPILL_BYTES = 64 * 1024 * 1024;

/** §9: how much grep and glob buffer in memory before they stream their full list to a spill file. */
export const SPILL_BUFFER_BYTES = 256 * 1024;
