import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export const OPENAPI_INFO = {
  title: 'qiraa API',
  version: '0.1.0',
  description:
    'Early-literacy assessment and support back end (grades 1-4). Every error is the ApiError envelope. ' +
    'Generated from the route schemas; committed as docs/openapi.json by `npm run openapi`.',
};

/** OpenAPI 3 from the routes' TypeBox schemas; shared schemas (ApiError) become named components. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: OPENAPI_INFO,
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
}
