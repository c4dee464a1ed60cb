/**
 * Vitest global setup: one database migrated for the whole run, which every test database is copied from
 * (its name in the environment reaches every test process, started after this).
 */
import { createTestDatabase, TEMPLATE_DATABASE_ENV } from '@mediagen/core/testing';

export default async function migrateTemplateDatabase(): Promise<() => Promise<void>> {
  delete process.env[TEMPLATE_DATABASE_ENV];
  const template = await createTestDatabase('template');
  process.env[TEMPLATE_DATABASE_ENV] = template.name;
  return async () => {
    delete process.env[TEMPLATE_DATABASE_ENV];
    await template.drop();
  };
}
