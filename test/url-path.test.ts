import { describe, expect, it } from 'vitest';
import { urlPath } from '../src/http-messages/url-path.js';

describe('urlPath', () => {
  it('gives what new URL(url).pathname gives', () => {
    const urls = [
      'http://localhost/graphql',
      'http://localhost/graphql?query=%7B__typename%7D',
      'http://127.0.0.1:8080/v2/shipments?billOfLadingNumber=X#frag',
      'http://localhost/graphql/',
      'http://localhost',
      'https://example.com:443/v2/events?limit=1',
      'http://localhost/%67raphql',
      'http://localhost/./graphql',
      'http://localhost/a/../graphql',
      'http://localhost/\\graphql',
      'http://localhost/gr aph"ql',
      'http://localhost/grüße',
      'http://localhost/a"b',
      'http://localhost?a=/graphql',
      'http://localhost#/graphql',
      'http://user@localhost/graphql',
      'http://localhost/a<b>c',
      'http://localhost/a{b}`c|d^e',
      'http://localhost/.well-known/jwks.json',
      'http://localhost/v2/subscriptions/abc-123/deliveries',
    ];
    for (const url of urls) expect(urlPath(url), url).toBe(new URL(url).pathname);
  });
});
