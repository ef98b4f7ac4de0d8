/**
 * Every JSON example of docs/pos-api.md, run against a real agent: the guide is what the agent
 * does, or this spec fails naming the example's line and what differs.
 *
 * Each fenced ```json block says in its info string what it is:
 *
 * - `json request`: a JSON-RPC request. It is sent, on a connection of its own that paired and
 *   said hello, to an agent started for its section. When the next example of the section is a
 *   `json response` (the whole reply) or a `json result` (the reply's `result`), the answer must
 *   match it; otherwise it must be a result, not an error.
 * - `json frames`: a conversation on one WebSocket, a frame a line: `→` what the POS sends, in
 *   order; `←` what the agent sends, checked in order — a reply (it has an `id`) when it arrives,
 *   a notification (no `id`) among those received since the previous `←` notification matched
 *   (others may come between: the example may be abridged). `json frames` goes on on the
 *   connection of the section's previous frames (a new one for the first), `json frames new`
 *   opens a new connection, and `json frames new hello` opens one that says `session.hello` with
 *   the token paired earlier in the section (the hello is not shown). A `session.confirmPairing`
 *   whose reply in the example is a result sends the code the agent showed the cashier.
 * - `json ready-line`: the line `pinbridge start --training` prints when ready.
 * - `json settings`: a settings file (or part of one) the agent accepts.
 *
 * What "matches" means is json-example.ts's rule: fixed values (names, statuses, codes, messages,
 * counts) equal, the same members unless `"…"` stands for members left out, and generated values
 * (ids, tokens, times, NSU, authorization codes, the version) in the same format. Every real
 * answer and notification also passes its schema in the protocol.
 *
 * Each section (the heading above the examples) runs on an agent of its own: the POS rig (the
 * real POS server, engine, journal, sandbox and a simulated PINPAD whose customer presents a Visa
 * credit card) under the confirmation policy "pos", which the examples show.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { schemaViolations } from '../../main/contract/index.js';
import { parseSettings } from '../../main/settings/settings-file.js';
import { ErrorData, EVENTS, METHODS, type EventName, type MethodName } from '../../main/pos/protocol/index.js';
import { PACKAGE_ROOT } from '../../main/version.js';
import { serve, stopServers } from '../helpers/cli.js';
import { openSocket, posRig, type PosRig, type RpcMessage } from '../main/pos/pos-rig.js';
import { matchExample, substituteDeep, type Learned } from './json-example.js';
import { fencedBlocks, where, type FencedBlock } from './markdown.js';

const FILE = 'docs/pos-api.md';
const GUIDE = readFileSync(join(PACKAGE_ROOT, FILE), 'utf8');
const EXAMPLES = fencedBlocks(GUIDE).filter((block) => block.language === 'json');
const KINDS = ['request', 'response', 'result', 'frames', 'ready-line', 'settings'] as const;
const RUN_ON_AGENT = new Set<string>(['request', 'response', 'result', 'frames']);
/** What `/home/you` in the examples stands for. */
const EXAMPLE_HOME = '/home/you';

interface Frame {
  readonly direction: '→' | '←';
  readonly message: RpcMessage & { readonly params?: Record<string, unknown> };
}

function framesOf(block: FencedBlock): Frame[] {
  return block.body
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const direction = line.slice(0, 1);
      if ((direction !== '→' && direction !== '←') || line[1] !== ' ')
        throw new Error(`${where(FILE, block)}: a frame line starts with "→ " or "← ": ${line}`);
      return { direction, message: JSON.parse(line.slice(2)) as Frame['message'] };
    });
}

/** One WebSocket to the agent, every message it received kept in order. */
class Connection {
  readonly messages: RpcMessage[] = [];
  readonly #socket: WebSocket;

  constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.on('message', (data) => this.messages.push(JSON.parse((data as Buffer).toString('utf8')) as RpcMessage));
  }

  static async open(pos: PosRig): Promise<Connection> {
    return new Connection(await openSocket(pos.server.url));
  }

  send(frame: unknown): void {
    this.#socket.send(JSON.stringify(frame));
  }

  /** The reply with this id, once it arrives. */
  async reply(id: string | number | null, what: string, timeoutMs = 60_000): Promise<RpcMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find((message) => message.method === undefined && message.id === id);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`${what}: no reply with id ${JSON.stringify(id)} in ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  close(): void {
    this.#socket.terminate();
  }
}

/** The method's result or error data against the protocol's schemas. */
function schemaProblems(method: string, answer: RpcMessage): unknown[] {
  if (answer.error) return schemaViolations(ErrorData, answer.error.data);
  return schemaViolations(METHODS[method as MethodName].result, answer.result);
}

/** The examples of one section, run in order on one agent. */
class SectionRun {
  readonly learned: Learned = new Map([[EXAMPLE_HOME, '/nonexistent-home']]);
  readonly #pos: PosRig;
  readonly #connections: Connection[] = [];
  #frames: Connection | undefined;
  #session: Connection | undefined;
  /** The real token of the last pairing in this section. */
  #token: string | undefined;
  #lastRequest: { method: string; answer: RpcMessage; block: FencedBlock } | undefined;

  constructor(pos: PosRig) {
    this.#pos = pos;
  }

  close(): void {
    for (const connection of this.#connections) connection.close();
  }

  async run(blocks: readonly FencedBlock[]): Promise<void> {
    for (const [index, block] of blocks.entries()) {
      const kind = block.words[0];
      if (kind === 'frames') await this.#runFrames(block);
      else if (kind === 'request') await this.#runRequest(block, blocks[index + 1]);
      else if (kind === 'response' || kind === 'result') this.#checkReply(block, kind);
    }
  }

  #expectMatch(example: unknown, real: unknown, what: string): void {
    const match = matchExample(example, real, this.learned);
    expect(match.problems, what).toEqual([]);
    for (const [shown, sent] of match.learned) this.learned.set(shown, sent);
  }

  async #open(): Promise<Connection> {
    const connection = await Connection.open(this.#pos);
    this.#connections.push(connection);
    return connection;
  }

  /** A new connection that said hello with this section's token (pairing first when it has none). */
  async #loggedIn(): Promise<Connection> {
    const connection = await this.#open();
    if (this.#token === undefined) {
      connection.send({
        jsonrpc: '2.0',
        id: 'pair',
        method: 'session.pair',
        params: { name: 'Caixa da documentação' },
      });
      const started = (await connection.reply('pair', 'pairing')).result as { pairing_id: string };
      const code = this.#pos.announced.find((a) => a.pairingId === started.pairing_id)!.code;
      connection.send({
        jsonrpc: '2.0',
        id: 'confirm',
        method: 'session.confirmPairing',
        params: { pairing_id: started.pairing_id, code },
      });
      this.#token = ((await connection.reply('confirm', 'pairing')).result as { token: string }).token;
    }
    connection.send({ jsonrpc: '2.0', id: 'hello', method: 'session.hello', params: { token: this.#token } });
    expect((await connection.reply('hello', 'hello')).error).toBeUndefined();
    return connection;
  }

  async #runRequest(block: FencedBlock, next: FencedBlock | undefined): Promise<void> {
    const what = where(FILE, block);
    const request = JSON.parse(block.body) as RpcMessage & { method: string };
    expect(request, what).toMatchObject({ jsonrpc: '2.0', method: expect.any(String) as string });
    this.#session ??= await this.#loggedIn();
    this.#session.send(substituteDeep(request, this.learned));
    const answer = await this.#session.reply(request.id ?? null, what);
    expect(schemaProblems(request.method, answer), what).toEqual([]);
    const answered = next?.words[0] === 'response' || next?.words[0] === 'result';
    if (!answered) expect(answer.error, `${what}: answered with an error`).toBeUndefined();
    this.#lastRequest = { method: request.method, answer, block };
  }

  #checkReply(block: FencedBlock, kind: 'response' | 'result'): void {
    const what = where(FILE, block);
    const last = this.#lastRequest;
    if (last === undefined) throw new Error(`${what}: a ${kind} example needs a request example before it`);
    this.#lastRequest = undefined;
    const example = JSON.parse(block.body) as unknown;
    if (kind === 'result') {
      expect(last.answer.error, `${what}: the request answered an error`).toBeUndefined();
      this.#expectMatch(example, last.answer.result, what);
    } else {
      this.#expectMatch(example, last.answer, what);
    }
  }

  async #runFrames(block: FencedBlock): Promise<void> {
    const what = where(FILE, block);
    const modifiers = block.words.slice(1);
    if (modifiers[0] === 'new') this.#frames = modifiers[1] === 'hello' ? await this.#loggedIn() : await this.#open();
    else this.#frames ??= await this.#open();
    const connection = this.#frames;
    const frames = framesOf(block);
    const methods = new Map<string | number | null, string>();
    let cursor = 0;
    for (const [index, { direction, message }] of frames.entries()) {
      const line = `${what}, frame ${index + 1}`;
      if (direction === '→') {
        const sent = substituteDeep(message, this.learned) as Frame['message'];
        methods.set(sent.id ?? null, sent.method!);
        if (sent.method === 'session.confirmPairing') {
          const reply = frames.find((frame) => frame.direction === '←' && frame.message.id === sent.id);
          // The example's right code is the one the agent showed; a wrong one is sent as written.
          if (reply?.message.result !== undefined) {
            const pairingId = sent.params!.pairing_id;
            const shown = this.#pos.announced.find((a) => a.pairingId === pairingId);
            expect(shown, `${line}: no pairing code shown for ${String(pairingId)}`).toBeDefined();
            sent.params!.code = shown!.code;
          }
        }
        connection.send(sent);
      } else if (message.id !== undefined) {
        const answer = await connection.reply(message.id, line);
        const method = methods.get(message.id);
        expect(method, `${line}: a reply to no request sent before it`).toBeDefined();
        expect(schemaProblems(method!, answer), line).toEqual([]);
        this.#expectMatch(message, answer, line);
        if (method === 'session.confirmPairing' && answer.result !== undefined)
          this.#token = (answer.result as { token: string }).token;
      } else {
        cursor = await this.#notification(connection, message, cursor, line);
      }
    }
  }

  /** Waits for a notification matching the example after `cursor`; the index after it. */
  async #notification(connection: Connection, example: RpcMessage, cursor: number, line: string): Promise<number> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const received = connection.messages.slice(cursor);
      for (const [offset, message] of received.entries()) {
        if (message.method !== example.method) continue;
        const match = matchExample(example, message, this.learned);
        if (match.problems.length > 0) continue;
        expect(schemaViolations(EVENTS[message.method as EventName].payload, message.params), line).toEqual([]);
        for (const [shown, sent] of match.learned) this.learned.set(shown, sent);
        return cursor + offset + 1;
      }
      if (Date.now() > deadline) {
        // The closest one says what differs.
        const candidates = received.filter((message) => message.method === example.method);
        const problems = candidates.map((message) => matchExample(example, message, this.learned).problems);
        throw new Error(
          `${line}: no ${String(example.method)} notification as shown; received ${candidates.length}:\n` +
            problems.map((list) => list.join('; ')).join('\n'),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** The sections whose examples talk to an agent, with their examples in order. */
function sectionsOnAgent(): [string, FencedBlock[]][] {
  const sections = new Map<string, FencedBlock[]>();
  for (const block of EXAMPLES) {
    if (!RUN_ON_AGENT.has(block.words[0] ?? '')) continue;
    sections.set(block.section, [...(sections.get(block.section) ?? []), block]);
  }
  return [...sections];
}

afterEach(async () => {
  await stopServers();
});

describe(`the examples of ${FILE}`, () => {
  it('in JSON each say what they are: request, response, result, frames, ready-line or settings — and are JSON', () => {
    expect(EXAMPLES.length).toBeGreaterThan(10);
    for (const block of EXAMPLES) {
      expect(KINDS as readonly string[], where(FILE, block)).toContain(block.words[0]);
      if (block.words[0] === 'frames') expect(framesOf(block).length, where(FILE, block)).toBeGreaterThan(0);
      else expect(() => JSON.parse(block.body) as unknown, where(FILE, block)).not.toThrow();
    }
  });

  it('say in words the attempts a pairing code allows that the WRONG_CODE example counts down from', () => {
    const wrong = EXAMPLES.flatMap((block) => (block.words[0] === 'frames' ? framesOf(block) : [])).find(
      (frame) => frame.message.error?.data.code === 'WRONG_CODE',
    );
    // The first wrong code leaves all the attempts but one.
    const attempts = Number(wrong!.message.error!.data.attempts_left) + 1;
    const prose = GUIDE.replace(/\s+/g, ' ');
    expect(prose).toContain(`allows **${attempts} attempts**`);
    expect(prose).toContain(`A code dies after 2 minutes or ${attempts} wrong attempts`);
  });

  it('leave no JavaScript example unrun: each is run by the spec that names its section', () => {
    const sections = fencedBlocks(GUIDE)
      .filter((block) => block.language === 'js')
      .map((block) => block.section);
    expect(sections).toEqual([
      'Browsers: Chrome Local Network Access, mixed content, wss', // type-checked: test/client/package.test.ts
      'Typed client in a web POS', // run in Chromium: test/docs/browser-examples.test.ts
      'Typed client in Node (a desktop POS or a back-office script)', // run in Node: test/client/package.test.ts
    ]);
  });

  it('show the ready line `pinbridge start --training` prints', async () => {
    const home = mkdtempSync(join(tmpdir(), 'pinbridge-docs-'));
    const agent = await serve(['start', '--training', '--pos-port', '0'], { HOME: home });
    const examples = EXAMPLES.filter((block) => block.words[0] === 'ready-line');
    expect(examples).toHaveLength(1);
    for (const block of examples) {
      const match = matchExample(JSON.parse(block.body), agent.ready, new Map([[EXAMPLE_HOME, home]]));
      expect(match.problems, where(FILE, block)).toEqual([]);
    }
  });

  it('show settings the agent accepts', () => {
    const examples = EXAMPLES.filter((block) => block.words[0] === 'settings');
    expect(examples.length).toBeGreaterThan(0);
    for (const block of examples)
      expect(() => parseSettings(JSON.parse(block.body), FILE), where(FILE, block)).not.toThrow();
  });

  for (const [section, blocks] of sectionsOnAgent()) {
    it(`"${section}": its JSON examples, sent to a real agent, are answered as shown`, async () => {
      const pos = await posRig({ config: { confirmation: 'pos' } });
      const run = new SectionRun(pos);
      try {
        await run.run(blocks);
      } finally {
        run.close();
        await pos.close();
      }
    }, 90_000);
  }
});
