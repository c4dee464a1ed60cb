import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import recordQueriesInCore from '../../eslint-rules/record-queries-in-core.js';
import { typedLintMessages } from './support/typed-lint';

/**
 * The lint rule that keeps queries of the record's tables in core (reads: GenerationReads, changes: the
 * lifecycle), on code whose types it reads; and the lint configuration that turns it on for the apps.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TABLES = ['generations', 'accounts', 'token_ledger'];

function problems(code: string): string[] {
  return typedLintMessages(code, 'record-queries-in-core', recordQueriesInCore, [{ tables: TABLES }]);
}

const DECLARATIONS = `
  interface Query { selectAll(): Query; innerJoin(table: string, a: string, b: string): Query; execute(): Promise<unknown[]> }
  declare const db: { selectFrom(table: string | string[]): Query; updateTable(table: string): Query; deleteFrom(table: string): Query };
  declare function sql(strings: TemplateStringsArray, ...values: unknown[]): Query;
  declare namespace sql { function table(name: string): unknown }
`;

describe('the rule', () => {
  it('refuses queries of a record table, however it is named', () => {
    expect(
      problems(`${DECLARATIONS}
        const ledger = 'token_ledger' as const;
        export async function run(id: string) {
          await db.selectFrom('generations as g').selectAll().execute();
          await db.selectFrom(ledger).selectAll().execute();
          await db.selectFrom('spend_log').innerJoin('accounts as a', 'a.uid', 'l.uid').execute();
          await db.updateTable('public.generations').execute();
          await sql\`select * from generations where id = \${id}\`.execute();
          await sql\`select * from \${sql.table('accounts')}\`.execute();
        }`),
    ).toEqual([
      expect.stringContaining("'generations'"),
      expect.stringContaining("'token_ledger'"),
      expect.stringContaining("'accounts'"),
      expect.stringContaining("'generations'"),
      expect.stringContaining("'generations'"),
      expect.stringContaining("'accounts'"),
    ]);
  });

  it('lets other tables and statements through', () => {
    expect(
      problems(`${DECLARATIONS}
        declare const table: string;
        export async function run() {
          await db.selectFrom('pg_stat_activity').selectAll().execute();
          await db.deleteFrom(table).execute();
          await sql\`select pg_try_advisory_lock(\${1}) as locked\`.execute();
          await sql\`select 'generations' as label\`.execute();
          new Map<string, number>().get('generations');
        }`),
    ).toEqual([]);
  });
});

describe('the lint configuration', () => {
  const eslint = new ESLint({ cwd: ROOT });
  const ruleFor = async (file: string): Promise<unknown> =>
    (await eslint.calculateConfigForFile(file)).rules?.['mediagen/record-queries-in-core'];

  /** Every table of `Database` in core/src/db/schema.ts: a table added there is refused outside core at once. */
  function schemaTables(): string[] {
    const path = resolve(ROOT, 'core/src/db/schema.ts');
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest);
    const database = source.statements.find(
      (statement): statement is ts.InterfaceDeclaration =>
        ts.isInterfaceDeclaration(statement) && statement.name.text === 'Database',
    );
    return (database?.members ?? []).flatMap((member) =>
      member.name !== undefined && ts.isIdentifier(member.name) ? [member.name.text] : [],
    );
  }

  it("refuses every table of the record in the apps' code", async () => {
    const tables = schemaTables();
    expect(tables).toContain('generations');
    for (const file of ['server/src/routes/admin.ts', 'worker/src/reconciler.ts', 'ops/src/commands/counts.ts']) {
      const rule = await ruleFor(file);
      expect(rule, file).toEqual([2, { tables: expect.any(Array) }]);
      expect([...(rule as [number, { tables: string[] }])[1].tables].sort(), file).toEqual([...tables].sort());
    }
  });

  it('leaves core, which owns the record, and the tests, which inspect it', async () => {
    expect(await ruleFor('core/src/reads/generation-reads.ts')).toBeUndefined();
    expect(await ruleFor('server/test/library.test.ts')).toBeUndefined();
  });
});
