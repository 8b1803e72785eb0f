/** Every migration, in order. Typed against Kysely<unknown> so they never drift with today's schema. */
import type { Migration } from "kysely";
import * as m0001 from "./0001-foundation";
import * as m0002 from "./0002-master-data";
import * as m0003 from "./0003-contests";
import * as m0004 from "./0004-work-types";
import * as m0006 from "./0006-notices-news";
import * as m0007 from "./0007-works";
import * as m0008 from "./0008-work-files";
import * as m0009 from "./0009-review-groups";
import * as m0010 from "./0010-scoring";
import * as m0012 from "./0012-defence-profile";
import * as m0013 from "./0013-results";
import * as m0014 from "./0014-jobs";
import * as m0015 from "./0015-rate-limits";
import * as m0016 from "./0016-complaints";
import * as m0017 from "./0017-certificates";
import * as m0018 from "./0018-certificate-printing";
import * as m0019 from "./0019-honours";
import * as m0020 from "./0020-judge-pool";
import * as m0022 from "./0022-national-entry";
import * as m0023 from "./0023-api-tokens";
import * as m0025 from "./0025-national-format";
import * as m0021 from "./0021-dupcheck";
import * as m0027 from "./0027-todo-centre";
import * as m0030 from "./0030-list-indexes";
import * as m0028 from "./0028-work-invitations";
import * as m0026 from "./0026-best-work";
import * as m0031 from "./0031-allocation-incomplete";
import * as m0033 from "./0033-todo-indexes";
import * as m0029 from "./0029-national-fields";
import * as m0034 from "./0034-dupcheck-sets";
import * as m0035 from "./0035-retention";
import * as m0036 from "./0036-dupcheck-anchor-layout";
import * as m0037 from "./0037-list-indexes";
import * as m0038 from "./0038-score-log-chains";
import * as m0039 from "./0039-stats-indexes";
import * as m0040 from "./0040-promotion-todo-done";

export const migrations: Record<string, Migration> = {
  "0001-foundation": m0001,
  "0002-master-data": m0002,
  "0003-contests": m0003,
  "0004-work-types": m0004,
  "0006-notices-news": m0006,
  "0007-works": m0007,
  "0008-work-files": m0008,
  "0009-review-groups": m0009,
  "0010-scoring": m0010,
  "0012-defence-profile": m0012,
  "0013-results": m0013,
  "0014-jobs": m0014,
  "0015-rate-limits": m0015,
  "0016-complaints": m0016,
  "0017-certificates": m0017,
  "0018-certificate-printing": m0018,
  "0019-honours": m0019,
  "0020-judge-pool": m0020,
  "0022-national-entry": m0022,
  "0023-api-tokens": m0023,
  "0021-dupcheck": m0021,
  "0025-national-format": m0025,
  "0027-todo-centre": m0027,
  "0030-list-indexes": m0030,
  "0028-work-invitations": m0028,
  "0026-best-work": m0026,
  "0031-allocation-incomplete": m0031,
  "0033-todo-indexes": m0033,
  "0029-national-fields": m0029,
  "0034-dupcheck-sets": m0034,
  "0035-retention": m0035,
  "0036-dupcheck-anchor-layout": m0036,
  "0037-list-indexes": m0037,
  "0038-score-log-chains": m0038,
  "0039-stats-indexes": m0039,
  "0040-promotion-todo-done": m0040,
};
