/**
 * Every route the app registered, read from Fastify itself (app.printRoutes), so that a test
 * walking "every route" also walks a route added later, whether or not it is in the OpenAPI
 * document. Paths are written as in OpenAPI ({id} for :id); HEAD (Fastify's automatic twin of
 * GET) is left out.
 */
import type { FastifyInstance } from "fastify";

export interface RegisteredRoute {
  method: string;
  /** e.g. /Backend/Admin/school/{id} */
  path: string;
}

/**
 * Parses the tree of `printRoutes({ commonPrefix: false })`: each line is "├── <fragment> (<METHODS>)"
 * under four characters of indentation per level, a fragment continuing its parent's path.
 */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  const tree = app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const out = new Map<string, RegisteredRoute>();
  for (const line of tree.split("\n")) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.*)$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    const [, fragment, methods] = /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(m[2])!;
    stack.length = depth;
    stack.push(fragment);
    if (!methods) continue;
    const path = stack.join("").replace(/:(\w+)/g, "{$1}");
    for (const method of methods.split(", ")) {
      if (method === "HEAD") continue;
      out.set(`${method} ${path}`, { method, path });
    }
  }
  if (out.size < 10) throw new Error(`could not read the app's routes from printRoutes:\n${tree.slice(0, 500)}`);
  return [...out.values()];
}
