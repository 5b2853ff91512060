import {
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  parse,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLEnumType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { ALWAYS_CARRIED, NULLS_KEPT_UNDER } from '../http-messages/rest-body.js';

export type JsonSchema = { [keyword: string]: unknown };

/** Extra JSON Schema keywords the GraphQL types cannot say (patterns, formats, consts), by `Type` or `Type.field`. */
export type Annotations = Readonly<Record<string, JsonSchema>>;

const SCALARS: Readonly<Record<string, JsonSchema>> = {
  String: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time' },
};

export function componentRef(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

function withNull(schema: JsonSchema): JsonSchema {
  return typeof schema.type === 'string' ? { ...schema, type: [schema.type, 'null'] } : { anyOf: [schema, { type: 'null' }] };
}

/**
 * JSON Schemas (OpenAPI 3.1 components) of REST bodies, derived from what
 * produces them: the fixed GraphQL documents REST runs, over the GraphQL
 * schema, with REST's rule for absent values (rest-body.ts: an optional
 * field without a value is omitted, except the keys always carried and the
 * date keys of `references`, which are null). Names, descriptions and enum
 * values come from the GraphQL schema, so the document cannot drift from it.
 * Objects do not allow other properties: an undocumented field in a
 * response fails the OpenAPI response test.
 */
export class RestSchemas {
  readonly components: Record<string, JsonSchema> = {};

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly annotations: Annotations,
  ) {}

  /** The body REST serves from `data[field]` of `source` (a fixed REST document). */
  ofDocumentResult(source: string, field: string): JsonSchema {
    const document = parse(source);
    const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
    if (!operation) throw new Error('the REST document has no operation');
    const root = operation.operation === 'mutation' ? this.schema.getMutationType() : this.schema.getQueryType();
    const node = operation.selectionSet.selections.find((s): s is FieldNode => s.kind === Kind.FIELD && s.name.value === field);
    const definition = root?.getFields()[field];
    if (!node || !definition) throw new Error(`the REST document does not select ${field}`);
    return this.#output(definition.type, node.selectionSet, document, false);
  }

  /** The body REST builds in the shape of GraphQL type `name`, every field present or omitted by the same rule. */
  ofType(name: string): JsonSchema {
    const type = this.schema.getType(name);
    if (!isObjectType(type)) throw new Error(`${name} is not an object type`);
    return this.#object(type, undefined, undefined, false);
  }

  #output(
    type: GraphQLOutputType,
    selection: SelectionSetNode | undefined,
    document: DocumentNode | undefined,
    keepNulls: boolean,
  ): JsonSchema {
    const inner = isNonNullType(type) ? type.ofType : type;
    if (isListType(inner)) {
      if (!isNonNullType(inner.ofType)) throw new Error(`lists of nullable items are not described: ${String(inner)}`);
      return { type: 'array', items: this.#output(inner.ofType, selection, document, false) };
    }
    const named = getNamedType(inner);
    if (isScalarType(named)) {
      const scalar = SCALARS[named.name];
      if (!scalar) throw new Error(`scalar ${named.name} has no JSON Schema`);
      return { ...scalar };
    }
    if (isEnumType(named)) return this.#enum(named);
    if (isObjectType(named)) return this.#object(named, selection, document, keepNulls);
    throw new Error(`${named.name}: abstract types are not described (REST selects concrete types)`);
  }

  #enum(type: GraphQLEnumType): JsonSchema {
    const values = type.getValues();
    this.#register(type.name, {
      type: 'string',
      enum: values.map((v) => v.name),
      description: [type.description, '', ...values.map((v) => `- \`${v.name}\`: ${v.description ?? ''}`)].join('\n'),
    });
    return componentRef(type.name);
  }

  #object(
    type: GraphQLObjectType,
    selection: SelectionSetNode | undefined,
    document: DocumentNode | undefined,
    keepNulls: boolean,
  ): JsonSchema {
    const fields = type.getFields();
    const selected = selection
      ? this.#selectedFields(type, selection, document)
      : Object.keys(fields).map((name) => ({ name, node: undefined }));
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const { name, node } of selected) {
      const field = fields[name] as GraphQLField<unknown, unknown>;
      const { schema, present } = this.#property(type.name, field, node, document, keepNulls);
      properties[name] = schema;
      if (present) required.push(name);
    }
    this.#register(type.name, {
      type: 'object',
      ...(type.description ? { description: type.description } : {}),
      properties,
      required,
      additionalProperties: false,
      ...this.annotations[type.name],
    });
    return componentRef(type.name);
  }

  /** A field's schema, and whether REST always carries it. */
  #property(
    parent: string,
    field: GraphQLField<unknown, unknown>,
    node: FieldNode | undefined,
    document: DocumentNode | undefined,
    keepNulls: boolean,
  ): { schema: JsonSchema; present: boolean } {
    const value = {
      ...this.#output(field.type, node?.selectionSet, document, field.name === NULLS_KEPT_UNDER),
      ...this.annotations[`${parent}.${field.name}`],
    };
    const description = field.description ? { description: field.description } : {};
    if (isNonNullType(field.type)) return { schema: { ...value, ...description }, present: true };
    if (keepNulls || ALWAYS_CARRIED.has(field.name)) return { schema: { ...withNull(value), ...description }, present: true };
    return { schema: { ...value, ...description }, present: false };
  }

  /** The fields a selection set picks on `type`, fragments expanded, in order. */
  #selectedFields(type: GraphQLObjectType, selection: SelectionSetNode, document: DocumentNode | undefined) {
    const out: { name: string; node: FieldNode }[] = [];
    const fragments = new Map(
      (document?.definitions ?? [])
        .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
        .map((d) => [d.name.value, d]),
    );
    const walk = (set: SelectionSetNode) => {
      for (const s of set.selections) {
        if (s.kind === Kind.FIELD) {
          if (s.alias) throw new Error(`aliases are not described (${type.name}.${s.name.value})`);
          out.push({ name: s.name.value, node: s });
          continue;
        }
        const fragment = s.kind === Kind.FRAGMENT_SPREAD ? fragments.get(s.name.value) : s;
        if (!fragment || (fragment.typeCondition && fragment.typeCondition.name.value !== type.name)) {
          throw new Error(`fragments on other types than ${type.name} are not described`);
        }
        walk(fragment.selectionSet);
      }
    };
    walk(selection);
    return out;
  }

  /** One component per GraphQL type: REST must serve a type in one shape wherever it appears. */
  #register(name: string, schema: JsonSchema): void {
    const existing = this.components[name];
    if (existing && JSON.stringify(existing) !== JSON.stringify(schema)) {
      throw new Error(`${name} is selected with two different shapes; REST bodies would need two schemas`);
    }
    this.components[name] = schema;
  }
}
