/**
 * GraphQL Code Generator's client preset (docs/graphql-client.md): typed documents for the operations of
 * src/graphql/operations.ts, from the committed schema.graphql. `npm run client:graphql` writes src/gql/;
 * `npm run build` runs it first, and test/graphql-client.test.ts fails when the committed files are stale.
 */
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['clients/typescript/src/graphql/**/*.ts'],
  ignoreNoDocuments: false,
  silent: true,
  generates: {
    'clients/typescript/src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { DateTime: 'string' },
        // ES modules resolved by Node (NodeNext): relative imports name their file.
        importExtension: '.js',
      },
    },
  },
};

export default config;
