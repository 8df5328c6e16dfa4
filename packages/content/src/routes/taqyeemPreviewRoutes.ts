import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ContextDeps } from '@qiraa/kernel';

// PLACEHOLDER: replaced by the route group's implementation.
export const taqyeemPreviewRoutes =
  (_deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async () => {};
