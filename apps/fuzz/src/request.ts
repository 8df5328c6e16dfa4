/** One request as the fuzzer sends it (and prints it). */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** A request before rendering: values still typed, so mutations can reach any part of it. */
export interface Draft {
  method: string;
  path: string;
  /** Path parameter values, percent-encoded on render unless listed in `rawPath`. */
  pathValues: Record<string, unknown>;
  rawPath: Record<string, string>;
  query: Array<[string, string]>;
  /** Query pairs appended as they are (not encoded): bad percent-encodings. */
  rawQuery: string[];
  headers: Record<string, string>;
  /** The JSON value of the body; `undefined`: no body. */
  body?: unknown;
  /** Overrides `body`: the exact text sent. */
  bodyText?: string;
  /** `undefined`: application/json when there is a body; `null`: no content-type header. */
  contentType?: string | null;
  /** Raw JSON tokens: `"\u0000RAW<n>"` placeholders in `body` become these (1e999, -0, 2^64...). */
  rawTokens: string[];
}

export const rawPlaceholder = (n: number) => `\u0000RAW${n}\u0000`;

export function render(d: Draft): FuzzRequest {
  const path = d.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    name in d.rawPath ? (d.rawPath[name] as string) : encodeURIComponent(String(d.pathValues[name])),
  );
  const pairs = [...d.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`), ...d.rawQuery];
  const url = pairs.length > 0 ? `${path}?${pairs.join('&')}` : path;
  let body = d.bodyText;
  if (body === undefined && d.body !== undefined) {
    body = JSON.stringify(d.body);
    d.rawTokens.forEach((token, n) => {
      body = (body as string).replace(JSON.stringify(rawPlaceholder(n)), token);
    });
  }
  const headers = { ...d.headers };
  const contentType = d.contentType === undefined ? (body === undefined ? null : 'application/json') : d.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  return { method: d.method, url, headers, ...(body === undefined ? {} : { body }) };
}
