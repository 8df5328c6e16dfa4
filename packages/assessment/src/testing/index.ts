export { importDemoFiles, setWindows, voidAttempt } from '../oral/oralTestKit';
export * from './attempts';
export * from './sittingFixtures';
