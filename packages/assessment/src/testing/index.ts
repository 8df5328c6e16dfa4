export * from './attempts';
export { importDemoFiles, setWindows, voidAttempt } from './oralTestKit';
export * from './sittingFixtures';
