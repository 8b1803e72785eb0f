/**
 * The sections behind parameter routes of the root admin area: notice sections
 * (/admin/NoticeManagement/:noticeSection, from the shared notice catalogue) and
 * contest levels (/admin/contest/:section).
 */
import { NOTICE_SECTIONS as NOTICE_CATALOGUE } from "../../shared/notice/sections";

export interface Section {
  key: string;
  label: string;
}

/** Role announcements ("role_<code>") and the four explanation texts, in catalogue order. */
export const NOTICE_SECTIONS: readonly Section[] = NOTICE_CATALOGUE.map((s) => ({ key: s.key, label: s.name }));

export const CONTEST_SECTIONS: readonly Section[] = [
  { key: "ProvinceContest", label: "省赛管理" },
  { key: "NationalContest", label: "国赛管理" },
];

export const findSection = (sections: readonly Section[], key: string | undefined) =>
  sections.find((s) => s.key.toLowerCase() === (key ?? "").toLowerCase());
