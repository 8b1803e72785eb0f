/**
 * A complaint as handlers, arbitrators and root see it (in a drawer of their list): the
 * work, the filer (the server sends the identity only to these viewers), text and evidence,
 * refusal / opinion / decision / arbitration, the history, and the step forms of this desk.
 */
import { Alert, Descriptions, Divider, Drawer, Result, Skeleton, Space, Typography } from "antd";
import type { HandlerComplaintView } from "../../shared/complaint/schema";
import {
  ARBITRATION_OUTCOME_NAMES,
  COMPLAINT_CATEGORY_NAMES,
  DECISION_ACTION_NAMES,
  DECISION_OUTCOME_NAMES,
} from "../../shared/complaint/states";
import { WORK_STATE_NAMES, type WorkState } from "../../shared/work/states";
import { fmtTime } from "../format";
import { MANAGE, useComplaintRefresh, useHandlerComplaint, type HandlerDesk } from "./api";
import { RevealPhone } from "../components/RevealPhone";
import { useSession } from "../providers/use-session";
import { ComplaintHistory } from "./History";
import { Due, EvidenceLinks, StateTag, TextBlock, TypeTag } from "./parts";
import { StepForms } from "./StepForms";

const KIND_NAMES: Record<string, string> = { visitor: "访客（已验证邮箱）" };

function Body({ c, desk, onDone }: { c: HandlerComplaintView; desk: HandlerDesk; onDone: () => void }) {
  const w = c.work;
  const { allows } = useSession();
  return (
    <Space direction="vertical" size={12} style={{ width: "100%" }} data-testid="handler-complaint">
      <Space wrap>
        <TypeTag type={c.type} />
        <StateTag state={c.state} />
        <Typography.Text type="secondary">
          {COMPLAINT_CATEGORY_NAMES[c.category]} · 提交于 {fmtTime(c.createdAt)}
        </Typography.Text>
        <Due dueAt={c.dueAt} overdue={c.overdue} />
      </Space>
      <Descriptions title="作品" size="small" bordered column={2} data-testid="handler-work">
        <Descriptions.Item label="作品">{`${w.name}（${w.id}）`}</Descriptions.Item>
        <Descriptions.Item label="状态">{WORK_STATE_NAMES[w.status as WorkState] ?? w.status}</Descriptions.Item>
        <Descriptions.Item label="学校">{w.schoolName}</Descriptions.Item>
        <Descriptions.Item label="类别">{w.categoryName}</Descriptions.Item>
        <Descriptions.Item label="作者">{w.authors.join("、") || "—"}</Descriptions.Item>
        <Descriptions.Item label="指导教师">{w.teachers.join("、") || "—"}</Descriptions.Item>
        <Descriptions.Item label="当前奖项">{w.award ?? "—"}</Descriptions.Item>
        <Descriptions.Item label="评委">{w.judges.map((j) => j.name).join("、") || "—"}</Descriptions.Item>
        <Descriptions.Item label="赛事" span={2}>
          {c.contestName}
        </Descriptions.Item>
      </Descriptions>
      <Descriptions
        title={c.type === "appeal" ? "申诉人" : "投诉人"}
        size="small"
        bordered
        column={2}
        data-testid="handler-filer"
      >
        <Descriptions.Item label="姓名">{c.filer.name}</Descriptions.Item>
        <Descriptions.Item label="身份">{KIND_NAMES[c.filer.kind] ?? c.filer.kind}</Descriptions.Item>
        <Descriptions.Item label="邮箱">{c.filer.email ?? "—"}</Descriptions.Item>
        <Descriptions.Item label="手机">
          {/* Masked by the server; handlers reveal it to call back (audited). */}
          <RevealPhone
            phone={c.filer.phone}
            url={`${MANAGE}/complaints/${c.id}/filer-phone`}
            canReveal={allows(["api.phoneReveal", "read"])}
            owner={c.type === "appeal" ? "申诉人的" : "投诉人的"}
          />
        </Descriptions.Item>
      </Descriptions>
      <div>
        <Typography.Title level={5}>内容</Typography.Title>
        <TextBlock text={c.text} testId="handler-text" />
      </div>
      <div>
        <Typography.Title level={5}>证据材料</Typography.Title>
        <EvidenceLinks files={c.evidence} />
      </div>
      {c.refusal && <Alert type="warning" showIcon message="不予受理" description={c.refusal} />}
      {c.opinion && (
        <Alert
          type="info"
          data-testid="handler-opinion"
          message={`审核意见（${c.opinion.by}，${fmtTime(c.opinion.at)}）：${DECISION_OUTCOME_NAMES[c.opinion.outcome]} · ${DECISION_ACTION_NAMES[c.opinion.action]}`}
          description={<TextBlock text={c.opinion.text} />}
        />
      )}
      {c.decision && (
        <Alert
          type="success"
          data-testid="handler-decision"
          message={`处理决定（${fmtTime(c.decision.at)}）：${DECISION_OUTCOME_NAMES[c.decision.outcome]} · ${DECISION_ACTION_NAMES[c.decision.action]}${c.decision.award ? `（${c.decision.award.name}）` : ""}`}
          description={
            <>
              <TextBlock text={c.decision.text} />
              {c.decision.effect && <Typography.Text type="secondary">执行结果：{c.decision.effect}</Typography.Text>}
              {c.decision.rejudge && (
                <div>
                  <Typography.Text type="secondary" data-testid="rejudge-status">
                    重新评审：新评委 {c.decision.rejudge.judgeIds.length} 位，
                    {c.decision.rejudge.appliedAt
                      ? `已于 ${fmtTime(c.decision.rejudge.appliedAt)} 以新评分替换原评分`
                      : "新评分尚未替换原评分（全部新评委提交后由申诉管理员替换）"}
                  </Typography.Text>
                </div>
              )}
              {c.arbitrationDueAt && (
                <div>
                  <Typography.Text type="secondary">仲裁申请截止：{fmtTime(c.arbitrationDueAt)}</Typography.Text>
                </div>
              )}
            </>
          }
        />
      )}
      {c.arbitration && (
        <Alert
          type="warning"
          data-testid="handler-arbitration"
          message={`仲裁申请（${c.arbitration.requestedBy}，${fmtTime(c.arbitration.requestedAt)}）`}
          description={
            <>
              <TextBlock text={c.arbitration.reason} />
              {c.arbitration.outcome && (
                <div style={{ marginTop: 8 }}>
                  <Typography.Text strong>
                    仲裁结论：{ARBITRATION_OUTCOME_NAMES[c.arbitration.outcome]}
                    {c.arbitration.revised &&
                      `（${DECISION_OUTCOME_NAMES[c.arbitration.revised.outcome]} · ${DECISION_ACTION_NAMES[c.arbitration.revised.action]}${c.arbitration.revised.award ? ` · ${c.arbitration.revised.award.name}` : ""}）`}
                    {c.arbitration.at && ` · ${fmtTime(c.arbitration.at)}`}
                  </Typography.Text>
                  <TextBlock text={c.arbitration.text} />
                  {c.arbitration.confirmedAt && (
                    <Typography.Text type="secondary">
                      已于 {fmtTime(c.arbitration.confirmedAt)} 确认生效{c.arbitration.effect ? `：${c.arbitration.effect}` : ""}
                    </Typography.Text>
                  )}
                </div>
              )}
            </>
          }
        />
      )}
      <Divider style={{ margin: "8px 0" }} />
      <StepForms key={c.version} c={c} desk={desk} onDone={onDone} />
      <Typography.Title level={5}>处理记录</Typography.Title>
      <ComplaintHistory entries={c.history} />
    </Space>
  );
}

export function HandlerDrawer({ desk, id, onClose }: { desk: HandlerDesk; id: number | undefined; onClose: () => void }) {
  const q = useHandlerComplaint(desk, id);
  const refresh = useComplaintRefresh();
  return (
    <Drawer
      open={!!id}
      width={860}
      onClose={onClose}
      title={id ? `申诉/投诉 编号 ${id}` : ""}
      destroyOnClose
      data-testid="complaint-drawer"
    >
      {q.isLoading && <Skeleton active />}
      {q.isError && <Result status="404" title={q.error.message} />}
      {q.data && <Body c={q.data} desk={desk} onDone={refresh} />}
    </Drawer>
  );
}
