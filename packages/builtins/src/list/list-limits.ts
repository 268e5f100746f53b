/** §7.8 / §9: entries per page by default. */
export const LIST_DEFAULT_LIMIT = 200;

/** §7.8 / §9: the largest `limit`. */
export const LIST_MAX_LIMIT = 2000;
