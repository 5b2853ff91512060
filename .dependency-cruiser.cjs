/**
 * The floors of src/ (docs/architecture.md): every import runs down this list, never up, and rooms that share
 * a floor do not import each other. `npm run lint` runs this; `npm run graph` draws the folder graph.
 */
const FLOORS = [
  ['domain'],
  ['config'],
  ['db'],
  ['store'],
  ['ingest'],
  ['observability', 'http-messages'],
  ['errors', 'quotas'],
  ['auth', 'arguments'],
  ['executor'],
  ['push', 'carriers'],
  ['graphql'],
  ['rest'],
  ['openapi'],
  ['http'],
  ['app'],
  ['cli'],
];

/** Where a room lives: src/<room>/..., and the repository's db/ (migrations, the sandbox bundle) beside src/db. */
const pathOf = (room) => (room === 'db' ? '^(src/db|db)/' : `^src/${room}/`);
const roomsAbove = (index) => FLOORS.slice(index + 1).flat();

/**
 * The families of src/store (docs/architecture.md, Store families), one folder per family of tables, on floors of
 * their own inside the store's floor: a family imports only from families below it, never from one beside it.
 * For example push (the outbox and its queues) may read the change log, and the change log never imports push.
 */
const STORE_FLOORS = [
  ['encoding', 'batching'],
  ['events', 'exceptions'],
  ['shipments'],
  ['changes', 'eta'],
  ['push'],
  ['access', 'carriers'],
  ['shipment-writes'],
  ['housekeeping'],
];
const familyPath = (family) => `^src/store/${family}/`;

/** Upward imports that docs/architecture.md names and justifies; anything else fails. */
const ALLOWED_UPWARD = [];

const floorRules = FLOORS.flatMap((rooms, index) =>
  rooms.flatMap((room) => {
    const above = roomsAbove(index);
    const siblings = rooms.filter((r) => r !== room);
    return [
      ...(above.length
        ? [
            {
              name: `floor-${room}`,
              comment: `${room} is on floor ${index}: it may import only from floors below it (${FLOORS.slice(0, index).flat().join(', ') || 'nothing'})`,
              severity: 'error',
              from: { path: pathOf(room) },
              to: { path: above.map(pathOf), pathNot: ALLOWED_UPWARD.filter((a) => a.from.startsWith(room)).map((a) => a.to) },
            },
          ]
        : []),
      ...(siblings.length
        ? [
            {
              name: `room-${room}`,
              comment: `${room} shares floor ${index} with ${siblings.join(', ')}: neither imports the other`,
              severity: 'error',
              from: { path: pathOf(room) },
              to: { path: siblings.map(pathOf) },
            },
          ]
        : []),
    ];
  }),
);

const familyRules = STORE_FLOORS.flatMap((families, index) =>
  families.flatMap((family) => {
    const above = STORE_FLOORS.slice(index + 1).flat();
    const siblings = families.filter((f) => f !== family);
    return [
      ...(above.length
        ? [
            {
              name: `store-family-${family}`,
              comment: `store/${family} is on the store's floor ${index}: it may import only from the families below it (${STORE_FLOORS.slice(0, index).flat().join(', ') || 'none'})`,
              severity: 'error',
              from: { path: familyPath(family) },
              to: { path: above.map(familyPath) },
            },
          ]
        : []),
      ...(siblings.length
        ? [
            {
              name: `store-room-${family}`,
              comment: `store/${family} shares the store's floor ${index} with ${siblings.join(', ')}: neither imports the other`,
              severity: 'error',
              from: { path: familyPath(family) },
              to: { path: siblings.map(familyPath) },
            },
          ]
        : []),
    ];
  }),
);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'an import cycle folds the floors back on themselves',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-test-code-in-the-service',
      comment: 'src/ and db/ ship in the image: they never import tests, the bench or scripts',
      severity: 'error',
      from: { path: '^(src|db)/' },
      to: { path: '^(test|bench|scripts)/' },
    },
    {
      name: 'known-room',
      comment: 'every folder of src/ is a room of a floor in .dependency-cruiser.cjs',
      severity: 'error',
      from: { path: '^src/', pathNot: [...FLOORS.flat().map(pathOf), '^src/[^/]+\\.ts$'] },
      to: {},
    },
    {
      name: 'workers-without-http',
      comment: 'the workers (and `tracking deliver`) are built from the executor alone: nothing they load reaches the HTTP layer',
      severity: 'error',
      from: { path: '^src/(app/workers|cli/push-commands)\\.ts$' },
      to: { path: ['^src/http/', '^src/rest/', '^src/app/create-app\\.ts$'], reachable: true },
    },
    {
      name: 'known-store-family',
      comment: 'every module of src/store lives in the folder of a family of STORE_FLOORS in .dependency-cruiser.cjs',
      severity: 'error',
      from: { path: '^src/store/', pathNot: STORE_FLOORS.flat().map(familyPath) },
      to: {},
    },
    ...floorRules,
    ...familyRules,
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '^dist/'] },
    reporterOptions: {
      dot: { collapsePattern: '^(src/store/[^/]+|src/[^/]+|db|bench|scripts|test)/' },
    },
  },
};
