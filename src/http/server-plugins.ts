import * as fetchAPI from '@whatwg-node/fetch';
import type { ServerAdapterPlugin } from '@whatwg-node/server';

type Handler = (request: Request, url: URL, serverContext: Record<string, unknown>) => Promise<Response>;
type RequestHook = NonNullable<ServerAdapterPlugin['onRequest']>;
type ResponseHook = NonNullable<ServerAdapterPlugin['onResponse']>;
type Instrument = NonNullable<NonNullable<ServerAdapterPlugin['instrumentation']>['request']>;

/**
 * Runs the HTTP plugins both pipelines share (correlation id, access log, metrics, CORS, RateLimit headers,
 * request spans: docs/architecture.md, Executor) around a REST handler, with the hooks and the order of
 * @whatwg-node/server, which runs the same plugin objects for Yoga: the `instrumentation.request` wrappers
 * (the first plugin's outermost) around everything; each `onRequest` in order, where `endResponse` answers
 * and skips the rest and the handler; the handler; each `onResponse` in order on the response.
 *
 * Yoga keeps the adapter. The REST server runs the hooks here so that a REST request needs no fetch `Request`
 * built by the adapter (rest-server.ts), and its response is written by the caller.
 */
export function serverPipeline(plugins: readonly ServerAdapterPlugin[], handler: Handler) {
  const instruments: Instrument[] = [];
  const onRequest: RequestHook[] = [];
  const onResponse: ResponseHook[] = [];
  for (const plugin of plugins) {
    if (plugin.instrumentation?.request) instruments.push(plugin.instrumentation.request);
    if (plugin.onRequest) onRequest.push(plugin.onRequest);
    if (plugin.onResponse) onResponse.push(plugin.onResponse);
  }

  async function hooksAndHandler(request: Request, url: URL, serverContext: Record<string, unknown>): Promise<Response> {
    let early: Response | undefined;
    let requestHandler = (req: Request) => handler(req, url, serverContext);
    for (const hook of onRequest) {
      const payload = {
        request,
        setRequest(next: Request) {
          request = next;
        },
        serverContext,
        fetchAPI,
        url,
        requestHandler: requestHandler as never,
        setRequestHandler(next: typeof requestHandler) {
          requestHandler = next;
        },
        endResponse(response: Response | undefined) {
          early = response;
        },
      };
      const result = hook(payload as unknown as Parameters<RequestHook>[0]);
      if (result) await result;
      if (early) break;
    }
    let response = early ?? (await requestHandler(request));
    for (const hook of onResponse) {
      const result = hook({
        request,
        response,
        serverContext,
        setResponse(next: Response) {
          response = next;
        },
        fetchAPI,
      } as unknown as Parameters<ResponseHook>[0]);
      if (result) await result;
    }
    return response;
  }

  if (instruments.length === 0) return hooksAndHandler;

  return async function instrumented(request: Request, url: URL, serverContext: Record<string, unknown>): Promise<Response> {
    let outcome: { response: Response } | { error: unknown } | undefined;
    const inner = async () => {
      try {
        outcome = { response: await hooksAndHandler(request, url, serverContext) };
      } catch (error) {
        outcome = { error };
      }
    };
    const wrap = (i: number): Promise<void> | void => {
      const instrument = instruments[i];
      return instrument ? instrument({ request }, () => wrap(i + 1)) : inner();
    };
    await wrap(0);
    if (!outcome) throw new Error('an instrumentation.request wrapper did not call the request handling');
    if ('error' in outcome) throw outcome.error;
    return outcome.response;
  };
}
