export { importDemoFiles, setWindows } from '../oral/oralTestKit';
export * from './attempts';
export * from './sittingFixtures';
