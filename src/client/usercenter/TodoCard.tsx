/** The to-do centre on /index: what waits for the user, by kind, with counts, due dates and links. */
import { Alert, Badge, Button, Card, Empty, List, Skeleton, Space, Tag, Typography } from "antd";
import { Link } from "react-router";
import { TODO_KIND_NAMES, TODO_KINDS, type TodoItem } from "../../shared/todo/schema";
import { InvitationActions } from "../work/Invitation";
import { PromotionDone } from "./PromotionDone";
import { useTodo, useTodoRefresh } from "../todo/todo-api";
import { fmtTimeLabelled } from "../format";

/** An ISO time as Beijing time (UTC+8, no daylight saving), whatever the browser's zone. */

function Due({ at }: { at: string | null }) {
  if (!at) return null;
  const left = Date.parse(at) - Date.now();
  const color = left < 0 ? "red" : left < 3 * 86400_000 ? "orange" : "default";
  return (
    <Tag color={color} data-testid="todo-due">
      {left < 0 ? "已截止" : "截止"} {fmtTimeLabelled(at)}
    </Tag>
  );
}

function Item({ item, onDone }: { item: TodoItem; onDone: () => void }) {
  const actions = [
    item.kind === "coauthor" && item.workId ? (
      <InvitationActions key="answer" workId={item.workId} version={item.version} onDone={onDone} />
    ) : null,
    item.kind === "promotion" ? <PromotionDone key="done" itemKey={item.key} onDone={onDone} /> : null,
    <Link key="go" to={item.link} data-testid="todo-link">
      <Button size="small" type={item.kind === "coauthor" ? "link" : "primary"}>
        {item.kind === "coauthor" ? "查看作品" : "去处理"}
      </Button>
    </Link>,
  ].filter(Boolean);
  return (
    <List.Item actions={actions} data-testid="todo-item" data-todo-key={item.key}>
      <List.Item.Meta
        title={
          <Space wrap>
            <span>{item.title}</span>
            <Due at={item.dueAt} />
          </Space>
        }
        description={item.detail}
      />
    </List.Item>
  );
}

export function TodoCard() {
  const query = useTodo();
  const refresh = useTodoRefresh();
  const items = query.data?.items ?? [];
  return (
    <Card
      title={
        <Space>
          我的待办
          {query.data ? (
            <Badge
              count={query.data.total}
              overflowCount={9999}
              showZero
              color={query.data.total ? undefined : "#52c41a"}
              data-testid="todo-total"
            />
          ) : null}
        </Space>
      }
      data-testid="todo-card"
    >
      {query.isPending && <Skeleton active />}
      {query.isError && <Alert type="error" showIcon message={query.error.message} />}
      {query.data && !items.length && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无待办事项，一切都处理好了" />}
      {TODO_KINDS.filter((k) => items.some((i) => i.kind === k)).map((k) => {
        const group = items.filter((i) => i.kind === k);
        return (
          <div key={k} style={{ marginBottom: 12 }} data-testid={`todo-kind-${k}`}>
            <Typography.Text strong>{TODO_KIND_NAMES[k]}</Typography.Text>
            <Typography.Text type="secondary">（{group.reduce((s, i) => s + i.count, 0)}）</Typography.Text>
            <List size="small" dataSource={group} renderItem={(i) => <Item item={i} onDone={refresh} />} />
          </div>
        );
      })}
    </Card>
  );
}
