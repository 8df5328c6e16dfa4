import { itemRowById } from '@qiraa/content';

/** An item-bank item by id (any status: a day keeps serving what it planned even if retired meanwhile). */
export const practiceItemOf = itemRowById;
