/** Account tables: users, their sessions, mailed tokens and API tokens. */
import type { Generated, Insertable, Selectable, Updateable } from "kysely";
import type { Flag, Timestamp } from "./common";

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
  major_code: string | null;
  archived: Generated<Flag>;
  /** a judge's fields of expertise, kept on /judge/Info (0012) */
  expertise?: string | null;
  /** 1: the daily digest of new to-do items is mailed (0027) */
  todo_digest?: Flag;
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

/** A personal access token (migration 0023). */
export interface ApiTokenTable {
  id: Generated<number>;
  public_id: string;
  user_id: number;
  name: string;
  token_hash: string;
  read_only: number;
  /** JSON array of casbin objects */
  resources: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
  last_used_at: Timestamp | null;
  last_used_addr: string | null;
}

export type ApiToken = Selectable<ApiTokenTable>;

export type User = Selectable<UserTable>;

export type NewUser = Insertable<UserTable>;

export type UserUpdate = Updateable<UserTable>;

export type Session = Selectable<SessionTable>;

export type AccountToken = Selectable<AccountTokenTable>;
