/**
 * The 专业组 rule next to the work form's 组别 (issue 29): asked of the server
 * (GET /Backend/Work/work/:id/group-check, the rule submit applies) whenever the 大类, the
 * group or the team changes, so the author learns which author's major makes the work
 * 专业组 — and which majors count — before uploading anything, not at submit.
 */
import { useQuery } from "@tanstack/react-query";
import { Button, Space, Typography } from "antd";
import type { GroupCheckReply } from "../../../shared/work/group-check";
import { GROUP_NAMES, type WorkGroupKey } from "../../../shared/work/fields";
import type { WorkView } from "../../../shared/work/schema";
import { fetchData } from "../../request";
import { W, workKeys } from "../api";

export function useGroupCheck(work: WorkView, categoryId: number, group: WorkGroupKey | undefined, enabled: boolean) {
  const team = work.authors.map((a) => a.userId).join(",");
  return useQuery({
    queryKey: [...workKeys.detail(work.id), "group-check", categoryId, group ?? work.group, work.version, team],
    queryFn: () => fetchData<GroupCheckReply>(`${W}/${work.id}/group-check`, { categoryId, group: group ?? work.group }),
    enabled,
    staleTime: 30_000,
  });
}

/** What goes under 组别: the problem (if any) with a one-click fix, and the 大类's 专业组 majors. */
export function GroupHint({ check, onPick }: { check: GroupCheckReply | undefined; onPick: (g: WorkGroupKey) => void }) {
  if (!check?.hasProfessionalGroup) return <span>有作者的专业属于本大类专业组专业的，须报专业组</span>;
  const majors = check.majors.map((m) => `${m.name}（${m.code}）`).join("、");
  return (
    <Space direction="vertical" size={2} data-testid="group-hint">
      {check.problem ? (
        <Typography.Text type="danger" data-testid="group-problem">
          {check.problem}
          <Button type="link" size="small" onClick={() => onPick(check.required)}>
            改报{GROUP_NAMES[check.required]}
          </Button>
        </Typography.Text>
      ) : (
        <Typography.Text type="success">按当前作者的专业，应报{GROUP_NAMES[check.required]}</Typography.Text>
      )}
      <Typography.Text type="secondary" data-testid="group-majors">
        任一作者的专业属于以下专业组专业的，须报专业组：{majors || "（未设置）"}
      </Typography.Text>
    </Space>
  );
}
