import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { startProcess, type LineSink, type ManagedProcess } from './processes';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/mediagen';

/** The error pg gives when nothing listens at the address. */
const CONNECTION_REFUSED = 'ECONNREFUSED';
/** initdb and postgres refuse to run as root; the cluster belongs to this user then. */
const CLUSTER_USERS = ['postgres', 'nobody'];

/**
 * Local start (README, "Quick start"): use the PostgreSQL at `databaseUrl` and create its database if missing; if none
 * answers on a local address, start one from the machine's PostgreSQL binaries in a data folder of its own
 * (`<dataDir>/postgres`, kept between runs); else say exactly what to install. Returns the cluster it
 * started, to stop with the stack, or null when it used one already running.
 */
export async function ensurePostgres(
  databaseUrl: string,
  dataDir: string,
  sink: LineSink,
): Promise<ManagedProcess | null> {
  const url = new URL(databaseUrl);
  const reached = await createDatabaseIfMissing(url).then(
    () => true,
    (error: unknown) => {
      if ((error as { code?: string }).code !== CONNECTION_REFUSED) throw error;
      return false;
    },
  );
  if (reached) return null;

  const local = ['127.0.0.1', 'localhost', '::1'].includes(url.hostname);
  const binaries = postgresBinaries();
  if (!local || binaries === null) {
    throw new Error(
      `PostgreSQL is not reachable at ${redacted(url)}.\n` +
        (local
          ? 'Install PostgreSQL (e.g. `apt-get install postgresql` or `brew install postgresql`), set DATABASE_URL ' +
            'to a server you have, or start one with `docker compose up -d postgres`.'
          : 'Check DATABASE_URL.'),
    );
  }
  const cluster = startCluster(binaries, url, resolve(dataDir, 'postgres'), sink);
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await createDatabaseIfMissing(url);
      return cluster;
    } catch (error) {
      if (Date.now() > deadline || cluster.child.exitCode !== null) {
        await cluster.stop();
        throw new Error(`PostgreSQL did not start on ${redacted(url)}: ${String(error)}`);
      }
      await new Promise((done) => setTimeout(done, 200));
    }
  }
}

/** Connects to the server's maintenance database and creates the URL's database when it does not exist. */
async function createDatabaseIfMissing(url: URL): Promise<void> {
  const name = decodeURIComponent(url.pathname.slice(1)) || 'postgres';
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString(), connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database ${pg.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

/** The newest PostgreSQL's bin folder: Debian's /usr/lib/postgresql/<version>/bin, else initdb on PATH. */
function postgresBinaries(): string | null {
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((version) => existsSync(join(debian, version, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return join(debian, versions[0], 'bin');
  }
  const found = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const bindir = found.status === 0 ? found.stdout.trim() : '';
  return bindir !== '' && existsSync(join(bindir, 'initdb')) ? bindir : null;
}

/**
 * A cluster of our own on the URL's port: trust authentication on the URL's address only, no Unix
 * socket, the URL's user as superuser. As root, initdb and postgres run as an unprivileged user.
 */
function startCluster(bin: string, url: URL, directory: string, sink: LineSink): ManagedProcess {
  const runAs = userInfo().uid === 0 ? clusterUser() : null;
  const asUser = (command: string, args: string[]): [string, string[]] =>
    runAs === null
      ? [command, args]
      : ['setpriv', [`--reuid=${runAs}`, `--regid=${runAs}`, '--init-groups', command, ...args]];
  const superuser = decodeURIComponent(url.username) || 'postgres';
  if (!existsSync(join(directory, 'PG_VERSION'))) {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    if (runAs !== null) chownTo(directory, runAs);
    const [command, args] = asUser(join(bin, 'initdb'), [
      '-D',
      directory,
      '-U',
      superuser,
      '--auth=trust',
      '--encoding=UTF8',
      '--locale=C',
    ]);
    const init = spawnSync(command, args, { encoding: 'utf8' });
    if (init.status !== 0) {
      const reach = runAs === null ? '' : ` (it runs as ${runAs}, who must be able to reach ${directory})`;
      throw new Error(`initdb failed${reach}:\n${init.stderr || init.stdout}`);
    }
  }
  const [command, args] = asUser(join(bin, 'postgres'), [
    '-D',
    directory,
    '-p',
    url.port || '5432',
    '-c',
    `listen_addresses=${url.hostname === 'localhost' ? '127.0.0.1' : url.hostname}`,
    '-c',
    'unix_socket_directories=',
  ]);
  return startProcess('postgres', command, args, { cwd: directory, env: process.env, sink });
}

function clusterUser(): string {
  for (const name of CLUSTER_USERS) {
    if (spawnSync('id', ['-u', name]).status === 0) return name;
  }
  throw new Error(`PostgreSQL refuses to run as root and none of the users ${CLUSTER_USERS.join(', ')} exists`);
}

function chownTo(directory: string, user: string): void {
  const uid = Number(spawnSync('id', ['-u', user], { encoding: 'utf8' }).stdout.trim());
  const gid = Number(spawnSync('id', ['-g', user], { encoding: 'utf8' }).stdout.trim());
  chownSync(directory, uid, gid);
}

/** The URL without its password, for messages. */
function redacted(url: URL): string {
  const copy = new URL(url);
  if (copy.password !== '') copy.password = '***';
  return copy.toString();
}
