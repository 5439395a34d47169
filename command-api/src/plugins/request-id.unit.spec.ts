import { describe, expect, it } from 'vitest';
import { requestIdOf } from './request-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const idOf = (header: string | string[] | undefined) => requestIdOf({ headers: { 'x-request-id': header } });

/** Issue 28, item 7: a client's X-Request-Id is used only when short and plain. */
describe('the request id', () => {
  it.each(['abc', 'Proxy.id_42-x', 'a'.repeat(64), '0f8fad5b-d9cb-469f-a165-70867728950e'])(
    'keeps %s',
    (header) => {
      expect(idOf(header)).toBe(header);
    },
  );

  it.each([
    ['65 characters', 'a'.repeat(65)],
    ['8 KB of markup', `<img src=x onerror=alert(1)>${'x'.repeat(8192)}`],
    ['a space', 'a b'],
    ['a slash', 'a/b'],
    ['a quote', 'a"b'],
    ['a colon', 'trace:1'],
    ['non-ASCII letters', 'ïd'],
    ['a line break', 'a\nb'],
    ['nothing', ''],
  ])('replaces one with %s by a fresh UUID', (_name, header) => {
    expect(idOf(header)).toMatch(UUID);
  });

  it('makes one when there is none, or several', () => {
    expect(idOf(undefined)).toMatch(UUID);
    expect(idOf(['a', 'b'])).toMatch(UUID);
    expect(idOf(undefined)).not.toBe(idOf(undefined));
  });
});
