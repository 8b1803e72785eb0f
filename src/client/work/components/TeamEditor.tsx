/**
 * A work's team: authors in rank order (confirmed or waiting for their own confirmation)
 * and advising teachers. The first author adds co-authors and teachers by username (same
 * school), reorders and removes them within the category's limits; a co-author may leave.
 * Each change carries the work's version and returns the new view (use-team-actions.ts);
 * adding a person and the pending invitations are in TeamParts.tsx.
 */
import { Alert, Button, List, Popconfirm, Space, Tag, Tooltip, Typography } from "antd";
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined } from "@ant-design/icons";
import type { WorkAuthorView, WorkTeacherView, WorkView } from "../../../shared/work/schema";
import { isEditable } from "../../../shared/work/states";
import { workApi } from "../api";
import { AddPerson, LeaveWork, PendingInvites } from "./TeamParts";
import { useTeamActions } from "./use-team-actions";
import { lockOf, lockText } from "./WorkForm";

export interface TeamEditorProps {
  work: WorkView;
  /** the new view after a change; null when the caller left the work */
  onChanged: (view: WorkView | null) => void;
  reload: () => void;
}

const person = (p: { name: string; username: string }) => `${p.name}（${p.username}）`;

/** 上移 or 下移 an author in the rank order: an icon button with its name for screen readers. */
function MoveButton({ up, disabled, onClick }: { up?: boolean; disabled: boolean; onClick: () => void }) {
  const name = up ? "上移" : "下移";
  return (
    <Tooltip title={name}>
      <Button
        size="small"
        type="text"
        icon={up ? <ArrowUpOutlined /> : <ArrowDownOutlined />}
        aria-label={name}
        disabled={disabled}
        onClick={onClick}
      />
    </Tooltip>
  );
}

export function TeamEditor({ work, onChanged, reload }: TeamEditorProps) {
  const first = work.viewer.relations.includes("first_author");
  const editable = work.viewer.canEdit && first;
  const authorLock = lockOf(work, "authors");
  const teacherLock = lockOf(work, "teachers");
  const canAuthors = editable && !authorLock;
  const canTeachers = editable && !teacherLock;
  const { minAuthors, maxAuthors, maxTeachers } = work.rules;
  const { invitedAuthors, invitedTeachers, invite, withdraw, apply, move } = useTeamActions(work, editable, onChanged, reload);

  const authorActions = (a: WorkAuthorView, i: number) => {
    if (a.rank === 1) return [];
    const out = [];
    if (canAuthors) {
      out.push(
        <MoveButton key="up" up disabled={i <= 1} onClick={() => move(a, -1)} />,
        <MoveButton key="down" disabled={i >= work.authors.length - 1} onClick={() => move(a, 1)} />,
        <Popconfirm
          key="rm"
          title={`将 ${person(a)} 移出作品？`}
          okText="移除"
          okButtonProps={{ danger: true }}
          onConfirm={() => apply(workApi.removeAuthor(work.id, a.userId, work.version))}
        >
          <Button size="small" type="text" danger icon={<DeleteOutlined />}>
            移除
          </Button>
        </Popconfirm>,
      );
    }
    return out;
  };

  const teacherActions = (t: WorkTeacherView) =>
    canTeachers
      ? [
          <Popconfirm
            key="rm"
            title={`移除指导教师 ${person(t)}？`}
            okText="移除"
            okButtonProps={{ danger: true }}
            onConfirm={() => apply(workApi.removeTeacher(work.id, t.userId, work.version))}
          >
            <Button size="small" type="text" danger icon={<DeleteOutlined />}>
              移除
            </Button>
          </Popconfirm>,
        ]
      : [];

  return (
    <Space direction="vertical" size={20} style={{ width: "100%" }} data-testid="team-editor">
      <div>
        <Typography.Title level={5}>
          作者（{work.authors.length}/{maxAuthors}，至少 {minAuthors} 名）
        </Typography.Title>
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
        <PendingInvites rows={invitedAuthors} testId="team-author-invites" onWithdraw={withdraw} />
        {canAuthors && work.authors.length + invitedAuthors.length < maxAuthors && (
          <div style={{ marginTop: 8 }}>
            <AddPerson
              role="author"
              workId={work.id}
              button="添加作者"
              testId="team-author"
              canInvite
              onAdd={(u) => apply(workApi.addAuthor(work.id, u, work.version))}
              onInvite={(e, n) => invite("author", e, n)}
            />
            <Typography.Paragraph type="secondary" style={{ marginTop: 4, marginBottom: 0 }}>
              按姓名、学号或用户名查找{work.school?.name ? `${work.school.name}的` : "同校"}
              同学；添加后须由该同学登录本平台确认参赛，全部作者确认后作品才能提交。
            </Typography.Paragraph>
          </div>
        )}
      </div>
      <div>
        <Typography.Title level={5}>
          指导教师（{work.teachers.length}/{maxTeachers}）
        </Typography.Title>
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
        <PendingInvites rows={invitedTeachers} testId="team-teacher-invites" onWithdraw={withdraw} />
        {canTeachers && work.teachers.length + invitedTeachers.length < maxTeachers && (
          <div style={{ marginTop: 8 }}>
            <AddPerson
              role="teacher"
              workId={work.id}
              button="添加指导教师"
              testId="team-teacher"
              canInvite
              onAdd={(u) => apply(workApi.addTeacher(work.id, u, work.version))}
              onInvite={(e, n) => invite("teacher", e, n)}
            />
          </div>
        )}
      </div>
      {!first && work.viewer.relations.includes("author") && isEditable(work.status) && (
        <LeaveWork onConfirm={() => apply(workApi.decline(work.id, work.version).then((r) => ({ ...r, data: null })))} />
      )}
    </Space>
  );
}
