export { approveBlueprintBatch } from './blueprints/approveBlueprintBatch';
export { importBlueprints } from './blueprints/importBlueprints';
export * from './codes';
export { sessionsContext } from './context';
export { sessionLink } from './pdf/qrCode';
export { renderSessionSheet, type SheetInput } from './pdf/sessionSheet';
export { zipSheets } from './pdf/zipSheets';
