// How many history records the History screen asks main for at a time: a first page of about one screenful, shown
// as soon as it comes (30,000 records or 3: the first rows paint after one small answer), then bigger pages as the
// list scrolls towards its end.

/**
 * Records of the first page: more than a tall window shows (rows are about 58 px high), so that the list does not ask
 * for the next page before the first is painted.
 */
export const FIRST_HISTORY_PAGE = 40;

/** Records of each later page, asked for as the list nears its end. */
export const HISTORY_PAGE = 100;
