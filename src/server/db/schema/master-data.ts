/** School, major, work category and award level tables: the master data every contest refers to. */
import type { Generated } from "kysely";
import type { Flag, Timestamp } from "./common";
import type { ContestLevel } from "./contest";

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
  id: Generated<number>;
  /** national major code, unique: 080906, 080904K */
  code: string;
  name: string;
  discipline: string | null;
  archived: Generated<Flag>;
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
  description: string | null;
  /** JSON array of { key, name, required, maxSizeMB, types } */
  required_attachments: Generated<string>;
  /** JSON array of { name, points } */
  deductions: Generated<string>;
  /** 1: submit needs the advising teacher's 指导老师自评 (0027) */
  teacher_review_required: Generated<Flag>;
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
  archived: Generated<Flag>;
}
