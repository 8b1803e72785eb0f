/**
 * The conflict check's result in the invitation dialog (InviteDialog.tsx): warnings, the
 * feasibility before and with the invitees (overall and per 大类), and per invitee and
 * category the works to avoid by reason.
 */
import { Alert, Descriptions, Space, Table, Tag, Typography } from "antd";
import type { CheckedPerson, ConflictCheck } from "../../shared/judge-invite/schema";

export function CheckResult({ r }: { r: ConflictCheck }) {
  const rows = r.persons.flatMap((p) =>
    p.categories.map((c, i) => ({ key: `${p.key}|${c.categoryId}`, p, c, first: i === 0, span: p.categories.length })),
  );
  const f = (x: { complete: boolean; shortWorks: number; missingReviews: number }) =>
    x.complete ? (
      <Tag color="green">每件作品均可得到 {r.reviewsPerWork} 位无回避评委</Tag>
    ) : (
      <Tag color="red">
        {x.shortWorks} 件作品不足 {r.reviewsPerWork} 位（缺 {x.missingReviews} 次评审）
      </Tag>
    );
  return (
    <Space direction="vertical" style={{ width: "100%" }} data-testid="invite-check">
      {r.warnings.length > 0 ? (
        <Alert
          type="warning"
          showIcon
          message="发送前请留意（不影响发送）"
          description={
            <ul style={{ margin: 0, paddingLeft: 20 }}>
              {r.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          }
          data-testid="invite-check-warnings"
        />
      ) : (
        <Alert type="success" showIcon message="回避检查未发现问题" />
      )}
      <Descriptions size="small" bordered column={2}>
        <Descriptions.Item label="当前作品">
          {r.works} 件（每件 {r.reviewsPerWork} 次评审{r.judgeCapacity ? `，每位评委至多 ${r.judgeCapacity} 件` : ""}
          {r.avoidProvince ? "，回避本省" : ""}）
        </Descriptions.Item>
        <Descriptions.Item label="现有评委 / 本次新增">
          {r.currentJudges} 位 / {r.invitedJudges} 位
        </Descriptions.Item>
        <Descriptions.Item label="仅现有评委">{f(r.before)}</Descriptions.Item>
        <Descriptions.Item label="加上受邀评委">
          <span data-testid="invite-check-after">{f(r.after)}</span>
        </Descriptions.Item>
      </Descriptions>
      {r.byCategory.length > 1 && (
        <Table
          size="small"
          pagination={false}
          rowKey="categoryId"
          dataSource={r.byCategory}
          columns={[
            { title: "大类", dataIndex: "name" },
            { title: "作品", dataIndex: "works" },
            { title: "现有评委时不足", dataIndex: "shortBefore" },
            { title: "加上受邀评委后不足", dataIndex: "shortAfter" },
          ]}
        />
      )}
      <Table
        size="small"
        bordered
        pagination={false}
        rowKey="key"
        dataSource={rows}
        scroll={{ y: 320 }}
        data-testid="invite-check-table"
        columns={[
          {
            title: "受邀人",
            key: "p",
            width: 200,
            onCell: (x) => ({ rowSpan: x.first ? x.span : 0 }),
            render: (_, x: (typeof rows)[number]) => <PersonCell p={x.p} />,
          },
          { title: "类别", key: "c", render: (_, x) => x.c.name },
          { title: "作品", key: "w", width: 60, render: (_, x) => x.c.works },
          {
            title: "须回避",
            key: "e",
            width: 80,
            render: (_, x) => (
              <b style={{ color: x.c.works && x.c.excluded * 2 >= x.c.works ? "#cf1322" : undefined }}>{x.c.excluded}</b>
            ),
          },
          { title: "同校", key: "s", width: 56, render: (_, x) => x.c.school || "" },
          { title: "同省", key: "pr", width: 56, render: (_, x) => x.c.province || "" },
          { title: "申报", key: "d", width: 56, render: (_, x) => x.c.declared || "" },
          { title: "指导", key: "a", width: 56, render: (_, x) => x.c.advisor || "" },
        ]}
      />
      {r.issues.length > 0 && (
        <details>
          <summary>分配可行性检查的详细原因</summary>
          <ul>
            {r.issues.map((i) => (
              <li key={i}>{i}</li>
            ))}
          </ul>
        </details>
      )}
    </Space>
  );
}

function PersonCell({ p }: { p: CheckedPerson }) {
  return (
    <Space direction="vertical" size={0}>
      <span>
        {p.name} {p.hasAccount ? <Tag>有账号</Tag> : <Tag color="blue">无账号</Tag>}
      </span>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {[p.schoolName, p.province].filter(Boolean).join(" · ") || "单位未知"}
      </Typography.Text>
      {p.skip && (
        <Typography.Text type="danger" style={{ fontSize: 12 }}>
          不发送：{p.skip}
        </Typography.Text>
      )}
    </Space>
  );
}
