/** The read-only sections of /workDetail/:workId: basics, status reasons, team, texts, AI declaration. */
import { Alert, Descriptions, Empty, Table, Tag, Typography } from "antd";
import type { AiToolUse, WorkAuthorView, WorkTeacherView, WorkView } from "../../../shared/work/schema";
import { FIELDS, TEXT_FIELDS } from "../../../shared/work/fields";
import { StatusTag } from "../../work/components/StatusTag";
import { fmtTime } from "../../format";
import { RevealPhone } from "../../components/RevealPhone";
import { useSession } from "../../providers/use-session";

const dash = (v: string | null | undefined) => v || "—";

export function BasicInfo({ work }: { work: WorkView }) {
  return (
    <Descriptions column={{ xs: 1, md: 2, xl: 3 }} size="small" data-testid="work-basic">
      <Descriptions.Item label="作品编号">{work.id}</Descriptions.Item>
      <Descriptions.Item label="状态">
        <StatusTag status={work.status} name={work.statusName} />
      </Descriptions.Item>
      <Descriptions.Item label="赛事">{work.contest.name}</Descriptions.Item>
      <Descriptions.Item label="学校">{work.school.name}</Descriptions.Item>
      <Descriptions.Item label="大类 / 小类">
        {work.category.name}
        {work.subcategory ? ` / ${work.subcategory.name}` : ""}
      </Descriptions.Item>
      <Descriptions.Item label="组别">{work.groupName}</Descriptions.Item>
      <Descriptions.Item label="创建时间">{fmtTime(work.createdAt)}</Descriptions.Item>
      <Descriptions.Item label="提交时间">{fmtTime(work.submittedAt)}</Descriptions.Item>
      <Descriptions.Item label="最后修改">{fmtTime(work.updatedAt)}</Descriptions.Item>
      {(["deployLink1", "deployLink2"] as const).map((k) =>
        work[k] ? (
          <Descriptions.Item key={k} label={FIELDS[k].label}>
            <a href={work[k]!} target="_blank" rel="noreferrer noopener">
              {work[k]}
            </a>
          </Descriptions.Item>
        ) : null,
      )}
    </Descriptions>
  );
}

export function StatusReasons({ work }: { work: WorkView }) {
  return (
    <>
      {work.disqualifyReason && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          message="已取消资格"
          description={work.disqualifyReason}
          data-testid="disqualify-reason"
        />
      )}
      {work.returnReason && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          message={work.status === "returned" ? "退回修改的原因" : "最近一次退回的原因"}
          description={work.returnReason}
          data-testid="return-reason"
        />
      )}
    </>
  );
}

export function TeamTables({ work }: { work: WorkView }) {
  // Phones come masked; root and the work's school admin (who manage these accounts) reveal one, audited.
  const { allows } = useSession();
  const mayReveal = allows(["api.phoneReveal", "read"]) && work.viewer.relations.some((r) => r === "root" || r === "school");
  const phone = (p: string | null, m: { userId: number; name: string }) => (
    <RevealPhone phone={p} url={`/Backend/Admin/user/${m.userId}/phone`} canReveal={mayReveal} owner={`${m.name}的`} />
  );
  return (
    <>
      <Typography.Title level={5}>作者</Typography.Title>
      <Table<WorkAuthorView> size="small" rowKey="userId" pagination={false} dataSource={work.authors} data-testid="work-authors">
        <Table.Column<WorkAuthorView> dataIndex="rank" title="排名" width={60} />
        <Table.Column<WorkAuthorView>
          dataIndex="name"
          title="姓名"
          render={(n: string, a) => (
            <>
              {n} {!a.confirmed && <Tag color="orange">待确认</Tag>}
            </>
          )}
        />
        <Table.Column<WorkAuthorView> dataIndex="username" title="用户名" />
        <Table.Column<WorkAuthorView> dataIndex="memberNo" title="学号" render={dash} />
        <Table.Column<WorkAuthorView>
          dataIndex="majorName"
          title="专业"
          render={(m: string | null, a) => (m ? `${m}（${a.majorCode}）` : "—")}
        />
        <Table.Column<WorkAuthorView> dataIndex="phone" title="电话" render={(p: string | null, a) => phone(p, a)} />
        <Table.Column<WorkAuthorView> dataIndex="email" title="邮箱" render={dash} />
      </Table>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        指导教师
      </Typography.Title>
      <Table<WorkTeacherView>
        size="small"
        rowKey="userId"
        pagination={false}
        dataSource={work.teachers}
        locale={{ emptyText: "无指导教师" }}
        data-testid="work-teachers"
      >
        <Table.Column<WorkTeacherView> dataIndex="rank" title="排名" width={60} />
        <Table.Column<WorkTeacherView> dataIndex="name" title="姓名" />
        <Table.Column<WorkTeacherView> dataIndex="username" title="用户名" />
        <Table.Column<WorkTeacherView> dataIndex="memberNo" title="工号" render={dash} />
        <Table.Column<WorkTeacherView> dataIndex="phone" title="电话" render={(p: string | null, t) => phone(p, t)} />
        <Table.Column<WorkTeacherView> dataIndex="email" title="邮箱" render={dash} />
      </Table>
    </>
  );
}

export function TextFields({ work }: { work: WorkView }) {
  return (
    <Descriptions column={1} bordered size="small" labelStyle={{ width: 200 }} data-testid="work-texts">
      {TEXT_FIELDS.map((k) => (
        <Descriptions.Item key={k} label={FIELDS[k].label}>
          {work[k] ? (
            <Typography.Paragraph style={{ whiteSpace: "pre-wrap", margin: 0 }}>{work[k]}</Typography.Paragraph>
          ) : (
            <Typography.Text type="secondary">未填写</Typography.Text>
          )}
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}

export function AiDeclarationView({ work }: { work: WorkView }) {
  const d = work.aiDeclaration;
  if (!d) return <Empty description="尚未填写 AI 工具使用声明" />;
  if (!d.used) return <Typography.Paragraph>声明：本作品未使用 AI 工具。</Typography.Paragraph>;
  return (
    <Table<AiToolUse>
      size="small"
      rowKey={(_, i) => String(i)}
      pagination={false}
      dataSource={d.tools}
      scroll={{ x: "max-content" }}
    >
      <Table.Column<AiToolUse>
        dataIndex="tool"
        title="工具"
        render={(t: string, r) => `${t}${r.version ? ` ${r.version}` : ""}`}
      />
      <Table.Column<AiToolUse> dataIndex="access" title="访问方式与时间" />
      <Table.Column<AiToolUse> dataIndex="purpose" title="使用阶段与用途" />
      <Table.Column<AiToolUse> dataIndex="prompts" title="关键提示词" />
      <Table.Column<AiToolUse> dataIndex="output" title="关键输出" />
      <Table.Column<AiToolUse> dataIndex="edits" title="人工修改" />
      <Table.Column<AiToolUse> dataIndex="adoption" title="采纳比例" render={(n: number) => `${n}%`} />
    </Table>
  );
}
