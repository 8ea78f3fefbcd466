// Error answers as the Studio shows them: code, the JSON path split off the description (as the
// service writes paths: `.name`, `[3]`, `["any key"]`), the upload's own shape, retry-after.
import { describe, expect, it } from 'vitest';
import { jsonPath } from '../../src/format/json-path.js';
import { apiErrorFrom, describeError, networkError, parsePathPrefix } from '../src/lib/api-errors.js';

describe('api errors', () => {
  it('splits the JSON path off a validation error', () => {
    const e = apiErrorFrom(400, { error: 'validation_error', description: '$.objects[2].font_size: expected a number > 0 but received -3' });
    expect(e).toMatchObject({
      status: 400,
      code: 'validation_error',
      path: '$.objects[2].font_size',
      segments: ['objects', 2, 'font_size'],
      message: 'expected a number > 0 but received -3',
    });
    expect(describeError(e)).toBe('validation_error at $.objects[2].font_size: expected a number > 0 but received -3');
    expect(e).toBeInstanceOf(Error);
  });

  it('reads back every path the service writes, keys with spaces, quotes, dots and colons included', () => {
    const keys = ['objects_overrides', 'my "title": 2.0', 'text'];
    for (const segs of [keys, ['objects', 0, 'a.b'], ['file'], [], ['x', '<script>', 5, 'ünï', '']]) {
      const path = jsonPath(segs);
      expect(parsePathPrefix(`${path}: msg: more`), path).toEqual({ path, segments: segs, rest: 'msg: more' });
    }
  });

  it('leaves a description without a path whole', () => {
    const e = apiErrorFrom(401, { error: 'unauthorized', description: 'the API key is not known' });
    expect(e).toMatchObject({ path: null, segments: [], message: 'the API key is not known' });
    expect(parsePathPrefix('$ 5 is a price')).toBeUndefined();
    expect(parsePathPrefix('$.a[1')).toBeUndefined();
  });

  it("reads the upload's {result, reason} shape, a 429's retry-after, and a non-JSON page", () => {
    expect(apiErrorFrom(413, { result: 'error', reason: 'the upload is larger than 10 MB' })).toMatchObject({
      code: 'payload_too_large',
      message: 'the upload is larger than 10 MB',
    });
    expect(apiErrorFrom(429, { error: 'rate_limited', description: 'slow down' }, '12').retryAfter).toBe(12);
    expect(apiErrorFrom(502, '<html>Bad gateway</html>')).toMatchObject({ code: 'http_502', message: '<html>Bad gateway</html>' });
    expect(networkError(new TypeError('Failed to fetch'))).toMatchObject({ status: 0, code: 'network_error' });
  });
});
