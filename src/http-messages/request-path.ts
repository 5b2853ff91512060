import { urlPath } from './url-path.js';

const paths = new WeakMap<Request, string>();

/**
 * The path of a request's URL, parsed once per request: several execution plugins ask whether an operation came to
 * /graphql (cost, quotas, the kept rendering), and a WHATWG URL parse per plugin per request showed in the profile of
 * a GraphQL lookup (bench/README.md, Profiling).
 */
export function requestPath(request: Request): string {
  let path = paths.get(request);
  if (path === undefined) {
    path = urlPath(request.url);
    paths.set(request, path);
  }
  return path;
}
