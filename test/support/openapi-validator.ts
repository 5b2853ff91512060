import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

type Json = Record<string, any>;

/** Headers of the REST contract: present in a response, they must be documented for it. */
const CONTRACT_HEADERS = [
  'x-correlation-id',
  'x-request-id',
  'cache-control',
  'pragma',
  'www-authenticate',
  'retry-after',
  'allow',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'ratelimit-policy',
];

const DOCUMENT_ID = 'https://openapi.test/openapi.json';

/**
 * Checks real responses against an OpenAPI 3.1 document: the status is
 * documented for the operation, documented headers are there and match,
 * contract headers that are there are documented, and the body validates
 * against the documented schema (JSON Schema 2020-12 with formats). The
 * document's objects forbid other properties, so an undocumented field
 * fails. Remembers which documented responses it has seen.
 */
export class OpenApiResponseValidator {
  readonly #ajv: Ajv2020;
  readonly #compiled = new Map<string, ValidateFunction>();
  readonly #seen = new Set<string>();

  constructor(private readonly document: Json) {
    this.#ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
    // ajv-formats is CommonJS: its plugin is the default export's default under some loaders.
    const addFormats = ((formats as unknown as { default?: unknown }).default ?? formats) as (ajv: Ajv2020) => void;
    addFormats(this.#ajv);
    // `components` is no JSON Schema keyword; declared so that refs into it resolve.
    this.#ajv.addKeyword('components');
    this.#ajv.addSchema({ $id: DOCUMENT_ID, components: document.components });
  }

  /** Validator of a schema of the document, e.g. `{ $ref: '#/components/schemas/Error' }`. */
  schemaValidator(schema: Json): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.#compiled.get(key);
    if (!validate) {
      const absolute = JSON.parse(key.replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`)) as Json;
      validate = this.#ajv.compile(absolute);
      this.#compiled.set(key, validate);
    }
    return validate;
  }

  /** What is wrong with `response` as an answer of `method path`; empty when it matches. Also returns the body. */
  async check(method: string, path: string, response: Response): Promise<{ problems: string[]; body: unknown }> {
    const problems: string[] = [];
    const text = await response.text();
    const documented = this.document.paths?.[path]?.[method.toLowerCase()]?.responses?.[String(response.status)] as Json | undefined;
    if (!documented) return { problems: [`${method} ${path} does not document status ${response.status}`], body: text };
    this.#seen.add(`${method} ${path} ${response.status}`);

    const headers = Object.entries((documented.headers ?? {}) as Json).map(
      ([name, ref]) => [name.toLowerCase(), this.#resolve(ref)] as const,
    );
    for (const [name, header] of headers) {
      const value = response.headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`header ${name} is missing`);
      } else if (!this.schemaValidator(header.schema)(value)) {
        problems.push(`header ${name}: ${JSON.stringify(value)} does not match ${JSON.stringify(header.schema)}`);
      }
    }
    for (const name of CONTRACT_HEADERS) {
      if (response.headers.has(name) && !headers.some(([documentedName]) => documentedName === name)) {
        problems.push(`header ${name} is sent but not documented`);
      }
    }

    if (!documented.content) {
      if (text !== '') problems.push(`the body should be empty, got ${text.slice(0, 100)}`);
      return { problems, body: text };
    }
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
    const media = (documented.content as Json)[contentType] as Json | undefined;
    if (!media) return { problems: [...problems, `content type ${contentType} is not documented`], body: text };
    const body: unknown = JSON.parse(text);
    const validate = this.schemaValidator(media.schema);
    if (!validate(body)) {
      for (const e of validate.errors ?? []) problems.push(`body${e.instancePath}: ${e.message} ${JSON.stringify(e.params)}`);
    }
    return { problems, body };
  }

  /** Documented responses (`GET /ready 503`) that no checked response had. */
  unseen(): string[] {
    const all: string[] = [];
    for (const [path, item] of Object.entries((this.document.paths ?? {}) as Json)) {
      for (const [method, operation] of Object.entries(item as Json)) {
        for (const status of Object.keys((operation as Json).responses ?? {})) all.push(`${method.toUpperCase()} ${path} ${status}`);
      }
    }
    return all.filter((key) => !this.#seen.has(key));
  }

  #resolve(object: Json): Json {
    const ref = object.$ref as string | undefined;
    if (!ref) return object;
    return ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<Json>((node, part) => node[part] as Json, this.document);
  }
}
