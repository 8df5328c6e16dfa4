export { type AppRuntime, type BuildOptions, buildApp } from './buildApp';
export { openapiDocument, serializeOpenapi } from './openapiDocument';
