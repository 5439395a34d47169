import { describe, expect, it } from 'vitest';
import { prettyLine } from './logger';

describe('the human log line of embedded mode', () => {
  it('puts a request on one line: time, level, message, then the fields it does not already say', () => {
    const line = prettyLine(
      JSON.stringify({
        level: 30,
        time: Date.parse('2026-01-10T04:05:06.789Z'),
        pid: 123,
        hostname: 'laptop',
        correlationId: 'c0ffee',
        method: 'POST',
        url: '/api/loans',
        statusCode: 201,
        ms: 14,
        msg: 'POST /api/loans 201 14 ms',
      }),
    );
    expect(line).toBe('04:05:06 INFO  POST /api/loans 201 14 ms  correlationId=c0ffee\n');
  });

  it('shows an error with its stack below, a warning with its message only', () => {
    const err = { type: 'Error', message: 'boom', stack: 'Error: boom\n    at here' };
    expect(prettyLine(JSON.stringify({ level: 50, time: 0, msg: 'request failed', err }))).toBe(
      '00:00:00 ERROR request failed\nError: boom\n    at here\n',
    );
    expect(prettyLine(JSON.stringify({ level: 40, time: 0, msg: 'retrying', err }))).toBe(
      '00:00:00 WARN  retrying  boom\n',
    );
  });
});
