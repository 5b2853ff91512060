/**
 * The path of an absolute http(s) URL as a request carries it (`http://host/v2/shipments?x=1` gives
 * `/v2/shipments`), without building a URL object: plugins that only ask "is this /graphql?" run on every
 * execution, REST lookups included. A path of plain characters is cut out of the text as is; one with
 * anything URL would encode, decode or fold (`%`, `\\`, `.`, quotes, braces, spaces, controls, non-ASCII) is left to
 * `new URL(url).pathname`, so the answer is always that of the real parser.
 */
/** % . \\ and what the path percent-encoding set encodes: " < > ` { } */
const FOLDED = [0x25, 0x2e, 0x5c, 0x22, 0x3c, 0x3e, 0x60, 0x7b, 0x7d];

export function urlPath(url: string): string {
  const authority = url.indexOf('://');
  const start = authority < 0 ? -1 : url.indexOf('/', authority + 3);
  // No path at all, or a query or fragment before the first slash (http://host?a=/b): the parser's answer.
  if (start < 0 || /[?#@\\]/.test(url.slice(authority + 3, start))) return new URL(url).pathname;
  let end = url.length;
  for (let i = start; i < url.length; i++) {
    const c = url.charCodeAt(i);
    // ? and # end the path; % and \ and characters URL would encode or fold are left to the real parser.
    if (c === 0x3f || c === 0x23) {
      end = i;
      break;
    }
    if (c <= 0x20 || c >= 0x7f || FOLDED.includes(c)) return new URL(url).pathname;
  }
  return url.slice(start, end);
}
