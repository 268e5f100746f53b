import { FOOTER_RESERVE_BYTES, MAX_RESULT_BYTES } from '@openwork/tools-contract';

/** §9 `MAX_BYTES` of write.rs / edit.rs: write content, edit's newString, and files write/edit change. */
export const MAX_TEXT_FILE_BYTES = 1024 * 1024;

/** §7.1, §7.8: bytes of page content a tool's own result may hold (32,000 − 512 for the footer). */
export const PAGE_CONTENT_BYTES = MAX_RESULT_BYTES - FOOTER_RESERVE_BYTES;
