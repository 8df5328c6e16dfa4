export { type AppRuntime, type BuildOptions, buildApp } from '@qiraa/app';
export { openapiDocument, serializeOpenapi } from './openapiDocument';
