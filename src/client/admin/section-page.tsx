/** The pages behind /admin/NoticeManagement/:noticeSection and /admin/contest/:section (later releases). */
import { useParams } from "react-router";
import PlaceholderPage from "../components/PlaceholderPage";
import { useDocumentTitle } from "../routing/RoutePage";
import type { PageProps } from "../routing/model";
import { CONTEST_SECTIONS, NOTICE_SECTIONS, findSection } from "./sections";

export function NoticeSectionPage({ route }: PageProps) {
  const section = findSection(NOTICE_SECTIONS, useParams().noticeSection);
  const label = `公告管理 · ${section?.label ?? ""}`;
  useDocumentTitle(label);
  return <PlaceholderPage route={{ ...route, label, feature: `编辑“${section?.label ?? ""}”的内容` }} />;
}

export function ContestSectionPage({ route }: PageProps) {
  const section = findSection(CONTEST_SECTIONS, useParams().section);
  const label = section?.label ?? route.label;
  useDocumentTitle(label);
  return <PlaceholderPage route={{ ...route, label, feature: `管理${section?.key === "NationalContest" ? "国赛" : "省赛"}的赛事、阶段与参赛范围` }} />;
}
