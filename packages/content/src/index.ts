export * from './catalog/catalogTypes';
export { loadCatalog } from './catalog/loadCatalog';
export { currentItemBankPin, type ItemBankPinEntry, takeItemBankPin } from './commands/takeItemBankPin';
export { contentContext } from './context';
export { contentHash } from './hash';
