import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { correctedStandard, toJsonSchema } from '../../src/domain/dcsa/dcsa-standard.js';

type Json = Record<string, any>;

const ID = 'https://dcsa.test/tnt-2.2.0.json';

/**
 * Validates answers and notifications of the DCSA routes against the DCSA Track & Trace 2.2 OpenAPI itself
 * (corrected for its known defects: src/domain/dcsa/dcsa-standard.ts), with ajv (JSON Schema 2020-12, formats,
 * strict): the body against the operation's documented schema for the status (its `default` response for an
 * error), the response headers it declares required, and `API-Version` on every answer.
 */
export class DcsaValidator {
  readonly #ajv: Ajv2020;
  readonly #standard: Json;
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(standard: Json = correctedStandard()) {
    this.#standard = standard;
    this.#ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
    const addFormats = ((formats as unknown as { default?: unknown }).default ?? formats) as (ajv: Ajv2020) => void;
    addFormats(this.#ajv);
    this.#ajv.addKeyword('components');
    // OpenAPI annotations ajv does not know (only in schemas no answer of this service uses).
    this.#ajv.addKeyword('discriminator');
    this.#ajv.addSchema({ $id: ID, components: { schemas: toJsonSchema(standard.components.schemas, `${ID}#/components/schemas/`) } });
  }

  /** A validator of a schema written as the standard writes them (`$ref: '#/components/schemas/…'`). */
  schema(schema: Json): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.#compiled.get(key);
    if (!validate) {
      validate = this.#ajv.compile(toJsonSchema(schema, `${ID}#/components/schemas/`) as Json);
      this.#compiled.set(key, validate);
    }
    return validate;
  }

  /** What is wrong with `body` as the answer `status` of `method path` (a path of the standard); empty when nothing. */
  answer(method: string, path: string, status: number, headers: Headers, body: unknown): string[] {
    const operation = this.#standard.paths[path]?.[method.toLowerCase()] as Json | undefined;
    if (!operation) return [`the standard has no ${method} ${path}`];
    const documented = (operation.responses[String(status)] ?? operation.responses.default) as Json;
    const problems: string[] = [];
    if (headers.get('api-version') !== '2.2.0') problems.push(`API-Version is ${headers.get('api-version')}`);
    for (const [name, header] of Object.entries((documented.headers ?? {}) as Json)) {
      const resolved = header.$ref ? this.#standard.components.headers[(header.$ref as string).split('/').pop() as string] : header;
      if (resolved.required && !headers.has(name)) problems.push(`header ${name} is missing`);
    }
    const schema = documented.content?.['application/json']?.schema as Json | undefined;
    if (!schema) {
      if (body !== null && body !== '' && body !== undefined) problems.push('a body where the standard has none');
      return problems;
    }
    const validate = this.schema(schema);
    if (!validate(body))
      for (const e of validate.errors ?? []) problems.push(`body${e.instancePath}: ${e.message} ${JSON.stringify(e.params)}`);
    return problems;
  }

  /** What is wrong with a notification (the callback of POST /v2/event-subscriptions): headers and body. */
  notification(headers: Record<string, string | string[] | undefined>, body: unknown): string[] {
    const callback = this.#standard.paths['/v2/event-subscriptions'].post.callbacks.event['{$request.body.callbackUrl}'].post as Json;
    const problems: string[] = [];
    for (const p of callback.parameters as Json[]) {
      const value = headers[(p.name as string).toLowerCase()];
      if (value === undefined) {
        if (p.required) problems.push(`header ${p.name} is missing`);
        continue;
      }
      if (!this.schema(p.schema as Json)(value)) problems.push(`header ${p.name}: ${JSON.stringify(value)} does not match its schema`);
    }
    const validate = this.schema(callback.requestBody.content['application/json'].schema as Json);
    if (!validate(body))
      for (const e of validate.errors ?? []) problems.push(`body${e.instancePath}: ${e.message} ${JSON.stringify(e.params)}`);
    return problems;
  }
}

/** Reads a response of a DCSA route and validates it (status, headers, body). */
export async function checkedAnswer(
  validator: DcsaValidator,
  method: string,
  path: string,
  response: Response,
): Promise<{ status: number; body: any; headers: Headers; problems: string[] }> {
  const text = await response.text();
  const body = text === '' ? null : (JSON.parse(text) as unknown);
  return {
    status: response.status,
    body,
    headers: response.headers,
    problems: validator.answer(method, path, response.status, response.headers, body),
  };
}
