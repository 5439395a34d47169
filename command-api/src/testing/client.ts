import type { FastifyInstance, InjectOptions } from 'fastify';

/**
 * What `response.json()` gives: any JSON. A spec that wants its shape checked names it with the
 * type parameter (`t.as(alice).get<{ data: Page }>(url)`).
 */
type Json = ReturnType<typeof JSON.parse>;

export type Answer<Body = Json> = {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** The parsed JSON; undefined for an answer that is not JSON (a file, a 304, a gzipped body). */
  body: Body;
  /** The answer as sent, for exports, certificates and byte-exact comparisons. */
  text: string;
  payload: Buffer;
};

export type RequestOptions = { headers?: Record<string, string> };
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Requests as one caller: `t.as(alice).post('/api/loans', loanInput())`, or `t.anonymous`. */
export type Client = {
  send<Body = Json>(
    method: Method,
    url: string,
    body?: unknown,
    options?: RequestOptions,
  ): Promise<Answer<Body>>;
  get<Body = Json>(url: string, options?: RequestOptions): Promise<Answer<Body>>;
  post<Body = Json>(url: string, body?: unknown, options?: RequestOptions): Promise<Answer<Body>>;
  put<Body = Json>(url: string, body?: unknown, options?: RequestOptions): Promise<Answer<Body>>;
  patch<Body = Json>(url: string, body?: unknown, options?: RequestOptions): Promise<Answer<Body>>;
  delete<Body = Json>(url: string, options?: RequestOptions): Promise<Answer<Body>>;
};

/** A client of `app.inject` sending the headers `credentials` gives (a bearer token, or none). */
export function createClient(
  app: FastifyInstance,
  credentials: () => Promise<Record<string, string>>,
): Client {
  async function send(method: Method, url: string, body?: unknown, options: RequestOptions = {}) {
    const response = await app.inject({
      method,
      url,
      headers: { ...(await credentials()), ...options.headers },
      ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
    });
    const isJson =
      String(response.headers['content-type']).includes('application/json') &&
      !response.headers['content-encoding'] &&
      response.body !== '';
    return {
      status: response.statusCode,
      headers: response.headers,
      body: isJson ? response.json() : undefined,
      text: response.body,
      payload: response.rawPayload,
    };
  }
  return {
    send,
    get: (url, options) => send('GET', url, undefined, options),
    post: (url, body, options) => send('POST', url, body, options),
    put: (url, body, options) => send('PUT', url, body, options),
    patch: (url, body, options) => send('PATCH', url, body, options),
    delete: (url, options) => send('DELETE', url, undefined, options),
  };
}
