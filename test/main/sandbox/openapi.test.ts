/**
 * The OpenAPI document is generated from the same schemas the routes validate with; the copy in
 * docs/ is what a POS developer reads, so it must be the generated one.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TERMINAL_CHANNEL_VERSION } from '../../../main/contract/index.js';
import { terminalChannelDocument } from '../../../main/sandbox/openapi.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ openapi: true });
});
afterAll(() => sandbox.close());

describe('a sandbox started without its document', () => {
  it('serves the API and says, when asked for the document, how to start it with one', async () => {
    const bare = await startSandbox();
    try {
      const response = await fetch(`${bare.url}/v1/marketplaces/${bare.marketplaceId}/buyers/${'0'.repeat(32)}`, {
        headers: { authorization: `Bearer ${bare.token}` },
      });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ status: 404 });
      expect(() => bare.openapi()).toThrow('this sandbox was started without its OpenAPI document (openapi: true)');
    } finally {
      await bare.close();
    }
  });
});

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: unknown[];
  requestBody?: unknown;
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

const METHODS = ['get', 'post', 'patch', 'put', 'delete'] as const;

function operations(document: Record<string, unknown>): Array<[string, string, Operation]> {
  const paths = document.paths as Record<string, Record<string, Operation>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method): [string, string, Operation] => [
      method,
      path,
      item[method]!,
    ]),
  );
}

describe('the sandbox OpenAPI document', () => {
  it('covers every endpoint of the contract, the terminal channel, webhooks and the sandbox helpers', () => {
    const listed = operations(sandbox.openapi()).map(([method, path]) => `${method.toUpperCase()} ${path}`);
    const m = '/v1/marketplaces/{marketplace_id}';
    expect(listed).toEqual(
      expect.arrayContaining([
        `GET ${m}/buyers/{buyer_id}`,
        `PATCH ${m}/buyers/{buyer_id}`,
        `DELETE ${m}/buyers/{buyer_id}`,
        `POST ${m}/buyers`,
        `GET ${m}/buyers/search`,
        `GET ${m}/bank_accounts/{bank_account_id}`,
        `POST ${m}/bank_accounts`,
        `DELETE ${m}/bank_accounts/{bank_account_id}`,
        `GET ${m}/sellers/{seller_id}/bank_accounts`,
        `POST ${m}/transactions`,
        `GET ${m}/transactions`,
        `GET ${m}/transactions/{transaction_id}`,
        `POST ${m}/transactions/{transaction_id}/authorization`,
        `POST ${m}/transactions/{transaction_id}/completion`,
        `POST ${m}/transactions/{transaction_id}/reversal`,
        `POST ${m}/transactions/{transaction_id}/void`,
        `GET ${m}/terminals/{terminal}/pending_transactions`,
        `GET ${m}/terminals/{terminal}/emv_tables`,
        'PUT /v1/sandbox/marketplaces/{marketplace_id}/emv_tables',
        'DELETE /v1/sandbox/marketplaces/{marketplace_id}/emv_tables',
        'POST /v1/cancellation/marketplaces/{marketplace_id}/transactions/{transaction_id}',
        `POST ${m}/webhooks`,
        `GET ${m}/webhooks`,
        'POST /v1/sandbox/tokens',
        'GET /boletos/{transaction_id}.pdf',
      ]),
    );
  });

  it('gives every operation a summary, a tag and a schema for its successful answer', () => {
    for (const [method, path, operation] of operations(sandbox.openapi())) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(operation.summary, where).toBeTruthy();
      expect(operation.tags?.length, where).toBeGreaterThan(0);
      const success = Object.entries(operation.responses ?? {}).find(([status]) => /^2/.test(status));
      expect(success, where).toBeDefined();
    }
  });

  it('names every operation with a stable, unique camelCase operationId (renaming one breaks generated clients)', () => {
    const ids = Object.fromEntries(
      operations(sandbox.openapi()).map(([method, path, operation]) => [
        `${method.toUpperCase()} ${path}`,
        operation.operationId,
      ]),
    );
    const m = '/v1/marketplaces/{marketplace_id}';
    expect(ids).toEqual({
      [`POST ${m}/buyers`]: 'createBuyer',
      [`GET ${m}/buyers/search`]: 'searchBuyer',
      [`GET ${m}/buyers/{buyer_id}`]: 'getBuyer',
      [`PATCH ${m}/buyers/{buyer_id}`]: 'updateBuyer',
      [`DELETE ${m}/buyers/{buyer_id}`]: 'deleteBuyer',
      [`GET ${m}/bank_accounts/{bank_account_id}`]: 'getBankAccount',
      [`DELETE ${m}/bank_accounts/{bank_account_id}`]: 'deleteBankAccount',
      [`GET ${m}/sellers/{seller_id}/bank_accounts`]: 'listSellerBankAccounts',
      [`POST ${m}/bank_accounts`]: 'createBankAccount',
      [`POST ${m}/transactions`]: 'createTransaction',
      [`GET ${m}/transactions`]: 'listTransactions',
      [`GET ${m}/transactions/{transaction_id}`]: 'getTransaction',
      [`GET ${m}/sellers/{seller_id}/transactions`]: 'listSellerTransactions',
      [`GET ${m}/terminals/{terminal}/pending_transactions`]: 'listPendingTerminalTransactions',
      [`GET ${m}/terminals/{terminal}/emv_tables`]: 'getTerminalEmvTables',
      [`POST ${m}/transactions/{transaction_id}/authorization`]: 'authorizeTerminalTransaction',
      ['POST /v2/marketplaces/{marketplace_id}/transactions/{transaction_id}/authorization']:
        'authorizeTerminalTransactionV2',
      [`POST ${m}/transactions/{transaction_id}/completion`]: 'completeTerminalTransaction',
      [`POST ${m}/transactions/{transaction_id}/reversal`]: 'reverseTerminalTransaction',
      [`POST ${m}/transactions/{transaction_id}/void`]: 'voidTransaction',
      [`POST ${m}/webhooks`]: 'createWebhook',
      [`GET ${m}/webhooks`]: 'listWebhooks',
      [`GET ${m}/webhooks/{webhook_id}`]: 'getWebhook',
      [`DELETE ${m}/webhooks/{webhook_id}`]: 'deleteWebhook',
      [`GET ${m}/webhooks/{webhook_id}/deliveries`]: 'listWebhookDeliveries',
      [`POST ${m}/webhooks/{webhook_id}/deliveries/{delivery_id}/retry`]: 'retryWebhookDelivery',
      ['POST /v1/sandbox/marketplaces/{marketplace_id}/transactions/{transaction_id}/pay']: 'sandboxPayBoleto',
      ['POST /v1/sandbox/marketplaces/{marketplace_id}/transactions/{transaction_id}/tap_to_pay']: 'sandboxTapToPay',
      ['POST /v1/sandbox/tokens']: 'createSandboxToken',
      ['POST /v1/sandbox/marketplaces']: 'createSandboxMarketplace',
      ['PUT /v1/sandbox/marketplaces/{marketplace_id}/emv_tables']: 'replaceSandboxEmvTables',
      ['DELETE /v1/sandbox/marketplaces/{marketplace_id}/emv_tables']: 'deleteSandboxEmvTables',
      ['GET /boletos/{transaction_id}.pdf']: 'getBoletoPdf',
      ['GET /pix/{transaction_id}.png']: 'getPixQrCode',
      ['POST /v1/cancellation/marketplaces/{marketplace_id}/transactions/{transaction_id}']: 'cancelBoleto',
    });
    const values = Object.values(ids) as string[];
    expect(new Set(values).size).toBe(values.length);
    for (const id of values) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
  });

  it("says where it is served (a server template of the ready line's url) and under what license", () => {
    const document = sandbox.openapi() as {
      servers?: Array<{ url: string; variables?: Record<string, { default: string }> }>;
      info: { license?: { name: string } };
    };
    expect(document.servers).toHaveLength(1);
    const [server] = document.servers!;
    const url = server!.url.replace(/\{(\w+)\}/g, (_all, name: string) => server!.variables![name]!.default);
    expect(url).toBe('http://127.0.0.1:8080');
    // The address the running sandbox printed is an instance of the template.
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(document.info.license?.name).toMatch(/UNLICENSED/);
  });

  it("documents each family's 401 in its own error shape: shape A with type unauthorized, shape B for bank accounts", () => {
    const ref = (operation: Operation, status: string): unknown =>
      (operation.responses?.[status]?.content?.['application/json']?.schema as { $ref?: string } | undefined)?.$ref;
    for (const [method, path, operation] of operations(sandbox.openapi())) {
      if (Array.isArray(operation.security) && operation.security.length === 0) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const bankAccounts = operation.tags?.includes('bank accounts') === true;
      expect(ref(operation, '401'), where).toBe(
        bankAccounts ? '#/components/schemas/ErrorB' : '#/components/schemas/ErrorAUnauthorized',
      );
      expect(ref(operation, '403'), where).toBe(
        bankAccounts ? '#/components/schemas/ErrorB' : '#/components/schemas/ErrorA',
      );
      for (const status of ['400', '404', '409']) {
        if (operation.responses?.[status] === undefined) continue;
        expect(ref(operation, status), `${where} ${status}`).toBe(
          bankAccounts ? '#/components/schemas/ErrorB' : '#/components/schemas/ErrorA',
        );
      }
    }
  });

  it('gives every schema a shape: no empty schema that matches anything, billing_instructions spelled out', () => {
    const document = sandbox.openapi() as {
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    const empty: string[] = [];
    const visit = (node: unknown, where: string, isSchema: boolean): void => {
      if (Array.isArray(node)) return node.forEach((item, i) => visit(item, `${where}/${i}`, isSchema));
      if (node === null || typeof node !== 'object') return;
      const keys = Object.keys(node).filter((key) => key !== 'description' && key !== 'title');
      if (isSchema && keys.length === 0) empty.push(where);
      for (const [key, value] of Object.entries(node)) {
        // Children of these keywords are schemas; `properties`' children are, the map itself is not.
        const childIsSchema =
          ['schema', 'items', 'additionalProperties', 'not', 'anyOf', 'oneOf', 'allOf'].includes(key) ||
          (where.endsWith('/properties') && isSchema === false);
        visit(value, `${where}/${key}`, key === 'properties' ? false : childIsSchema && typeof value === 'object');
      }
    };
    for (const [name, schema] of Object.entries(document.components.schemas))
      visit(schema, `#/components/schemas/${name}`, true);
    visit(document, '#', false);
    expect(empty).toEqual([]);
    expect(JSON.stringify(document)).not.toMatch(/"additionalProperties":\{\}/);

    const billing = document.components.schemas.BoletoDetails!.properties!.billing_instructions;
    expect(billing).toEqual({ anyOf: [{ $ref: '#/components/schemas/BillingInstructionsRecord' }, { type: 'null' }] });
    expect(Object.keys(document.components.schemas.BillingInstructionsRecord!.properties!)).toEqual([
      'late_fee',
      'interest',
      'discount',
    ]);
  });

  it('requires the bearer token everywhere but on the token helper and the public documents', () => {
    const document = sandbox.openapi() as { security?: unknown[] };
    expect(document.security).toEqual([{ bearer: [] }]);
    const open = operations(document)
      .filter(([, , operation]) => Array.isArray(operation.security) && operation.security.length === 0)
      .map(([method, path]) => `${method.toUpperCase()} ${path}`)
      .sort();
    expect(open).toEqual(
      [
        'GET /boletos/{transaction_id}.pdf',
        'GET /pix/{transaction_id}.png',
        'POST /v1/sandbox/marketplaces',
        'POST /v1/sandbox/tokens',
      ].sort(),
    );
  });

  it("names the contract's schemas once under components and every $ref resolves", () => {
    const document = sandbox.openapi() as { components: { schemas: Record<string, unknown> } };
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        'Transaction',
        'Buyer',
        'BankAccount',
        'BankAccountListItem',
        'ErrorA',
        'ErrorB',
        'TerminalAuthorizationResult',
      ]),
    );
    const refs = JSON.stringify(document).match(/"\$ref":"#\/components\/schemas\/[A-Za-z0-9]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of new Set(refs)) {
      const name = /schemas\/([A-Za-z0-9]+)"$/.exec(ref)![1]!;
      expect(document.components.schemas[name], name).toBeDefined();
    }
  });

  it('is the document committed in docs/sandbox-openapi.json (regenerate with `npm run docs:openapi`)', () => {
    const committed = JSON.parse(
      readFileSync(new URL('../../../docs/sandbox-openapi.json', import.meta.url), 'utf8'),
    ) as unknown;
    expect(committed).toEqual(JSON.parse(JSON.stringify(sandbox.openapi())));
  });
});

describe('the terminal channel’s own OpenAPI document (what a provider implements)', () => {
  const document = (): Record<string, unknown> =>
    terminalChannelDocument(sandbox.openapi(), String(TERMINAL_CHANNEL_VERSION));

  it('holds the channel’s operations only — v2 authorization beside v1, which is marked deprecated — and every schema they name', () => {
    const ops = operations(document());
    expect(ops.map(([method, path]) => `${method.toUpperCase()} ${path}`)).toEqual([
      'GET /v1/marketplaces/{marketplace_id}/terminals/{terminal}/pending_transactions',
      'GET /v1/marketplaces/{marketplace_id}/terminals/{terminal}/emv_tables',
      'POST /v1/marketplaces/{marketplace_id}/transactions/{transaction_id}/authorization',
      'POST /v2/marketplaces/{marketplace_id}/transactions/{transaction_id}/authorization',
      'POST /v1/marketplaces/{marketplace_id}/transactions/{transaction_id}/completion',
      'POST /v1/marketplaces/{marketplace_id}/transactions/{transaction_id}/reversal',
      'POST /v1/marketplaces/{marketplace_id}/transactions/{transaction_id}/void',
    ]);
    expect(ops.every(([, , operation]) => operation.tags?.join() === 'terminal channel')).toBe(true);
    const v1 = ops.find(([, path]) => path.startsWith('/v1/') && path.endsWith('/authorization'))![2] as Operation & {
      deprecated?: boolean;
    };
    expect(v1.deprecated).toBe(true);
    const schemas = (document() as { components: { schemas: Record<string, unknown> } }).components.schemas;
    const refs = new Set(JSON.stringify(document()).match(/#\/components\/schemas\/[A-Za-z0-9]+/g) ?? []);
    for (const ref of refs) expect(schemas[ref.split('/').at(-1)!], ref).toBeDefined();
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining([
        'TerminalAuthorizationRequestV2',
        'EncryptedCardDataV2',
        'PinBlockV2',
        'TerminalIdentity',
      ]),
    );
    expect(Object.keys(schemas)).not.toContain('Buyer');
  });

  it('names the provider that implements it as its first server, the sandbox second, and keeps the license and operationIds', () => {
    const doc = document() as {
      servers: Array<{ url: string; variables: Record<string, { default: string }> }>;
      info: { license?: unknown };
    };
    expect(doc.servers.map((server) => server.url)).toEqual(['{base_url}', '{scheme}://{host}:{port}']);
    expect(doc.servers[0]!.variables.base_url!.default).not.toMatch(/\/$/);
    expect(doc.info.license).toEqual((sandbox.openapi() as { info: { license?: unknown } }).info.license);
    expect(operations(document()).map(([, , operation]) => operation.operationId)).toEqual([
      'listPendingTerminalTransactions',
      'getTerminalEmvTables',
      'authorizeTerminalTransaction',
      'authorizeTerminalTransactionV2',
      'completeTerminalTransaction',
      'reverseTerminalTransaction',
      'voidTransaction',
    ]);
  });

  it('is the document committed in docs/terminal-channel-openapi.json (regenerate with `npm run docs:openapi`)', () => {
    const committed = JSON.parse(
      readFileSync(new URL('../../../docs/terminal-channel-openapi.json', import.meta.url), 'utf8'),
    ) as unknown;
    expect(committed).toEqual(JSON.parse(JSON.stringify(document())));
  });
});
