/** Every master-data resource served by the generic router (src/server/crud/resource.ts). */
import type { ResourceDef } from "./crud/resource";
import { schoolResource } from "./school/resource";
import { majorResource } from "./major/resource";
import { workTypeResource } from "./work-type/resource";
import { awardResource } from "./award/resource";
import { contestResource } from "./contest/resource";
import { entryLockResource } from "./contest/entry-lock";
import { noticeResource } from "./notice/resource";
import { newsResource } from "./news/resource";
import { userResource } from "./user/resource";

export const resources: ResourceDef<any, any, any>[] = [
  schoolResource,
  majorResource,
  workTypeResource,
  awardResource,
  contestResource,
  entryLockResource,
  noticeResource,
  newsResource,
  userResource,
];
