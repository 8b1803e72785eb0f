/** Public content tables: notices, news and the 优秀作品 gallery. */
import type { Generated } from "kysely";
import type { Flag, Timestamp } from "./common";

export interface NoticeTable {
  id: Generated<number>;
  contest_id: number | null;
  /** role_<code> for the announcement of a user type, or an explanation-text key */
  section: string;
  title: string;
  content: string;
  updated_at: Timestamp;
  updated_by: number | null;
}

export interface NewsTable {
  id: Generated<number>;
  contest_id: number | null;
  title: string;
  body: string;
  cover: string | null;
  status: "draft" | "published";
  publish_at: Timestamp | null;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A work chosen for the public 优秀作品 gallery (0026). */
export interface BestWorkTable {
  id: Generated<number>;
  work_id: number;
  contest_id: number;
  sort: Generated<number>;
  cover_sha256: string | null;
  cover_mime: string | null;
  text: Generated<string>;
  video_url: string | null;
  published: Generated<Flag>;
  published_at: Timestamp | null;
  updated_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
