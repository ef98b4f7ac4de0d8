/**
 * Node's HTTP and TLS modules, reached when first used rather than imported (issue 35). An ES
 * import of a built-in module builds its ES facade, which reads every export once: node:http's
 * WebSocket, CloseEvent and MessageEvent getters then load Node's internal fetch (undici, some
 * 750 KB of script) and node:tls's rootCertificates getter parses every bundled root certificate —
 * neither of which the agent uses. node:https and node:tls themselves (OpenSSL's TLS) wait for
 * the first server or client that needs them. Type imports of these modules are free: they are
 * erased. ESLint refuses value imports of them (eslint.config.js).
 */
import type * as Http from 'node:http';
import type * as Https from 'node:https';
import type * as Tls from 'node:tls';

export const nodeHttp = (): typeof Http => process.getBuiltinModule('node:http');
export const nodeHttps = (): typeof Https => process.getBuiltinModule('node:https');
export const nodeTls = (): typeof Tls => process.getBuiltinModule('node:tls');
