export * from './attempts';
export * from './sittingFixtures';
