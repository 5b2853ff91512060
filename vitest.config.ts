import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    alias: [
      // graphql 16 ships CJS (main) and ESM (module) builds. Node, and so Yoga
      // and Pothos loaded from node_modules, resolve the CJS one; without this
      // alias Vite would hand our sources the ESM one, and `instanceof
      // GraphQLError` would fail across the two copies (the dual package hazard).
      { find: /^graphql$/, replacement: require.resolve('graphql') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Database tests create their own databases; two workers fit the 2-core machine.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
