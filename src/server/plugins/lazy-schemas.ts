/**
 * Route schemas compiled on a route's first use instead of at start. The platform declares
 * several hundred routes; compiling every validator (ajv) and response serializer
 * (fast-json-stringify) up front took about 1.8 s of a 4.4 s start and most of the idle
 * memory, for routes a process may never serve. A wrapper compiles its schema on its first
 * call and keeps the result; `compileAll` compiles what is still pending (a test uses it to
 * prove every schema compiles, so a broken schema still fails in CI, not on a first request).
 * The app holds its LazySchemas as `app.lazySchemas`.
 */
import SerializerSelector from "@fastify/fast-json-stringify-compiler";
import type { FastifySchemaValidationError } from "fastify";

type Validate = ((data: unknown, ctx?: never) => boolean) & {
  errors?: FastifySchemaValidationError[] | null;
  schemaEnv?: unknown;
};

type Serializer = (data: unknown) => string;
type SerializerFactory = (
  externalSchemas: unknown,
  options: unknown,
) => (route: { schema: unknown; method: string; url: string; httpStatus: string; contentType?: string }) => Serializer;

/** One app's schemas: the wrappers it hands to Fastify, and the compile functions of those not called yet. */
export class LazySchemas {
  readonly #pending = new Set<() => void>();

  /** `compile` run once, on the first call of the returned function or by compileAll. */
  #once<T>(compile: () => T): () => T {
    let real: T | undefined;
    const ensure = () => {
      if (real === undefined) {
        real = compile();
        this.#pending.delete(ensure);
      }
      return real;
    };
    this.#pending.add(ensure);
    return ensure;
  }

  /** An ajv-style validator compiled by `compile` on its first call. */
  validator(compile: () => unknown): Validate {
    const ensure = this.#once(() => compile() as Validate);
    const wrapper: Validate = (data, ctx) => {
      const v = ensure();
      const ok = v(data, ctx);
      wrapper.errors = v.errors;
      return ok;
    };
    // Fastify hands an ajv validator its parent object (schemaEnv marks one), so coercion can
    // replace a whole query string or parameter object: the wrapper passes it through.
    wrapper.schemaEnv = true;
    return wrapper;
  }

  /** Fastify's own serializer factory (fast-json-stringify), with each route's serializer compiled on first use. */
  serializerFactory(): SerializerFactory {
    const base = (SerializerSelector as unknown as () => SerializerFactory)();
    return (externalSchemas, options) => {
      const build = base(externalSchemas, options);
      return (route) => {
        const ensure = this.#once(() => build(route));
        return (data) => ensure()(data);
      };
    };
  }

  /** Compiles every schema not compiled yet; returns how many it compiled. */
  compileAll(): number {
    const all = [...this.#pending];
    for (const compile of all) compile();
    return all.length;
  }
}

declare module "fastify" {
  interface FastifyInstance {
    /** The app's route schemas (compiled on first use). */
    lazySchemas: LazySchemas;
  }
}
