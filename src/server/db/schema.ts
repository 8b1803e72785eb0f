/** Row types of every table, one interface per table, combined into DB. */
import type { Generated, Insertable, Selectable, Updateable } from "kysely";

/** ISO 8601 timestamps are stored as text on both dialects. */
type Timestamp = string;
/** Booleans are 0/1 integers on both dialects. */
type Flag = number;

export interface SchoolTable {
  id: Generated<number>;
  name: string;
  code: string;
  province: string;
  /** JSON array of earlier names (曾用名). */
  former_names: string;
  contact: string | null;
  archived: Generated<Flag>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MajorTable {
  code: string;
  name: string;
  discipline: string | null;
}

export type ContestLevel = "national" | "provincial" | "school";

export interface ContestTable {
  id: Generated<number>;
  name: string;
  level: ContestLevel;
  year: number;
  parent_id: number | null;
  province: string | null;
  school_id: number | null;
  archived: Generated<Flag>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WorkCategoryTable {
  id: Generated<number>;
  parent_id: number | null;
  name: string;
  sort: number;
  min_authors: number;
  max_authors: number;
  max_teachers: number;
  /** 1 when the category splits into 普通组 and 专业组. */
  has_professional_group: Flag;
  /** JSON array of major codes that make an author 专业组. */
  professional_majors: string;
  archived: Generated<Flag>;
}

export interface AwardLevelTable {
  id: Generated<number>;
  contest_level: ContestLevel;
  name: string;
  /** work | teacher | organisation */
  kind: string;
  ratio: number | null;
  max_count: number | null;
  sort: number;
}

export interface UserTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  name: string;
  user_type: number;
  email: string | null;
  email_verified: Flag;
  phone: string | null;
  school_id: number | null;
  /** student or staff number */
  member_no: string | null;
  has_complaint_right: Flag;
  is_school_contest_judge: Flag;
  locked: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionTable {
  /** sha256 of the cookie token, hex: the token itself is never stored. */
  id: string;
  user_id: number;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  ip: string | null;
  user_agent: string | null;
}

export type TokenPurpose = "verify_email" | "recovery";

export interface AccountTokenTable {
  id: Generated<number>;
  user_id: number;
  purpose: TokenPurpose;
  /** sha256 of the link token, hex */
  token_hash: string;
  /** sha256 of the short code, hex (recovery only) */
  code_hash: string | null;
  /** the address being verified */
  email: string | null;
  attempts: Generated<number>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

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

export interface DB {
  school: SchoolTable;
  major: MajorTable;
  contest: ContestTable;
  work_category: WorkCategoryTable;
  award_level: AwardLevelTable;
  app_user: UserTable;
  user_session: SessionTable;
  account_token: AccountTokenTable;
  notice: NoticeTable;
}

export type User = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
export type Session = Selectable<SessionTable>;
export type AccountToken = Selectable<AccountTokenTable>;
