/**
 * The two generated OpenAPI documents (docs/sandbox-openapi.json, docs/terminal-channel-openapi.json)
 * pass a standard linter: Redocly's `recommended` ruleset, run in-process by @redocly/openapi-core,
 * offline (the documents only reference themselves; fetch is barred while linting). Errors fail
 * the spec; warnings are printed so they stay visible.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createConfig, lintFromString, type Config, type NormalizedProblem } from '@redocly/openapi-core';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

const DOCUMENTS = ['sandbox-openapi.json', 'terminal-channel-openapi.json'] as const;

const pathOf = (name: string): string => fileURLToPath(new URL(`../../../docs/${name}`, import.meta.url));

let config: Config;
beforeAll(async () => {
  config = await createConfig({ extends: ['recommended'] });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function lint(source: string, absoluteRef: string): Promise<NormalizedProblem[]> {
  // Nothing may be fetched: a linter that reaches out would make this spec depend on the network.
  vi.stubGlobal('fetch', () => Promise.reject(new Error('the OpenAPI lint must not fetch anything')));
  return lintFromString({ source, absoluteRef, config });
}

const describeProblem = (problem: NormalizedProblem): string =>
  `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location.map((where) => where.pointer ?? '').join(', ')}`;

describe("the OpenAPI documents under Redocly's recommended ruleset", () => {
  for (const name of DOCUMENTS) {
    it(`finds no error in docs/${name}`, async () => {
      const problems = await lint(readFileSync(pathOf(name), 'utf8'), pathOf(name));
      const warnings = problems.filter((problem) => problem.severity !== 'error');
      if (warnings.length > 0)
        console.log(`docs/${name}: ${warnings.length} warning(s)\n${warnings.map(describeProblem).join('\n')}`);
      expect(problems.filter((problem) => problem.severity === 'error').map(describeProblem)).toEqual([]);
    });
  }

  it('does catch what it is there for: the same document without servers and with a duplicated operationId is refused', async () => {
    const document = JSON.parse(readFileSync(pathOf('sandbox-openapi.json'), 'utf8')) as {
      servers?: unknown;
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    delete document.servers;
    const [first, second] = Object.values(document.paths).flatMap((item) => Object.values(item));
    second!.operationId = first!.operationId;
    const errors = (await lint(JSON.stringify(document), pathOf('sandbox-openapi.json'))).filter(
      (problem) => problem.severity === 'error',
    );
    expect(errors.map((problem) => problem.ruleId).sort()).toEqual([
      'no-empty-servers',
      'operation-operationId-unique',
    ]);
  });
});
