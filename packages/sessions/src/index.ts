export { approveBlueprintBatch } from './blueprints/approveBlueprintBatch';
export { importBlueprints } from './blueprints/importBlueprints';
export * from './codes';
export { sessionsContext } from './context';
