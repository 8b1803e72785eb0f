/** Every master-data resource served by the generic router (src/server/crud/resource.ts). */
import type { ResourceDef } from "./crud/resource";
import { schoolResource } from "./school/resource";

export const resources: ResourceDef<any, any, any>[] = [
  schoolResource,
];
