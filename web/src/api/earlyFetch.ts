/**
 * A signed-in cold start asks for its screen's first data before React, the store and the base
 * query exist (they take 100–150 ms of script on a 2-core machine): `boot.ts` sends the GETs here
 * with the stored token, and the base query's fetch (`fetchFn`) takes each answer once when it
 * asks for the same URL with the same credentials soon after. Anything else is fetched as usual,
 * so an early request that is never asked for again costs one unread answer and changes nothing.
 */
const EARLY_ANSWER_TTL_MS = 10_000;

type Early = { authorization: string; sentAt: number; response: Promise<Response> };

/**
 * Kept on the window: boot.ts, inlined in index.html and built apart from the app, has its own
 * copy of this module, and the base query's must find what it sent.
 */
const shared = globalThis as { koshEarlyAnswers?: Map<string, Early> };
shared.koshEarlyAnswers ??= new Map<string, Early>();
const early = shared.koshEarlyAnswers;

/** Sends GETs of `paths` (e.g. `/api/ledger/periods`) as `Authorization: Bearer <token>`. */
export function fetchEarly(paths: readonly string[], token: string, now = Date.now()): void {
  const authorization = `Bearer ${token}`;
  for (const path of paths) {
    const url = new URL(path, window.location.origin).href;
    if (early.has(url)) continue;
    const response = fetch(url, { headers: { Authorization: authorization } });
    // A failed early request is asked for again by the screen; no unhandled rejection meanwhile.
    response.catch(() => undefined);
    early.set(url, { authorization, sentAt: now, response });
  }
}

/**
 * The early answer to `request`, once: same URL, a GET with the same Authorization and no other
 * account asked for (audit mode's `X-Kosh-Account`), within EARLY_ANSWER_TTL_MS of sending.
 */
export function takeEarly(request: Request, now = Date.now()): Promise<Response> | undefined {
  const found = early.get(request.url);
  if (!found) return undefined;
  early.delete(request.url);
  const same =
    request.method === 'GET' &&
    request.headers.get('Authorization') === found.authorization &&
    !request.headers.has('X-Kosh-Account') &&
    now - found.sentAt < EARLY_ANSWER_TTL_MS;
  return same ? found.response : undefined;
}

/** fetchBaseQuery's `fetchFn`: the early answer when there is one, else `fetch`. */
export function fetchOrTakeEarly(input: RequestInfo, init?: RequestInit): Promise<Response> {
  if (input instanceof Request && init === undefined) {
    const taken = takeEarly(input);
    if (taken) return taken;
  }
  return fetch(input, init);
}
