export { type AppRuntime, type BuildOptions, buildApp, type RegisteredRoute } from './buildApp';
