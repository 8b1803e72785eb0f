/** Small pieces of the certificate screens: the status tag and the contest labels. */
import { Tag, Tooltip } from "antd";
import { CERT_STATUS_NAMES, REVOKE_REASON_NAMES } from "../../shared/certificate/schema";
import type { CertContest, CertificateRow } from "../../shared/certificate/print-schema";
import { CONTEST_LEVEL_NAMES, type ContestLevelKey } from "../../shared/contest/stages";
import { fmtTime } from "../format";

const STATUS_COLORS: Record<CertificateRow["status"], string> = { valid: "green", revoked: "red", replaced: "default" };

export function StatusTag({ row }: { row: Pick<CertificateRow, "status" | "statusAt" | "statusReason"> }) {
  const tag = (
    <Tag color={STATUS_COLORS[row.status]} data-testid="cert-status">
      {CERT_STATUS_NAMES[row.status]}
    </Tag>
  );
  if (row.status === "valid") return tag;
  const reason = row.statusReason ? (REVOKE_REASON_NAMES[row.statusReason] ?? row.statusReason) : "";
  return <Tooltip title={[fmtTime(row.statusAt), reason].filter((s) => s && s !== "—").join("，")}>{tag}</Tooltip>;
}

export const contestLabel = (c: CertContest) =>
  `${c.name}（${CONTEST_LEVEL_NAMES[c.level as ContestLevelKey] ?? c.level}）· ${c.certificates} 张证书${c.published ? "" : " · 结果未发布"}`;
