export * from './attempts';
export * from './sittingFixtures';
export { importDemoFiles, setWindows } from '../oral/oralTestKit';
