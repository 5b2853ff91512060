import type { ServerAdapterPlugin } from '@whatwg-node/server';
import type { Plugin } from 'graphql-yoga';
import type { TracingConfig } from '../config/config.js';
import { routeLabel } from '../rest/route-table.js';

export interface Tracing {
  /** HTTP plugins of both pipelines (REST server and Yoga): a server span per request. */
  httpPlugins: ServerAdapterPlugin[];
  /** Execution plugins: a span per GraphQL operation. */
  plugins: Plugin[];
  /** Flushes spans not yet exported; call before the process exits. */
  shutdown(): Promise<void>;
}

/**
 * OpenTelemetry tracing, exported over OTLP/HTTP to
 * `OTEL_EXPORTER_OTLP_ENDPOINT`/v1/traces. Off unless that variable is set:
 * the packages are optional dependencies, imported here only then, so the
 * default path neither loads nor pays for them.
 *
 * Each request gets a SERVER span that continues the caller's W3C
 * traceparent (so its trace id is also the request's correlation id, see
 * request-context.ts); @envelop/opentelemetry adds a child span per GraphQL
 * operation, without document text, variables or results (they may hold
 * customer references).
 */
export async function startTracing(config: TracingConfig): Promise<Tracing> {
  if (!config.otlpEndpoint) throw new Error('startTracing needs OTEL_EXPORTER_OTLP_ENDPOINT');
  let modules;
  try {
    modules = await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/resources'),
      import('@envelop/opentelemetry'),
    ]);
  } catch (err) {
    throw new Error(
      `OTEL_EXPORTER_OTLP_ENDPOINT is set but the OpenTelemetry packages are not installed ` +
        `(optional dependencies; install without --omit=optional): ${(err as Error).message}`,
      { cause: err },
    );
  }
  const [api, sdk, otlp, asyncHooks, resources, envelop] = modules;

  const provider = new sdk.BasicTracerProvider({
    resource: new resources.Resource({ 'service.name': config.serviceName }),
  });
  provider.addSpanProcessor(new sdk.BatchSpanProcessor(new otlp.OTLPTraceExporter({ url: `${config.otlpEndpoint}/v1/traces` })));
  provider.register({ contextManager: new asyncHooks.AsyncLocalStorageContextManager().enable() });
  const tracer = provider.getTracer('track-and-trace');

  const requestSpans: ServerAdapterPlugin = {
    instrumentation: {
      request({ request }, handle) {
        // W3C trace context is the global propagator registered above.
        const parent = api.propagation.extract(api.ROOT_CONTEXT, request.headers, {
          get: (headers, key) => headers.get(key) ?? undefined,
          keys: (headers) => [...headers.keys()],
        });
        const route = routeLabel(new URL(request.url).pathname);
        const span = tracer.startSpan(
          `${request.method} ${route}`,
          {
            kind: api.SpanKind.SERVER,
            attributes: { 'http.request.method': request.method, 'http.route': route },
          },
          parent,
        );
        return api.context.with(api.trace.setSpan(parent, span), handle);
      },
    },
    onResponse({ response }) {
      const span = api.trace.getActiveSpan();
      if (!span) return;
      span.setAttribute('http.response.status_code', response.status);
      if (response.status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
      span.end();
    },
  };

  return {
    httpPlugins: [requestSpans],
    plugins: [
      envelop.useOpenTelemetry(
        { resolvers: false, variables: false, result: false, document: false },
        provider,
        api.SpanKind.INTERNAL,
        {},
        config.serviceName,
      ) as unknown as Plugin,
    ],
    shutdown: () => provider.shutdown(),
  };
}
