/**
 * Route schemas compiled on a route's first use instead of at start. The platform declares
 * several hundred routes; compiling every validator (ajv) and response serializer
 * (fast-json-stringify) up front took about 1.8 s of a 4.4 s start and most of the idle
 * memory, for routes a process may never serve. A wrapper compiles its schema on its first
 * call and keeps the result; `compileAll` compiles what is still pending (a test uses it to
 * prove every schema compiles, so a broken schema still fails in CI, not on a first request).
 */
import SerializerSelector from "@fastify/fast-json-stringify-compiler";
import type { FastifyInstance, FastifySchemaValidationError } from "fastify";

type Validate = ((data: unknown, ctx?: never) => boolean) & {
  errors?: FastifySchemaValidationError[] | null;
  schemaEnv?: unknown;
};

/** The compile functions of the wrappers not yet called, per app. */
const pending = new WeakMap<object, Set<() => void>>();

function track(owner: object, compile: () => void) {
  let set = pending.get(owner);
  if (!set) pending.set(owner, (set = new Set()));
  set.add(compile);
  return () => set.delete(compile);
}

/** An ajv-style validator compiled by `compile` on its first call. */
export function lazyValidator(owner: object, compile: () => unknown): Validate {
  let real: Validate | undefined;
  const done = track(owner, () => void ensure());
  const ensure = () => {
    if (!real) {
      real = compile() as Validate;
      done();
    }
    return real;
  };
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

type Serializer = (data: unknown) => string;
type SerializerFactory = (
  externalSchemas: unknown,
  options: unknown,
) => (route: { schema: unknown; method: string; url: string; httpStatus: string; contentType?: string }) => Serializer;

/** Fastify's own serializer factory (fast-json-stringify), with each route's serializer compiled on first use. */
export function lazySerializerFactory(owner: object): SerializerFactory {
  const base = (SerializerSelector as unknown as () => SerializerFactory)();
  return (externalSchemas, options) => {
    const build = base(externalSchemas, options);
    return (route) => {
      let real: Serializer | undefined;
      const done = track(owner, () => void ensure());
      const ensure = () => {
        if (!real) {
          real = build(route);
          done();
        }
        return real;
      };
      return (data) => ensure()(data);
    };
  };
}

/** The wrappers' owner of each app (the serializer factory is chosen before the app exists). */
const owners = new WeakMap<FastifyInstance, object>();
export const bindSchemas = (app: FastifyInstance, owner: object) => void owners.set(app, owner);

/** Compiles every schema of `app` not compiled yet; returns how many it compiled. */
export function compileAll(app: FastifyInstance): number {
  const set = pending.get(owners.get(app) ?? app);
  if (!set) return 0;
  const all = [...set];
  for (const compile of all) compile();
  return all.length;
}
