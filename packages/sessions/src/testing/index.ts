export { blueprint, demoBlueprints, operationalBlueprints } from './blueprintKit';
export { accepted, decide, draft, enrol } from './sessionKit';
