/** The columns of the format review list (review-list.tsx): work, category, school, status and the outcome buttons. */
import { Link } from "react-router";
import { Button, Tag } from "antd";
import type { TableColumnsType } from "antd";
import { ThunderboltOutlined } from "@ant-design/icons";
import type { ReviewListItem } from "../../../shared/review/schema";
import { GROUP_NAMES } from "../../../shared/work/fields";
import { StatusTag } from "../../work/components/StatusTag";
import { Inline, Lines, Muted } from "../../components/light";
import { OnDemand } from "../../components/on-demand";
import { fmtTime } from "../../format";
import { reviewDetailPath } from "./api";
import { OutcomeButtons } from "./OutcomeButtons";
import type { OutcomeTarget, ReasonOutcome } from "./OutcomeModal";

export function reviewColumns({
  refresh,
  setReason,
  startFast,
}: {
  refresh: () => void;
  setReason: (r: { work: OutcomeTarget; outcome: ReasonOutcome }) => void;
  startFast: (id: number) => void;
}): TableColumnsType<ReviewListItem> {
  return [
    { title: "作品编号", dataIndex: "id", width: 120, render: (id: number) => <Link to={reviewDetailPath(id)}>{id}</Link> },
    {
      title: "作品名称",
      dataIndex: "name",
      render: (name: string, r) => (
        <Lines>
          <Link to={reviewDetailPath(r.id)} data-testid="review-sheet-link">
            {name}
          </Link>
          {r.formatReasons.length > 0 && (
            <span>
              {r.formatReasons.map((x) => (
                <Tag key={x.code} color="orange" bordered={false} style={{ fontSize: 12 }}>
                  {x.name}
                </Tag>
              ))}
            </span>
          )}
        </Lines>
      ),
    },
    {
      title: "类别",
      render: (_, r) => (
        <Lines>
          <span>{r.category.name}</span>
          <Muted small>{[r.subcategory?.name, GROUP_NAMES[r.group]].filter(Boolean).join(" · ")}</Muted>
        </Lines>
      ),
    },
    { title: "学校", render: (_, r) => r.school.name },
    {
      title: "状态",
      dataIndex: "status",
      render: (_, r) => (
        <Lines>
          <StatusTag status={r.status} name={r.statusName} />
          {r.formatDeadline && <Muted small>截止 {fmtTime(r.formatDeadline)}</Muted>}
        </Lines>
      ),
    },
    {
      title: "操作",
      render: (_, r) => (
        <Inline gap={4} data-testid={`row-actions-${r.id}`}>
          <OutcomeButtons work={r} onDone={refresh} onReason={(work, outcome) => setReason({ work, outcome })} />
          <OnDemand tip="从这件作品开始快速审核">
            <Button
              size="small"
              type="text"
              icon={<ThunderboltOutlined />}
              onClick={() => startFast(r.id)}
              aria-label="从此快速审核"
            />
          </OnDemand>
        </Inline>
      ),
    },
  ];
}
