/**
 * A work's fields read-only (for co-authors, and once the work can no longer be changed):
 * category, group, the long texts, deployment links and the AI-tool declaration.
 */
import { Descriptions, Empty, Table, Typography } from "antd";
import type { AiToolUse, WorkView } from "../../../shared/work/schema";
import { FIELDS } from "../../../shared/work/fields";

const TEXTS = ["summary", "designIdea", "keyPoints", "openSource", "installGuide", "teacherReview", "otherNotes"] as const;

const Text = ({ v }: { v: string | null }) =>
  v ? (
    <Typography.Paragraph
      style={{ whiteSpace: "pre-wrap", margin: 0 }}
      ellipsis={{ rows: 6, expandable: "collapsible", symbol: (e) => (e ? "收起" : "展开") }}
    >
      {v}
    </Typography.Paragraph>
  ) : (
    <Typography.Text type="secondary">未填写</Typography.Text>
  );

const Link = ({ v }: { v: string | null }) =>
  v ? (
    <Typography.Link href={v} target="_blank" rel="noopener noreferrer">
      {v}
    </Typography.Link>
  ) : (
    <Typography.Text type="secondary">未填写</Typography.Text>
  );

export function AiDeclarationView({ d }: { d: WorkView["aiDeclaration"] }) {
  if (!d) return <Typography.Text type="secondary">未填写</Typography.Text>;
  if (!d.used) return <span>未使用AI工具</span>;
  if (!d.tools.length) return <Empty description="未填写工具" />;
  return (
    <Table<AiToolUse> dataSource={d.tools} rowKey={(_, i) => String(i)} size="small" pagination={false} bordered>
      <Table.Column<AiToolUse> title="工具" render={(_, t) => `${t.tool}${t.version ? ` ${t.version}` : ""}`} />
      <Table.Column<AiToolUse> title="访问方式与时间" dataIndex="access" />
      <Table.Column<AiToolUse> title="使用阶段与用途" dataIndex="purpose" />
      <Table.Column<AiToolUse>
        title="关键提示词"
        dataIndex="prompts"
        render={(v: string) => (
          <Typography.Paragraph style={{ margin: 0 }} ellipsis={{ rows: 3, expandable: true, symbol: "展开" }}>
            {v}
          </Typography.Paragraph>
        )}
      />
      <Table.Column<AiToolUse>
        title="关键输出"
        dataIndex="output"
        render={(v: string) => (
          <Typography.Paragraph style={{ margin: 0 }} ellipsis={{ rows: 3, expandable: true, symbol: "展开" }}>
            {v}
          </Typography.Paragraph>
        )}
      />
      <Table.Column<AiToolUse>
        title="人工修改"
        dataIndex="edits"
        render={(v: string) => (
          <Typography.Paragraph style={{ margin: 0 }} ellipsis={{ rows: 3, expandable: true, symbol: "展开" }}>
            {v}
          </Typography.Paragraph>
        )}
      />
      <Table.Column<AiToolUse> title="采纳比例" dataIndex="adoption" width={90} render={(v: number) => `${v}%`} />
    </Table>
  );
}

export function WorkFieldsView({ work }: { work: WorkView }) {
  return (
    <Descriptions bordered column={1} size="middle" styles={{ label: { width: 200 } }} data-testid="work-fields-view">
      <Descriptions.Item label="作品名称">{work.name}</Descriptions.Item>
      <Descriptions.Item label="作品大类 / 小类">
        {work.category.name}
        {work.subcategory ? ` / ${work.subcategory.name}` : ""}
      </Descriptions.Item>
      <Descriptions.Item label="组别">{work.groupName}</Descriptions.Item>
      {TEXTS.map((k) => (
        <Descriptions.Item key={k} label={FIELDS[k].label}>
          <Text v={work[k]} />
        </Descriptions.Item>
      ))}
      <Descriptions.Item label="部署链接1">
        <Link v={work.deployLink1} />
      </Descriptions.Item>
      <Descriptions.Item label="部署链接2">
        <Link v={work.deployLink2} />
      </Descriptions.Item>
      <Descriptions.Item label="AI工具使用声明">
        <AiDeclarationView d={work.aiDeclaration} />
      </Descriptions.Item>
    </Descriptions>
  );
}
