/**
 * A work's team: authors in rank order (confirmed or waiting for their own confirmation)
 * and advising teachers. The first author adds co-authors and teachers by username (same
 * school), reorders and removes them within the category's limits; a co-author may leave.
 * Each change carries the work's version and returns the new view.
 */
import { useState } from "react";
import { Alert, Button, Input, List, Popconfirm, Space, Tag, Tooltip, Typography } from "antd";
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, UserAddOutlined } from "@ant-design/icons";
import type { ClientReply } from "../../request";
import type { WorkAuthorView, WorkTeacherView, WorkView } from "../../../shared/work/schema";
import { isEditable } from "../../../shared/work/states";
import { workApi } from "../api";
import { useWorkAction } from "../use-work-action";
import { lockOf, lockText } from "./WorkForm";

export interface TeamEditorProps {
  work: WorkView;
  /** the new view after a change; null when the caller left the work */
  onChanged: (view: WorkView | null) => void;
  reload: () => void;
}

function AddByUsername({ placeholder, button, testId, onAdd }: { placeholder: string; button: string; testId: string; onAdd: (username: string) => Promise<boolean> }) {
  const [value, setValue] = useState("");
  const [busy, setBusy] = useState(false);
  const add = async () => {
    const u = value.trim();
    if (!u) return;
    setBusy(true);
    if (await onAdd(u)) setValue("");
    setBusy(false);
  };
  return (
    <Space.Compact style={{ width: 360, maxWidth: "100%" }}>
      <Input value={value} onChange={(e) => setValue(e.target.value)} onPressEnter={add} placeholder={placeholder} data-testid={`${testId}-input`} />
      <Button type="primary" icon={<UserAddOutlined />} loading={busy} onClick={add} data-testid={`${testId}-add`}>{button}</Button>
    </Space.Compact>
  );
}

const person = (p: { name: string; username: string }) => `${p.name}（${p.username}）`;

export function TeamEditor({ work, onChanged, reload }: TeamEditorProps) {
  const run = useWorkAction();
  const first = work.viewer.relations.includes("first_author");
  const editable = work.viewer.canEdit && first;
  const authorLock = lockOf(work, "authors");
  const teacherLock = lockOf(work, "teachers");
  const canAuthors = editable && !authorLock;
  const canTeachers = editable && !teacherLock;
  const { minAuthors, maxAuthors, maxTeachers } = work.rules;

  const apply = async (p: Promise<ClientReply<WorkView | null>>) => {
    const r = await run(p, { reload });
    if (r.error === 0) onChanged(r.data ?? null);
    return r.error === 0;
  };
  const move = (a: WorkAuthorView, by: -1 | 1) => {
    const ids = work.authors.map((x) => x.userId);
    const i = ids.indexOf(a.userId);
    [ids[i], ids[i + by]] = [ids[i + by], ids[i]];
    return apply(workApi.reorder(work.id, ids, work.version));
  };

  const authorActions = (a: WorkAuthorView, i: number) => {
    if (a.rank === 1) return [];
    const out = [];
    if (canAuthors) {
      out.push(
        <Tooltip title="上移" key="up"><Button size="small" type="text" icon={<ArrowUpOutlined />} disabled={i <= 1} onClick={() => move(a, -1)} /></Tooltip>,
        <Tooltip title="下移" key="down"><Button size="small" type="text" icon={<ArrowDownOutlined />} disabled={i >= work.authors.length - 1} onClick={() => move(a, 1)} /></Tooltip>,
        <Popconfirm key="rm" title={`将 ${person(a)} 移出作品？`} okText="移除" okButtonProps={{ danger: true }} onConfirm={() => apply(workApi.removeAuthor(work.id, a.userId, work.version))}>
          <Button size="small" type="text" danger icon={<DeleteOutlined />}>移除</Button>
        </Popconfirm>,
      );
    }
    return out;
  };

  const teacherActions = (t: WorkTeacherView) =>
    canTeachers
      ? [
          <Popconfirm key="rm" title={`移除指导教师 ${person(t)}？`} okText="移除" okButtonProps={{ danger: true }} onConfirm={() => apply(workApi.removeTeacher(work.id, t.userId, work.version))}>
            <Button size="small" type="text" danger icon={<DeleteOutlined />}>移除</Button>
          </Popconfirm>,
        ]
      : [];

  return (
    <Space direction="vertical" size={20} style={{ width: "100%" }} data-testid="team-editor">
      <div>
        <Typography.Title level={5}>作者（{work.authors.length}/{maxAuthors}，至少 {minAuthors} 名）</Typography.Title>
        {authorLock && <Alert type="warning" showIcon message={lockText(authorLock)} style={{ marginBottom: 8 }} />}
        <List
          bordered
          size="small"
          dataSource={work.authors}
          data-testid="team-authors"
          renderItem={(a, i) => (
            <List.Item actions={authorActions(a, i)}>
              <Space wrap>
                <Tag>{a.rank === 1 ? "第一作者" : `第${a.rank}作者`}</Tag>
                <Typography.Text strong>{person(a)}</Typography.Text>
                {a.majorName && <Typography.Text type="secondary">{a.majorName}</Typography.Text>}
                {a.confirmed ? <Tag color="success">已确认</Tag> : <Tag color="warning">待本人确认</Tag>}
              </Space>
            </List.Item>
          )}
        />
        {canAuthors && work.authors.length < maxAuthors && (
          <div style={{ marginTop: 8 }}>
            <AddByUsername placeholder="同校学生的用户名" button="添加作者" testId="team-author" onAdd={(u) => apply(workApi.addAuthor(work.id, u, work.version))} />
            <Typography.Paragraph type="secondary" style={{ marginTop: 4, marginBottom: 0 }}>添加后须由该同学登录本平台确认参赛；全部作者确认后作品才能提交。</Typography.Paragraph>
          </div>
        )}
      </div>
      <div>
        <Typography.Title level={5}>指导教师（{work.teachers.length}/{maxTeachers}）</Typography.Title>
        {teacherLock && <Alert type="warning" showIcon message={lockText(teacherLock)} style={{ marginBottom: 8 }} />}
        <List
          bordered
          size="small"
          dataSource={work.teachers}
          locale={{ emptyText: "暂无指导教师" }}
          data-testid="team-teachers"
          renderItem={(t) => (
            <List.Item actions={teacherActions(t)}>
              <Space wrap>
                <Tag>{`指导教师${t.rank}`}</Tag>
                <Typography.Text strong>{person(t)}</Typography.Text>
              </Space>
            </List.Item>
          )}
        />
        {canTeachers && work.teachers.length < maxTeachers && (
          <div style={{ marginTop: 8 }}>
            <AddByUsername placeholder="本校教师的用户名" button="添加指导教师" testId="team-teacher" onAdd={(u) => apply(workApi.addTeacher(work.id, u, work.version))} />
          </div>
        )}
      </div>
      {!first && work.viewer.relations.includes("author") && isEditable(work.status) && (
        <Popconfirm title="退出该作品？" description="退出后您不再是该作品的作者，需由第一作者重新添加。" okText="退出" okButtonProps={{ danger: true }} onConfirm={() => apply(workApi.decline(work.id, work.version).then((r) => ({ ...r, data: null })))}>
          <Button danger data-testid="team-leave">退出该作品</Button>
        </Popconfirm>
      )}
    </Space>
  );
}
