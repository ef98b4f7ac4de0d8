// @ts-check
/**
 * The layers of docs/architecture.md as a check: `npm run lint` runs
 * `depcruise lib drivers main client renderer --config .dependency-cruiser.cjs`, and any import
 * that runs up (or sideways, between two folders of one floor), any import loop (type-only imports
 * included) and any import the rules below forbid fails it, naming the rule, the importing file and
 * the imported one. test/scripts/layers.test.ts proves the check bites, on a fixture tree.
 *
 * FLOORS lists the floors from the top down. A module may import its own folder and any floor below
 * its own — never a floor above, and never another folder of its own floor (siblings stay
 * independent, so either can change without the other).
 */

/** One floor: the folders (or single files) on it, from the repository's root. */
const FLOORS = [
  ['main/app'], // the Electron shell
  ['main/cli'], // the `pinbridge` command (the shell runs it for its command-line mode)
  ['main/agent'], // the composition root: Agent.start/stop, PINPAD keeper, operator key, token store
  ['main/doctor', 'main/support'], // the support checks (`pinbridge doctor`, the window's Support); the support bundle (`pinbridge support bundle`)
  ['main/remote-settings'], // signed remote settings: verify, fetch, keep, merge over the local file, follow (docs/remote-settings.md)
  ['main/settings'], // the settings file: every section's schema in one file, read and written
  ['main/updates'], // the staged updates' decisions and the shell-to-agent port of their state (the Electron part is main/app/updates.ts); below the doctor, which reports them
  ['main/pos', 'main/metrics', 'main/telemetry'], // the POS WebSocket API (protocol, server, clients, TLS); Prometheus; telemetry pushed (metrics by remote write, traces and logs by OTLP)
  ['main/pinpad', 'main/receipts'], // the ABECS sale adapter; receipts and print queue
  ['main/pix'], // Pix at the counter without a PINPAD: the QR image for a PINPAD's screen and the window, the watch for a bolepix's payment (over main/api); below the PINPAD adapter and the receipts, which show and print it
  ['main/core', 'main/api', 'main/sandbox'], // payment engine; payments API client; its sandbox
  ['main/contract', 'main/locale'], // payments API schemas and rules; Brazilian formats
  ['main/validation'], // tax ids
  ['main/storage'], // the one SQLite module (above the logger: it may log)
  ['main/log.ts', 'main/audit-log.ts', 'main/integrity.ts', 'main/paths.ts', 'main/version.ts'], // logger; security audit trail; seals of payment files; where the agent keeps its files; version
  ['drivers/abecs', 'drivers/printers', 'drivers/simulator'], // PINPAD driver; printers; simulator
  ['drivers/transports', 'drivers/crypto'], // byte transports; DUKPT
  ['drivers/*.ts'], // the drivers' error base, logger port and card-number masking
  ['lib'], // dependency-free basics: error base, CRC-16, backoff
];

/**
 * Where each npm package may be imported (Signal-Desktop's idea: every package classified where it
 * may run): the folders (or files) of the floors above, by path prefix. A package imported anywhere
 * else, or one not listed here, fails the check. The window (renderer/) and the client package
 * (client/) are listed nowhere: they import no package. (Packages the agent loads with createRequire
 * at run time — the serial bindings, noble, bwip-js — are not arrows this check sees.)
 */
const PACKAGES = {
  '@fastify/swagger': ['main/sandbox/'],
  'better-sqlite3': ['main/storage/'],
  commander: ['main/cli/'],
  electron: ['main/app/'],
  'electron-updater': ['main/app/'],
  fastify: ['main/pos/', 'main/sandbox/'],
  'node-forge': ['main/api/'],
  // omggif: the GIF a PINPAD that takes GIF but not PNG is given (main/pix/gif.ts).
  omggif: ['main/pix/'],
  pdfkit: ['drivers/printers/', 'main/sandbox/'],
  // protobufjs and snappyjs: the remote-write body (main/telemetry/remote-write.ts); protobufjs: the OTLP bodies (otlp-wire.ts).
  protobufjs: ['main/telemetry/'],
  snappyjs: ['main/telemetry/'],
  pino: ['main/log.ts', 'main/pos/', 'main/sandbox/'],
  'pino-pretty': ['main/log.ts'],
  'prom-client': ['main/metrics/', 'main/telemetry/'],
  selfsigned: ['main/pos/'],
  typebox: [
    'main/contract/',
    'main/core/',
    'main/metrics/',
    'main/pinpad/',
    'main/pos/',
    'main/receipts/',
    'main/sandbox/',
    'main/settings/',
    'main/telemetry/',
  ],
  undici: ['main/api/'],
  ws: ['main/doctor/', 'main/pos/'],
};

/**
 * Node's own modules closed to a folder. The core computes and decides: it reaches the network,
 * other processes and modules loaded by name only through its ports (main/core/ports.ts), so none
 * of these; the window is a web page, so none at all.
 */
const NODE_CLOSED = {
  'main/core': [
    'http',
    'https',
    'http2',
    'net',
    'tls',
    'dgram',
    'dns',
    'module',
    'child_process',
    'worker_threads',
    'cluster',
  ],
};

const escape = (/** @type {string} */ text) => text.replace(/[.]/g, '\\.');
/** A floor member as a path pattern: a folder, a file, or the files (not folders) of a folder. */
const pattern = (/** @type {string} */ member) =>
  member.endsWith('/*.ts')
    ? `^${escape(member.slice(0, -'/*.ts'.length))}/[^/]+\\.ts$`
    : member.endsWith('.ts')
      ? `^${escape(member)}$`
      : `^${escape(member)}/`;

/** @type {import('dependency-cruiser').IForbiddenRuleType[]} */
const floorRules = FLOORS.flatMap((floor, index) =>
  floor.flatMap((member) => {
    const above = FLOORS.slice(0, index).flat();
    const siblings = floor.filter((other) => other !== member);
    // The top floor alone may import anything below: nothing to forbid (an empty list would match all).
    if (above.length + siblings.length === 0) return [];
    return {
      name: `layer:${member}`,
      severity: 'error',
      comment:
        `${member} sits on floor ${index + 1} of ${FLOORS.length}: it may import only floors below it. ` +
        `Move what both sides need down to a lower floor (see docs/architecture.md, Layers).`,
      from: { path: pattern(member) },
      to: { path: [...above, ...siblings].map(pattern) },
    };
  }),
);

const packagePath = (/** @type {string} */ name) => `(^|/)node_modules/${escape(name)}/`;
const prefixPath = (/** @type {string} */ prefix) => `^${escape(prefix)}`;

/** @type {import('dependency-cruiser').IForbiddenRuleType[]} */
const packageRules = [
  ...Object.entries(PACKAGES).map(([name, where]) => ({
    name: `package:${name}`,
    severity: /** @type {const} */ ('error'),
    comment:
      `${name} may be imported only in ${where.join(', ')}. Reach it through a module there, ` +
      `or add the folder to PACKAGES in .dependency-cruiser.cjs, saying why it runs there.`,
    from: { path: '^(lib|drivers|main|client|renderer)/', pathNot: where.map(prefixPath) },
    to: { path: packagePath(name) },
  })),
  {
    name: 'package-classified',
    severity: 'error',
    comment:
      'Every npm package the program imports is classified where it may run: add it to PACKAGES in ' +
      '.dependency-cruiser.cjs with the folders that need it.',
    from: { path: '^(lib|drivers|main|client|renderer)/' },
    to: {
      dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-bundled', 'npm-no-pkg', 'npm-unknown'],
      pathNot: Object.keys(PACKAGES).map(packagePath),
    },
  },
  ...Object.entries(NODE_CLOSED).map(([folder, modules]) => ({
    name: `node-closed:${folder}`,
    severity: /** @type {const} */ ('error'),
    comment:
      `${folder} computes and decides: it reaches the network, other processes and modules loaded by name ` +
      'only through its ports (main/core/ports.ts), never node:' +
      modules.join(', node:') +
      '.',
    from: { path: prefixPath(`${folder}/`) },
    to: {
      dependencyTypes: /** @type {import('dependency-cruiser').DependencyType[]} */ (['core']),
      path: `^(${modules.join('|')})$`,
    },
  })),
  {
    name: 'renderer-no-node',
    severity: 'error',
    comment: "renderer/ is a web page: it runs in the browser, where Node's modules do not exist.",
    from: { path: '^renderer/' },
    to: { dependencyTypes: ['core'] },
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...floorRules,
    ...packageRules,
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import loop (type-only imports count): move what both modules need into a third one.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-on-a-floor',
      severity: 'error',
      comment: 'Every module of lib/, drivers/ and main/ sits on a floor: add its folder to FLOORS.',
      from: { path: '^(lib|drivers|main)/', pathNot: FLOORS.flat().map(pattern) },
      to: {},
    },
    {
      name: 'drivers-stay-in-drivers',
      severity: 'error',
      comment: 'drivers/ knows nothing of payments, Electron or the network API: it imports only drivers/ and lib/.',
      from: { path: '^drivers/' },
      to: { dependencyTypes: ['local', 'aliased'], pathNot: '^(drivers|lib)/' },
    },
    {
      name: 'lib-is-dependency-free',
      severity: 'error',
      comment: "lib/ imports nothing but lib/ and Node's own modules.",
      from: { path: '^lib/' },
      to: { dependencyTypesNot: ['core'], pathNot: '^lib/' },
    },
    {
      name: 'core-knows-no-frameworks',
      severity: 'error',
      comment:
        'main/core knows nothing of Electron, WebSockets or HTTP frameworks: it talks to the API through ' +
        'PaymentsPort and to a PINPAD through SaleDevice (main/core/ports.ts).',
      from: { path: '^main/core/' },
      to: { path: '^node_modules/(electron|electron-updater|ws|fastify|@fastify/[^/]+|undici)/' },
    },
    {
      name: 'electron-only-in-the-shell',
      severity: 'error',
      comment: 'Only the thin Electron shell (main/app) needs the Electron runtime; everything else runs headless.',
      from: { pathNot: '^main/app/' },
      to: { path: '^node_modules/(electron|electron-updater)/' },
    },
    {
      name: 'client-stands-alone',
      severity: 'error',
      comment:
        'client/ is a program (an npm package) of its own: it imports nothing of the repository outside client/.',
      from: { path: '^client/' },
      to: { dependencyTypes: ['local', 'aliased'], pathNot: '^client/' },
    },
    {
      name: 'renderer-stands-alone',
      severity: 'error',
      comment:
        "renderer/ is the window's program (a web page): it imports only renderer/ and client/ — and, type-only, " +
        'the POS protocol (main/pos/protocol), erased at build time.',
      from: { path: '^renderer/' },
      to: { dependencyTypes: ['local', 'aliased'], pathNot: '^(renderer|client|main/pos/protocol)/' },
    },
    {
      name: 'renderer-protocol-types-only',
      severity: 'error',
      comment: "The window may name the POS protocol's types, never load its code: import type only.",
      from: { path: '^renderer/' },
      to: { path: '^main/pos/protocol/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'protocol-owns-the-wire',
      severity: 'error',
      comment:
        'main/pos/protocol is the POS wire (client/protocol.ts and docs/pos-asyncapi.json are generated from it): it ' +
        'declares its own schemas and lists, built only on the payments API contract (main/contract), the tax id ' +
        'patterns (main/validation) and lib/. A method schema goes in main/pos/protocol/methods/<feature>.ts and its ' +
        'handler imports it from there, not the reverse; a core value reaches the wire through ' +
        'main/pos/server/wire-adapter.ts, so a rename inside the core never changes the protocol by itself.',
      from: { path: '^main/pos/protocol/' },
      to: { dependencyTypes: ['local', 'aliased'], pathNot: '^(main/pos/protocol|main/contract|main/validation|lib)/' },
    },
    {
      name: 'programs-import-no-programs',
      severity: 'error',
      comment:
        'The window (renderer/) and the client package (client/) are separate programs, and test/ and scripts/ ' +
        'are not shipped: the agent imports none of them.',
      from: { path: '^(lib|drivers|main|client)/' },
      to: { path: '^(renderer|test|scripts)/' },
    },
    {
      name: 'resolvable',
      severity: 'error',
      comment: 'An import the check cannot follow is an arrow it cannot judge.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Type-only imports are arrows too: a loop or an upward arrow of types ties modules as much.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    // The programs the floors describe are lib/, drivers/, main/, client/ and renderer/: the rest
    // (specs, scripts, build output, configuration files) is left out. Cruising `.` rather than naming
    // the folders keeps the command valid whichever of them exist.
    exclude: {
      path: [
        '^(test|scripts|bin|build|demo|docs|release|coverage|bench-results|test-artifacts)/',
        '(^|/)dist/',
        '^[^/]+\\.[cm]?[jt]s$',
      ],
    },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

// For test/scripts/layers.test.ts, which holds docs/architecture.md's table to these floors; not
// enumerable, so not part of the configuration dependency-cruiser validates.
Object.defineProperty(module.exports, 'floors', { value: FLOORS, enumerable: false });
