import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type CompilerFactory = (...options: unknown[]) => never;

/** A fastify compiler factory that requires its package the first time a route needs it. */
function loadedOnFirstUse(packageName: string): CompilerFactory {
  let factory: CompilerFactory | undefined;
  return (...options) => {
    factory ??= (createRequire(import.meta.url)(packageName) as () => CompilerFactory)();
    return factory(...options);
  };
}

/**
 * fastify's own schema compilers (ajv for validation, fast-json-stringify for serialization),
 * loaded only when a route declares a JSON schema. No gateway route does (client bodies are
 * read with zod), and fastify otherwise loads both at start: 113 modules and about 4 MiB of
 * RSS a gateway never uses.
 */
export function lazySchemaCompilers(): NonNullable<FastifyServerOptions['schemaController']> {
  return {
    compilersFactory: {
      buildValidator: loadedOnFirstUse('@fastify/ajv-compiler'),
      buildSerializer: loadedOnFirstUse('@fastify/fast-json-stringify-compiler'),
    },
  };
}
