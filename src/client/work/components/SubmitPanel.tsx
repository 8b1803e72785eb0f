/**
 * Before submitting: what the server will check, as a list the author can work through
 * (required fields, 小类, team confirmed and within limits, required attachments), then
 * the submit button. The server decides; its refusal is shown here as it says it.
 */
import { useState } from "react";
import { Alert, Button, List, Popconfirm, Space, Typography } from "antd";
import { CheckCircleFilled, CloseCircleFilled, SendOutlined } from "@ant-design/icons";
import type { WorkView } from "../../../shared/work/schema";
import { FIELDS, type WorkField } from "../../../shared/work/fields";
import { useWorkTypeTree } from "../../work-type/use-tree";
import { workApi } from "../api";
import { useWorkAction } from "../use-work-action";
import { useWorkFiles } from "./AttachmentsPanel";

interface Check {
  ok: boolean;
  text: string;
}

export function useSubmitChecks(work: WorkView): Check[] {
  const { tree } = useWorkTypeTree();
  const files = useWorkFiles(work.id);
  const values: Partial<Record<WorkField, unknown>> = {
    name: work.name,
    summary: work.summary,
    designIdea: work.designIdea,
    keyPoints: work.keyPoints,
    aiDeclaration: work.aiDeclaration,
  };
  const empty = (Object.keys(FIELDS) as WorkField[]).filter(
    (k) => FIELDS[k].requiredAtSubmit && (values[k] === null || values[k] === undefined || String(values[k]).trim() === ""),
  );
  const hasSubs = (tree.find((c) => c.id === work.category.id)?.children.filter((c) => !c.archived).length ?? 0) > 0;
  const pending = work.authors.filter((a) => !a.confirmed).map((a) => a.name);
  const { minAuthors, maxAuthors, maxTeachers } = work.rules;
  const checks: Check[] = [
    {
      ok: !empty.length,
      text: empty.length
        ? `请填写${empty.map((k) => `「${FIELDS[k].label}」`).join("、")}`
        : "必填信息已填写（名称、简介、设计思路、重点和难点、AI工具使用声明）",
    },
  ];
  if (hasSubs)
    checks.push({ ok: !!work.subcategory, text: work.subcategory ? `作品小类：${work.subcategory.name}` : "请选择作品小类" });
  checks.push(
    { ok: !pending.length, text: pending.length ? `作者「${pending.join("、")}」尚未确认参赛` : "全部作者已确认参赛" },
    {
      ok: work.authors.length >= minAuthors && work.authors.length <= maxAuthors,
      text: `作者 ${work.authors.length} 名（须 ${minAuthors}–${maxAuthors} 名）`,
    },
    { ok: work.teachers.length <= maxTeachers, text: `指导教师 ${work.teachers.length} 名（最多 ${maxTeachers} 名）` },
  );
  if (tree.find((c) => c.id === work.category.id)?.teacherReviewRequired && work.teachers.length) {
    const filled = !!work.teacherReview?.trim();
    checks.push({
      ok: filled,
      text: filled
        ? "指导老师自评已填写"
        : `指导老师自评未填写（本大类要求）：请提醒指导教师「${work.teachers.map((t) => t.name).join("、")}」在「指导作品」中填写`,
    });
  }
  if (files.data) {
    const missing = files.data.requirements
      .filter((r) => r.required && !files.data.files.some((f) => f.kind === r.key))
      .map((r) => r.name);
    checks.push({ ok: !missing.length, text: missing.length ? `请上传必交材料：${missing.join("、")}` : "必交材料已全部上传" });
  }
  return checks;
}

export function SubmitPanel({ work, onSubmitted, reload }: { work: WorkView; onSubmitted: () => void; reload: () => void }) {
  const run = useWorkAction();
  const checks = useSubmitChecks(work);
  const [refusal, setRefusal] = useState<string>();
  const [busy, setBusy] = useState(false);
  const resubmit = work.viewer.actions.includes("format_resubmit");
  const canSubmit = resubmit || work.viewer.actions.includes("submit");

  const submit = async () => {
    setBusy(true);
    setRefusal(undefined);
    const reply = await run(resubmit ? workApi.formatResubmit(work.id, work.version) : workApi.submit(work.id, work.version), {
      reload,
    });
    setBusy(false);
    if (reply.error === 0) onSubmitted();
    else if (reply.status !== 409 || !/版本/.test(reply.info)) setRefusal(reply.info);
  };

  return (
    <Space direction="vertical" style={{ width: "100%" }} size={12}>
      <List
        size="small"
        bordered
        header={<Typography.Text strong>提交前检查</Typography.Text>}
        dataSource={checks}
        data-testid="submit-checks"
        renderItem={(c) => (
          <List.Item>
            <Space>
              {c.ok ? <CheckCircleFilled style={{ color: "#52c41a" }} /> : <CloseCircleFilled style={{ color: "#ff4d4f" }} />}
              <Typography.Text type={c.ok ? undefined : "danger"}>{c.text}</Typography.Text>
            </Space>
          </List.Item>
        )}
      />
      {refusal && <Alert type="error" showIcon message="未能提交" description={refusal} data-testid="submit-refusal" />}
      {canSubmit ? (
        <Popconfirm
          title={resubmit ? "重新提交形式审查？" : "提交作品？"}
          description={
            resubmit
              ? "提交后由审核员再次审查，审查期间不能修改。"
              : "提交后等待学校审核，审核期间不能修改；学校退回后可修改再提交。"
          }
          okText="提交"
          // The confirmation renders outside the drawer, past its focus trap: its button takes the focus (keyboard users).
          okButtonProps={{ autoFocus: true }}
          onConfirm={() => void submit()}
        >
          <Button type="primary" icon={<SendOutlined />} loading={busy} data-testid="work-submit">
            {resubmit ? "重新提交形式审查" : "提交作品"}
          </Button>
        </Popconfirm>
      ) : (
        <Typography.Text type="secondary">
          {work.viewer.relations.includes("first_author")
            ? `作品当前状态为「${work.statusName}」，不能提交`
            : "由第一作者提交作品"}
        </Typography.Text>
      )}
    </Space>
  );
}
