import type { Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationResultSet } from 'kysely/migration';
import * as generationRecords from './migrations/0001-generation-records';
import * as libraryAndAccountClosure from './migrations/0002-library-and-account-closure';
import * as generationOutbox from './migrations/0003-generation-outbox';
import * as plansAndMarkedArtifacts from './migrations/0004-plans-and-marked-artifacts';
import * as providerSpend from './migrations/0005-provider-spend';
import * as queueLine from './migrations/0006-queue-line';
import * as closedAccounts from './migrations/0007-closed-accounts';
import * as providerError from './migrations/0008-provider-error';
import * as noGenerationOutbox from './migrations/0009-no-generation-outbox';
import * as imageSets from './migrations/0010-image-sets';
import * as supportRequests from './migrations/0011-support-requests';
import * as billing from './migrations/0012-billing';
import * as apiKeys from './migrations/0013-api-keys';
import * as webhooks from './migrations/0014-webhooks';
import * as contentCredentials from './migrations/0015-content-credentials';
import * as generationTrace from './migrations/0016-generation-trace';

/**
 * Migrations listed in code rather than read from a folder, so the bundled production build carries them.
 * Names sort in the order they run; a new migration is a new file and a new line here.
 */
const MIGRATIONS: Record<string, Migration> = {
  '0001-generation-records': generationRecords,
  '0002-library-and-account-closure': libraryAndAccountClosure,
  '0003-generation-outbox': generationOutbox,
  '0004-plans-and-marked-artifacts': plansAndMarkedArtifacts,
  '0005-provider-spend': providerSpend,
  '0006-queue-line': queueLine,
  '0007-closed-accounts': closedAccounts,
  '0008-provider-error': providerError,
  '0009-no-generation-outbox': noGenerationOutbox,
  '0010-image-sets': imageSets,
  '0011-support-requests': supportRequests,
  '0012-billing': billing,
  '0013-api-keys': apiKeys,
  '0014-webhooks': webhooks,
  '0015-content-credentials': contentCredentials,
  '0016-generation-trace': generationTrace,
};

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

/**
 * Brings the schema up to date. Safe to run from several processes at once (Kysely takes a lock), so the
 * server and the worker both run it at start; `pnpm db:migrate` runs it alone.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- it makes the schema, so it takes a database of any
export async function migrateToLatest(db: Kysely<any>): Promise<MigrationResultSet> {
  const migrator = new Migrator({ db: db as Kysely<unknown>, provider: { getMigrations: async () => MIGRATIONS } });
  const result = await migrator.migrateToLatest();
  if (result.error !== undefined) {
    const failed = result.results?.find((migration) => migration.status === 'Error')?.migrationName;
    throw new MigrationError(
      `database migration ${failed ?? ''} failed: ${result.error instanceof Error ? result.error.message : String(result.error)}`,
    );
  }
  return result;
}
