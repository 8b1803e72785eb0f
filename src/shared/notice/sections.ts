/**
 * The notice catalogue, one list for server and browser: an announcement per user type
 * (shown in that role's user centre) and the explanation texts of the works pages.
 * A notice is one (section, contest) slot; contest null is platform-wide.
 */
import { ROLE_CODES, ROLE_NAMES, type RoleCode } from "../roles";

export type NoticeKind = "announcement" | "explanation";

export interface NoticeSection {
  key: string;
  name: string;
  kind: NoticeKind;
  /** the user type of an announcement */
  role?: RoleCode;
}

export const roleSectionKey = (role: RoleCode) => `role_${role}`;

export const EXPLANATION_SECTIONS = [
  { key: "participant_management", name: "参赛人员管理说明", kind: "explanation" },
  { key: "work_info_edit", name: "作品信息编辑说明", kind: "explanation" },
  { key: "work_link_edit", name: "作品链接编辑说明", kind: "explanation" },
  { key: "registration_material_edit", name: "报名材料编辑说明", kind: "explanation" },
] as const satisfies readonly NoticeSection[];

export type ExplanationSectionKey = (typeof EXPLANATION_SECTIONS)[number]["key"];

export const NOTICE_SECTIONS: readonly NoticeSection[] = [
  ...ROLE_CODES.map((role): NoticeSection => ({
    key: roleSectionKey(role),
    name: `${ROLE_NAMES[role]}公告`,
    kind: "announcement",
    role,
  })),
  ...EXPLANATION_SECTIONS,
];

export const NOTICE_SECTION_KEYS: readonly string[] = NOTICE_SECTIONS.map((s) => s.key);

export const noticeSection = (key: string): NoticeSection | undefined => NOTICE_SECTIONS.find((s) => s.key === key);

export const noticeSectionName = (key: string): string => noticeSection(key)?.name ?? key;
