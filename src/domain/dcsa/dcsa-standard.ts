import published from './tnt-v2.2.0.json' with { type: 'json' };

/**
 * The DCSA Track & Trace 2.2 OpenAPI as the service uses it (README: Consuming the service as a DCSA
 * publisher): the published file (src/domain/dcsa/tnt-v2.2.0.json, vendored by
 * scripts/vendor-dcsa-standard.ts) with its known defects corrected in the loaded copy, each by name,
 * never by weakening a schema. Ingest compiles its event validators from it (src/ingest/event-validator.ts),
 * /openapi.json describes the DCSA routes with its schemas, and the tests validate every DCSA answer and
 * notification against it. Data, not I/O: the file is part of the module graph.
 */

type Json = Record<string, any>;

export interface KnownIssueCorrection {
  /** The number of the defect in the standard's KNOWN-ISSUES.md. */
  issue: 1 | 2 | 3 | 4 | 5;
  title: string;
  /** Corrects a copy of the standard in place. */
  apply(standard: Json): void;
}

export const KNOWN_ISSUE_CORRECTIONS: readonly KnownIssueCorrection[] = [
  {
    issue: 1,
    title: 'documentReferenceType lists "BKG (Booking)" and "TRD (Transport Document)": the labels were pasted into the values',
    apply: (s) => {
      s.components.schemas.documentReferences_inner.properties.documentReferenceType.enum = ['BKG', 'TRD'];
    },
  },
  {
    issue: 2,
    title: 'error.errorDateTime has format "$date-time", which is no format',
    apply: (s) => {
      s.components.schemas.error.properties.errorDateTime.format = 'date-time';
    },
  },
  {
    issue: 3,
    title: 'the secret example is a YAML !!binary value: it is the Base64 text it shows',
    apply: (s) => {
      // Read as Base64 text when the file was vendored (JSON holds no binary); a copy from elsewhere may carry bytes.
      const secret = s.components.schemas.secret;
      if (typeof secret.example !== 'string') secret.example = Buffer.from(secret.example as Uint8Array).toString('base64');
    },
  },
  {
    issue: 4,
    title: 'the callback declares the deprecated Signature header required; 2.2 signs with Notification-Signature',
    apply: (s) => {
      const callback = s.paths['/v2/event-subscriptions'].post.callbacks.event['{$request.body.callbackUrl}'].post;
      callback.parameters = (callback.parameters as Json[]).filter((p) => p.name !== 'Signature');
    },
  },
  {
    // Not in the standard's KNOWN-ISSUES.md: found by Spectral's spectral:oas (test/openapi-lint.test.ts).
    issue: 5,
    title:
      'the array-typed filters of GET /v2/events (shipmentEventTypeCode, documentTypeCode, transportEventTypeCode, ' +
      'equipmentEventTypeCode) give their default and example as one comma-separated string, such as "ARRI,DEPA"',
    apply: (s) => {
      // The values are what the query string carries (style form, explode false); as the schema says, they are arrays.
      const asArray = (value: unknown) => (typeof value === 'string' ? value.split(',') : value);
      for (const parameter of s.paths['/v2/events'].get.parameters as Json[]) {
        if (parameter.schema?.type !== 'array') continue;
        if ('default' in parameter.schema) parameter.schema.default = asArray(parameter.schema.default);
        if ('example' in parameter) parameter.example = asArray(parameter.example);
      }
    },
  },
];

/** A fresh copy of the standard as published (tests show what each correction is for). */
export function publishedStandard(): Json {
  return structuredClone(published) as Json;
}

/** A fresh copy of the standard with every known defect corrected. */
export function correctedStandard(): Json {
  const standard = publishedStandard();
  for (const correction of KNOWN_ISSUE_CORRECTIONS) correction.apply(standard);
  return standard;
}

/**
 * OpenAPI 3.0 schema objects as JSON Schema 2020-12 (OpenAPI 3.1): `example` becomes `examples`, `nullable:
 * false` (3.0's default) goes, and references to `#/components/schemas/NAME` point at `refPrefix + NAME`.
 */
export function toJsonSchema(schema: unknown, refPrefix: string): any {
  if (Array.isArray(schema)) return schema.map((s) => toJsonSchema(s, refPrefix));
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) {
    if (key === 'example') out.examples = [value];
    else if (key === 'nullable' && value === false) continue;
    else if (key === '$ref' && typeof value === 'string') out.$ref = value.replace('#/components/schemas/', refPrefix);
    else if (key === 'properties')
      out.properties = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, toJsonSchema(v, refPrefix)]));
    else out[key] = toJsonSchema(value, refPrefix);
  }
  return out;
}

/** The schemas `roots` need (by name), transitively through their references. */
export function reachableSchemas(standard: Json, roots: readonly string[]): string[] {
  const schemas = standard.components.schemas as Json;
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const walk = (node: unknown) => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node as Json)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) visit(value.slice(21));
        else walk(value);
      }
    };
    walk(schemas[name]);
  };
  roots.forEach(visit);
  return [...seen].sort();
}
