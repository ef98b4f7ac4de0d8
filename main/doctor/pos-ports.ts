/**
 * The `pos-ports` check: the loopback ports of the POS API (settings `pos.ports`, else 17301,
 * 17302, 17303). Each one is free, held by a running Pinbridge — found by asking `agent.info` on
 * ws://127.0.0.1:PORT/pos, the public JSON-RPC call that answers `name: "Pinbridge"` — or held by
 * another program. A POS tries the same list in order, so another program on one of them catches
 * the POS's connection (or pushes the agent to a port the POS does not try).
 */
import net from 'node:net';
import { WebSocket } from 'ws';
import { DEFAULT_PORTS, WS_PATH } from '../pos/protocol/index.js';
import {
  bilingual,
  checkResult,
  formatSeconds,
  joinBilingual,
  messageOf,
  worstStatus,
  type Bilingual,
  type CheckResult,
  type CheckStatus,
  type JsonValue,
} from './check.js';

export interface PosPortsCheckOptions {
  /** The ports to check: `--pos-port`, the agent's own, or settings `pos.ports`; DEFAULT_PORTS when undefined. A 0 (any free port) is not checked. */
  readonly ports?: readonly number[];
  /** Where `ports` came from (default "settings"), in the details. */
  readonly portsSource?: 'settings' | 'option' | 'in-use';
  /** Settings `pos.tls` is set: the agent serves wss://. */
  readonly tls?: boolean;
  /** The settings file, named in the fix. */
  readonly settingsPath: string;
  /** Per port: connecting and the agent.info exchange. */
  readonly timeoutMs: number;
  readonly platform?: NodeJS.Platform;
}

export type PortState =
  | { readonly state: 'free' }
  | { readonly state: 'pinbridge'; readonly version: string; readonly mode: string; readonly secure: boolean }
  | { readonly state: 'other'; readonly reason: string }
  | { readonly state: 'unknown'; readonly reason: string };

const HOST = '127.0.0.1';
/** The modes `agent.info` reports, as the window names them. */
const MODES_PT: ReadonlyMap<string, string> = new Map([
  ['training', 'treinamento'],
  ['live', 'produção'],
]);

/** Whether something accepts TCP connections on 127.0.0.1:port. */
function tcpProbe(port: number, timeoutMs: number): Promise<'open' | 'closed' | { error: string }> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: HOST, port });
    const done = (result: 'open' | 'closed' | { error: string }): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done({ error: `no TCP answer within ${formatSeconds(timeoutMs)}` }), timeoutMs);
    socket.once('connect', () => done('open'));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done(error.code === 'ECONNREFUSED' ? 'closed' : { error: error.message }),
    );
  });
}

interface AgentInfo {
  readonly name?: unknown;
  readonly version?: unknown;
  readonly mode?: unknown;
}

/** A field of someone else's answer, as text when it is one. */
function textOf(value: unknown, otherwise: string): string {
  return typeof value === 'string' ? value : otherwise;
}

/** Asks `agent.info` over ws:// (or wss://); resolves with the result or rejects with why not. */
function askAgentInfo(port: number, secure: boolean, timeoutMs: number): Promise<AgentInfo> {
  return new Promise((resolve, reject) => {
    // A certificate for localhost made by `pinbridge pos cert` may not be trusted by Node: the
    // question is only "who is this", asked on loopback, so the certificate is not checked.
    const socket = new WebSocket(`${secure ? 'wss' : 'ws'}://${HOST}:${port}${WS_PATH}`, {
      handshakeTimeout: timeoutMs,
      rejectUnauthorized: false,
    });
    let settled = false;
    const finish = (error: Error | undefined, info?: AgentInfo): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.terminate();
      if (error) reject(error);
      else resolve(info ?? {});
    };
    const timer = setTimeout(
      () => finish(new Error(`no answer to agent.info within ${formatSeconds(timeoutMs)}`)),
      timeoutMs,
    );
    socket.once('open', () => socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'agent.info' })));
    socket.on('message', (data: Buffer) => {
      let message: { id?: unknown; result?: AgentInfo; error?: { message?: unknown } };
      try {
        message = JSON.parse(data.toString('utf8')) as typeof message;
      } catch {
        finish(new Error('it answered something that is not JSON-RPC'));
        return;
      }
      if (message.id !== 1) return;
      if (message.result !== undefined) finish(undefined, message.result);
      else finish(new Error(`it answered agent.info with an error: ${textOf(message.error?.message, 'unknown')}`));
    });
    socket.once('unexpected-response', (_request, response) =>
      finish(new Error(`it answered the WebSocket upgrade with HTTP ${response.statusCode}`)),
    );
    socket.once('error', (error) => finish(error));
    socket.once('close', () => finish(new Error('it closed the WebSocket without answering')));
  });
}

/** Who is on 127.0.0.1:port. */
export async function probePosPort(port: number, options: { timeoutMs: number; tls?: boolean }): Promise<PortState> {
  // One time limit per port, for the TCP probe and the agent.info exchange together.
  const until = performance.now() + options.timeoutMs;
  const remaining = (): number => Math.max(1, Math.round(until - performance.now()));
  const tcp = await tcpProbe(port, options.timeoutMs);
  if (tcp === 'closed') return { state: 'free' };
  if (tcp !== 'open') return { state: 'unknown', reason: tcp.error };
  // The scheme the settings say first; an agent started with other settings may use the other.
  const schemes = options.tls ? [true, false] : [false];
  let reason = '';
  for (const secure of schemes) {
    try {
      const info = await askAgentInfo(port, secure, remaining());
      if (info.name === 'Pinbridge')
        return { state: 'pinbridge', version: textOf(info.version, '?'), mode: textOf(info.mode, '?'), secure };
      return {
        state: 'other',
        reason: `it answered agent.info as ${JSON.stringify(info.name ?? null)}, not Pinbridge`,
      };
    } catch (error) {
      reason = messageOf(error);
    }
  }
  return { state: 'other', reason: `it does not speak the Pinbridge POS API (${reason})` };
}

function whoHoldsCommand(port: number, platform: NodeJS.Platform): string {
  if (platform === 'win32') return `netstat -ano | findstr :${port}`;
  if (platform === 'darwin') return `lsof -nP -iTCP:${port} -sTCP:LISTEN`;
  return `sudo ss -ltnp 'sport = :${port}'`;
}

export async function checkPosPorts(options: PosPortsCheckOptions): Promise<CheckResult> {
  const ports = (options.ports ?? DEFAULT_PORTS).filter((port) => port !== 0);
  const source = options.ports === undefined ? 'default' : (options.portsSource ?? 'settings');
  if (ports.length === 0) {
    return checkResult({
      id: 'pos-ports',
      status: 'skip',
      summary: bilingual(
        'Port 0: the POS API takes any free port when it starts, so there is none to check',
        'Porta 0: a API do PDV usa qualquer porta livre ao iniciar, então não há porta a verificar',
      ),
      details: { ports: [], source },
    });
  }
  const platform = options.platform ?? process.platform;
  const states = await Promise.all(ports.map(async (port) => ({ port, ...(await probePosPort(port, options)) })));
  const portStatus = (state: PortState): CheckStatus =>
    state.state === 'other' ? 'fail' : state.state === 'unknown' ? 'warn' : 'ok';
  const status = worstStatus(states.map(portStatus));
  const describe = (p: (typeof states)[number]): Bilingual => {
    switch (p.state) {
      case 'free':
        return bilingual(`${p.port} free`, `${p.port} livre`);
      case 'pinbridge':
        return bilingual(
          `${p.port} Pinbridge ${p.version} (${p.mode})`,
          `${p.port} Pinbridge ${p.version} (${MODES_PT.get(p.mode) ?? p.mode})`,
        );
      case 'other':
        return bilingual(`${p.port} used by another program`, `${p.port} usada por outro programa`);
      case 'unknown':
        return bilingual(`${p.port} unknown (${p.reason})`, `${p.port} em situação desconhecida (${p.reason})`);
    }
  };
  const running = states.find((p) => p.state === 'pinbridge');
  const firstFree = states.find((p) => p.state === 'free');
  const lead =
    status === 'fail'
      ? bilingual(
          'A POS API port is taken by another program',
          'Uma porta da API do PDV está ocupada por outro programa',
        )
      : running !== undefined
        ? bilingual(
            `Pinbridge is running on port ${running.port}`,
            `O Pinbridge está em execução na porta ${running.port}`,
          )
        : firstFree !== undefined
          ? bilingual(
              `\`pinbridge start\` will listen on port ${firstFree.port}`,
              `O \`pinbridge start\` vai escutar na porta ${firstFree.port}`,
            )
          : bilingual('No POS API port is free', 'Nenhuma porta da API do PDV está livre');
  const others = states.filter((p) => p.state === 'other');
  const suggested = others.length > 0 ? await suggestFreePorts(ports, options.timeoutMs) : [];
  let fix: Bilingual | undefined;
  if (others.length > 0) {
    const taken = others.map((p) => p.port).join(', ');
    const who = `\`${whoHoldsCommand(others[0]!.port, platform)}\``;
    const setting = `\`"pos": { "ports": [${suggested.join(', ')}] }\``;
    fix = bilingual(
      `Find the program on port ${taken} with ${who} and stop it, or move Pinbridge to free ports with ${setting} (setting \`pos.ports\`) in ${options.settingsPath} and give the POS the same ports.`,
      `Descubra o programa ${others.length === 1 ? 'na porta' : 'nas portas'} ${taken} com ${who} e feche-o, ou mude o Pinbridge para portas livres com ${setting} (configuração \`pos.ports\`) em ${options.settingsPath} e informe as mesmas portas ao PDV.`,
    );
  } else if (status === 'warn') {
    const who = `\`${whoHoldsCommand(states.find((p) => p.state === 'unknown')!.port, platform)}\``;
    fix = bilingual(
      `Run ${who} to see what holds the port, and check that no firewall blocks connections to ${HOST}.`,
      `Execute ${who} para ver o que ocupa a porta e verifique se nenhum firewall bloqueia conexões para ${HOST}.`,
    );
  }
  const json: JsonValue = states.map((p) => {
    switch (p.state) {
      case 'free':
        return { port: p.port, state: p.state };
      case 'pinbridge':
        return { port: p.port, state: p.state, version: p.version, mode: p.mode, secure: p.secure };
      case 'other':
      case 'unknown':
        return { port: p.port, state: p.state, reason: p.reason };
    }
  });
  const found = joinBilingual(states.map(describe), ', ');
  return checkResult({
    id: 'pos-ports',
    status,
    summary: bilingual(`${lead.en}: ${found.en}`, `${lead.pt}: ${found.pt}`),
    details: { ports: json, source },
    fix,
  });
}

/** Three ports after the configured ones that nothing listens on now, for the fix's example. */
async function suggestFreePorts(ports: readonly number[], timeoutMs: number): Promise<number[]> {
  const free: number[] = [];
  const start = Math.max(...ports) + 10 <= 65_000 ? Math.max(...ports) + 10 : 17_311;
  // Loopback refuses at once, so probing a handful costs nothing.
  for (let port = start; port < start + 30 && free.length < 3; port++) {
    if (ports.includes(port)) continue;
    if ((await tcpProbe(port, timeoutMs)) === 'closed') free.push(port);
  }
  return free;
}
