/**
 * The parts of a review sheet (GET /Backend/Review/work/:id), shared by the review detail
 * page and fast review: the header facts, the checklist (required attachments from the
 * category, required fields, team rules — each met or not), the text fields, the
 * attachments with download links, the AI declaration and the format review history.
 */
import { Alert, Descriptions, List, Space, Tag, Typography } from "antd";
import { CheckCircleFilled, CloseCircleFilled, MinusCircleOutlined } from "@ant-design/icons";
import type { ChecklistItem, ReviewSheet } from "../../../shared/review/schema";
import { StatusTag } from "../../work/components/StatusTag";
import { WorkLogTimeline } from "../../work/components/WorkLogTimeline";
import { FileTable } from "../../work-admin/parts/Attachments";
import { fmtTime } from "../../format";

export function SheetFacts({ sheet, column = 3 }: { sheet: ReviewSheet; column?: number }) {
  return (
    <Descriptions size="small" column={column} data-testid="sheet-facts">
      <Descriptions.Item label="作品编号">{sheet.id}</Descriptions.Item>
      <Descriptions.Item label="状态">
        <StatusTag status={sheet.status} name={sheet.statusName} />
      </Descriptions.Item>
      <Descriptions.Item label="学校">{sheet.school.name}</Descriptions.Item>
      <Descriptions.Item label="类别">
        {[sheet.category.name, sheet.subcategory?.name].filter(Boolean).join(" / ")}
      </Descriptions.Item>
      <Descriptions.Item label="组别">{sheet.groupName}</Descriptions.Item>
      <Descriptions.Item label="报名赛事">{sheet.contest.name}</Descriptions.Item>
      <Descriptions.Item label="作者">
        {sheet.authors.map((a) => a.name + (a.majorName ? `（${a.majorName}）` : "")).join("、") || "—"}
      </Descriptions.Item>
      <Descriptions.Item label="指导教师">{sheet.teachers.map((t) => t.name).join("、") || "无"}</Descriptions.Item>
    </Descriptions>
  );
}

/** The current decision's reasons (returned or rejected works). */
export function CurrentDecision({ sheet }: { sheet: ReviewSheet }) {
  if (sheet.status !== "format_returned" && sheet.status !== "format_rejected" && sheet.status !== "format_resubmitted")
    return null;
  const codes = sheet.formatReasons.map((r) => r.name).join("、");
  return (
    <Alert
      type={sheet.status === "format_rejected" ? "error" : "warning"}
      showIcon
      style={{ marginBottom: 12 }}
      data-testid="sheet-decision"
      message={sheet.status === "format_resubmitted" ? "作者已按退回意见修改并重新提交" : sheet.statusName}
      description={
        <Space direction="vertical" size={0}>
          {codes && <span>问题类型：{codes}</span>}
          {sheet.returnReason && <span>说明：{sheet.returnReason}</span>}
          {sheet.formatDeadline && (
            <span>
              修改截止时间：{fmtTime(sheet.formatDeadline)}
              {Date.parse(sheet.formatDeadline) < Date.now() ? "（已过）" : ""}
            </span>
          )}
        </Space>
      }
    />
  );
}

const KIND: Record<ChecklistItem["kind"], string> = { attachment: "附件", field: "信息", team: "团队" };

export function Checklist({ items, compact }: { items: ChecklistItem[]; compact?: boolean }) {
  const unmet = items.filter((c) => c.required && !c.ok).length;
  return (
    <div data-testid="sheet-checklist">
      <Typography.Paragraph style={{ marginBottom: 8 }}>
        {unmet ? (
          <Typography.Text type="danger" strong>
            {unmet} 项必需条件未满足
          </Typography.Text>
        ) : (
          <Typography.Text type="success" strong>
            必需条件全部满足
          </Typography.Text>
        )}
      </Typography.Paragraph>
      <List
        size="small"
        dataSource={items}
        split={!compact}
        renderItem={(c) => (
          <List.Item
            style={{ padding: compact ? "2px 0" : undefined }}
            data-testid={`check-${c.key}`}
            data-ok={c.ok ? "yes" : "no"}
          >
            <Space align="start" size={8}>
              {c.ok ? (
                <CheckCircleFilled style={{ color: "#52c41a" }} />
              ) : c.required ? (
                <CloseCircleFilled style={{ color: "#ff4d4f" }} />
              ) : (
                <MinusCircleOutlined style={{ color: "#bfbfbf" }} />
              )}
              <span>
                <Tag bordered={false} style={{ marginInlineEnd: 4 }}>
                  {KIND[c.kind]}
                </Tag>
                {c.name}
                {!c.required && <Typography.Text type="secondary">（选交）</Typography.Text>}
                <Typography.Text
                  type={c.ok ? "secondary" : c.required ? "danger" : "secondary"}
                  style={{ marginInlineStart: 6, fontSize: 12 }}
                >
                  {c.detail}
                </Typography.Text>
              </span>
            </Space>
          </List.Item>
        )}
      />
    </div>
  );
}

export function SheetFields({ sheet }: { sheet: ReviewSheet }) {
  return (
    <Descriptions column={1} bordered size="small" labelStyle={{ width: 150 }} data-testid="sheet-fields">
      {sheet.fields.map((f) => (
        <Descriptions.Item key={f.key} label={f.label}>
          {f.value?.trim() ? (
            <Typography.Paragraph style={{ whiteSpace: "pre-wrap", margin: 0 }}>{f.value}</Typography.Paragraph>
          ) : (
            <Typography.Text type="secondary">未填写</Typography.Text>
          )}
        </Descriptions.Item>
      ))}
      <Descriptions.Item label="AI工具使用声明">
        {!sheet.aiDeclaration ? (
          <Typography.Text type="secondary">未填写</Typography.Text>
        ) : !sheet.aiDeclaration.used ? (
          "声明未使用 AI 工具"
        ) : (
          <Space direction="vertical" size={0}>
            {sheet.aiDeclaration.tools.map((t, i) => (
              <span key={i}>
                {t.tool}
                {t.version ? ` ${t.version}` : ""}：{t.purpose}（采纳 {t.adoption}%）
              </span>
            ))}
          </Space>
        )}
      </Descriptions.Item>
    </Descriptions>
  );
}

export function SheetFiles({ sheet }: { sheet: ReviewSheet }) {
  return (
    <FileTable
      workId={sheet.id}
      files={sheet.files}
      requirements={sheet.requirements}
      testId="sheet-files"
      linkTestId="sheet-file-link"
    />
  );
}

export function SheetHistory({ sheet }: { sheet: ReviewSheet }) {
  return <WorkLogTimeline entries={sheet.history} />;
}
