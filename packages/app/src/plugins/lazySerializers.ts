import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

const eager = SerializerSelector();

export type Serializers = 'lazy' | 'eager';

/**
 * fastify's own response serializer factory (fast-json-stringify), building each route's serializer on its first
 * response instead of at start-up. Building all 254 routes' serializers was most of what `buildApp` costs:
 * 1.7 CPU-s per app, every API start-up and every int spec file (validators are cached across apps, these were
 * not). What a serializer writes is unchanged; a response schema fast-json-stringify cannot build would now fail
 * its route's first response rather than the start-up, so `responseSchemas.int.spec.ts` builds them all eagerly.
 */
export function serializerFactory(mode: Serializers): typeof eager {
  if (mode === 'eager') return eager;
  return (externalSchemas, options) => {
    const compile = eager(externalSchemas, options);
    return (route) => {
      let serialize: ReturnType<typeof compile> | undefined;
      return (doc) => {
        serialize ??= compile(route);
        return serialize(doc);
      };
    };
  };
}
