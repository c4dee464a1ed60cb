import { execFile } from 'node:child_process';
import { createServer, connect, type Server } from 'node:net';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ip = (...args: string[]) => run('ip', args);

/** A network namespace on our own bridge: a machine of its own, with one address (faults, bench). */
export interface Host {
  name: string;
  namespace: string;
  address: string;
  /** `command` run inside the host. */
  wrap(command: readonly string[]): string[];
  /** SIGKILL to every process of the host, as when the machine dies. */
  killAll(): Promise<void>;
}

export interface HostNetwork {
  /** The machine this test runs on, as the hosts see it across the bridge. */
  gateway: string;
  hosts: Record<string, Host>;
  /** Makes a loopback-only service of this machine reachable from the hosts: gateway:<returned port>. */
  forward(targetPort: number): Promise<number>;
  remove(): Promise<void>;
}

/** Why namespaces cannot be made here (not root, no iproute2, a container without the capability), or null. */
export async function namespacesUnavailable(): Promise<string | null> {
  if (process.getuid?.() !== 0) return 'network namespaces need root';
  const probe = `mgprobe${process.pid}`;
  try {
    await ip('netns', 'add', probe);
    await ip('netns', 'del', probe);
    return null;
  } catch (error) {
    return `ip netns add failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
}

/**
 * One namespace per name, each with a veth pair on a bridge of this test's own; the bridge end in this
 * namespace is the gateway. Names and the /24 are drawn from the pid, so parallel runs do not collide.
 */
export async function createHostNetwork(names: readonly string[]): Promise<HostNetwork> {
  const tag = String(process.pid % 100_000);
  const subnet = `10.231.${(process.pid % 200) + 20}`;
  const bridge = `mgb${tag}`;
  const gateway = `${subnet}.1`;
  const forwarders: Server[] = [];
  const hosts: Record<string, Host> = {};

  const remove = async () => {
    await Promise.all(Object.values(hosts).map((host) => host.killAll()));
    for (const host of Object.values(hosts)) await ip('netns', 'del', host.namespace).catch(() => undefined);
    await ip('link', 'del', bridge).catch(() => undefined);
    await Promise.all(forwarders.map((server) => new Promise((done) => server.close(done))));
  };

  try {
    await ip('link', 'add', bridge, 'type', 'bridge');
    await ip('addr', 'add', `${gateway}/24`, 'dev', bridge);
    await ip('link', 'set', bridge, 'up');
    for (const [index, name] of names.entries()) {
      const namespace = `mg${tag}-${name}`;
      const [outside, inside] = [`mgv${tag}x${index}`, `mgv${tag}y${index}`];
      const address = `${subnet}.${index + 2}`;
      await ip('netns', 'add', namespace);
      hosts[name] = {
        name,
        namespace,
        address,
        wrap: (command) => ['ip', 'netns', 'exec', namespace, ...command],
        async killAll() {
          const { stdout } = await ip('netns', 'pids', namespace).catch(() => ({ stdout: '' }));
          for (const pid of stdout.split('\n').filter((line) => line.trim() !== '')) {
            try {
              process.kill(Number(pid), 'SIGKILL');
            } catch {
              // gone already
            }
          }
        },
      };
      await ip('link', 'add', outside, 'type', 'veth', 'peer', 'name', inside);
      await ip('link', 'set', inside, 'netns', namespace);
      await ip('link', 'set', outside, 'master', bridge, 'up');
      await ip('-n', namespace, 'link', 'set', 'lo', 'up');
      await ip('-n', namespace, 'addr', 'add', `${address}/24`, 'dev', inside);
      await ip('-n', namespace, 'link', 'set', inside, 'up');
      await ip('-n', namespace, 'route', 'add', 'default', 'via', gateway);
    }
  } catch (error) {
    await remove();
    throw error;
  }

  return {
    gateway,
    hosts,
    async forward(targetPort) {
      const server = createServer((client) => {
        const upstream = connect(targetPort, '127.0.0.1');
        const end = () => {
          client.destroy();
          upstream.destroy();
        };
        client.on('error', end).on('close', end);
        upstream.on('error', end).on('close', end);
        client.pipe(upstream).pipe(client);
      });
      forwarders.push(server);
      await new Promise<void>((listening) => server.listen(0, gateway, listening));
      const address = server.address();
      return typeof address === 'object' && address !== null ? address.port : 0;
    },
    remove,
  };
}
