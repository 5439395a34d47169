import type { TestApp } from '../testing/test-app';

/** Answers as the history tests read them (JSON of any shape, or the export's text). */
export type Answer = {
  status: number;
  headers: Record<string, unknown>;
  body: ReturnType<typeof JSON.parse>;
};

/**
 * Calls the API as a signed-in user, remembering the newest event position written, and waits
 * (`settle`) until the history read model holds every event written so far.
 */
export function historyClient(app: () => TestApp) {
  let lastPosition = '';
  async function call(userId: string, method: string, url: string, body?: unknown): Promise<Answer> {
    const t = app();
    const response = await t.app.inject({
      method: method as 'GET',
      url,
      headers: await t.signedInHeader(userId),
      ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
    });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string' && position > lastPosition) lastPosition = position;
    const isJson = String(response.headers['content-type']).includes('application/json');
    return {
      status: response.statusCode,
      headers: response.headers,
      body: isJson ? response.json() : response.body,
    };
  }
  async function settle(): Promise<boolean> {
    return lastPosition ? app().platform.afterAppend(lastPosition, ['history']) : true;
  }
  return { call, settle };
}
