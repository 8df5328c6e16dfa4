export * from './attempts';
export * from './sittingFixtures';
export { importDemoFiles, setWindows, voidAttempt } from '../oral/oralTestKit';
