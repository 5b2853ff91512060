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
  ['service'],
  ['auth'],
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
    ...floorRules,
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '^dist/'] },
    reporterOptions: {
      dot: { collapsePattern: '^(src/[^/]+|db|bench|scripts|test)/' },
    },
  },
};
