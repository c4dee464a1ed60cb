import type { FastifyInstance, FastifyPluginAsync } from 'fastify';

/**
 * What `fastify-plugin` does, in a few lines (it is not a dependency of this package): the plugin's
 * decorators and hooks reach the parent instead of staying encapsulated, and Fastify checks at
 * registration that the named dependencies were registered first.
 */
export function defineAppPlugin<Options extends Record<string, unknown> = Record<never, never>>(
  name: string,
  dependencies: readonly string[],
  plugin: (app: FastifyInstance, options: Options) => Promise<void>,
): FastifyPluginAsync<Options> {
  const wrapped = plugin as FastifyPluginAsync<Options> & Record<symbol, unknown>;
  wrapped[Symbol.for('skip-override')] = true;
  wrapped[Symbol.for('fastify.display-name')] = name;
  wrapped[Symbol.for('plugin-meta')] = { name, dependencies: [...dependencies] };
  return wrapped;
}
