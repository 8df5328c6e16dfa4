import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

type Res = Promise<LightMyRequestResponse>;

export interface Client {
  get(url: string, headers?: Record<string, string>): Res;
  post(url: string, payload?: unknown, headers?: Record<string, string>): Res;
  patch(url: string, payload?: unknown): Res;
  put(url: string, payload?: unknown): Res;
  delete(url: string): Res;
}

/** Requests through fastify.inject, with the caller's bearer token when given. */
export function client(app: FastifyInstance, accessToken?: string): Client {
  const auth: Record<string, string> = accessToken ? { authorization: `Bearer ${accessToken}` } : {};
  const send = (
    method: InjectOptions['method'],
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method,
      url,
      headers: { ...auth, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    get: (url, headers) => send('GET', url, undefined, headers),
    post: (url, payload, headers) => send('POST', url, payload ?? {}, headers),
    patch: (url, payload) => send('PATCH', url, payload ?? {}),
    put: (url, payload) => send('PUT', url, payload ?? {}),
    delete: (url) => send('DELETE', url),
  };
}
