/**
 * A work's team: authors in rank order (confirmed or waiting for their own confirmation)
 * and advising teachers. The first author adds co-authors and teachers by username (same
 * school), reorders and removes them within the category's limits; a co-author may leave.
 * Each change carries the work's version and returns the new view.
 */
import { useState } from "react";
import { Alert, Button, Form, Input, List, Modal, Popconfirm, Space, Tag, Tooltip, Typography } from "antd";
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, MailOutlined, UserAddOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import type { PeopleRole } from "../../../shared/work/people";
import { TEAM_INVITE_DAYS, type TeamInviteView } from "../../../shared/work/invite";
import { fmtTime } from "../../format";
import { PeoplePicker } from "./PeoplePicker";
import type { ClientReply } from "../../request";
import type { WorkAuthorView, WorkTeacherView, WorkView } from "../../../shared/work/schema";
import { isEditable } from "../../../shared/work/states";
import { useTeamInvitations, workApi, workKeys } from "../api";
import { useWorkAction } from "../use-work-action";
import { lockOf, lockText } from "./WorkForm";

export interface TeamEditorProps {
  work: WorkView;
  /** the new view after a change; null when the caller left the work */
  onChanged: (view: WorkView | null) => void;
  reload: () => void;
}

/** Find a person of the work's school and add them; or invite someone without an account by email. */
function AddPerson({
  role,
  workId,
  button,
  testId,
  onAdd,
  onInvite,
  canInvite,
}: {
  role: PeopleRole;
  workId: number;
  button: string;
  testId: string;
  onAdd: (username: string) => Promise<boolean>;
  onInvite: (email: string, name: string) => Promise<boolean>;
  canInvite: boolean;
}) {
  const [value, setValue] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [inviting, setInviting] = useState(false);
  const [form] = Form.useForm<{ name: string; email: string }>();
  const add = async () => {
    if (!value) return;
    setBusy(true);
    if (await onAdd(value)) setValue(undefined);
    setBusy(false);
  };
  const invite = async (v: { name: string; email: string }) => {
    setBusy(true);
    const ok = await onInvite(v.email.trim(), v.name.trim());
    setBusy(false);
    if (ok) {
      setInviting(false);
      form.resetFields();
    }
  };
  return (
    <>
      <Space wrap>
        <Space.Compact style={{ width: 460, maxWidth: "100%" }}>
          <PeoplePicker
            role={role}
            workId={workId}
            value={value}
            onChange={(v: string | undefined) => setValue(v)}
            testId={`${testId}-search`}
          />
          <Button
            type="primary"
            icon={<UserAddOutlined />}
            loading={busy}
            disabled={!value}
            onClick={add}
            data-testid={`${testId}-add`}
          >
            {button}
          </Button>
        </Space.Compact>
        {canInvite && (
          <Button icon={<MailOutlined />} onClick={() => setInviting(true)} data-testid={`${testId}-invite`}>
            对方还没有账号？邮件邀请
          </Button>
        )}
      </Space>
      <Modal
        open={inviting}
        title={role === "author" ? "邮件邀请合作作者" : "邮件邀请指导教师"}
        okText="发送邀请"
        onOk={() => form.submit()}
        confirmLoading={busy}
        onCancel={() => setInviting(false)}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">
          对方会收到一封带链接的邮件，用链接注册{role === "author" ? "本校学生" : "本校教师"}账号后即加入团队
          {role === "author" ? "，并须登录确认参赛" : ""}。链接 {TEAM_INVITE_DAYS}{" "}
          天内有效；等待注册期间占用一个团队名额，作品提交前须注册或撤回。
        </Typography.Paragraph>
        <Form form={form} layout="vertical" onFinish={invite} preserve={false}>
          <Form.Item
            name="name"
            label="姓名"
            rules={[
              { required: true, whitespace: true, message: "请填写对方的姓名" },
              { min: 2, max: 40, message: "姓名为 2–40 个字" },
            ]}
          >
            <Input data-testid={`${testId}-invite-name`} />
          </Form.Item>
          <Form.Item
            name="email"
            label="邮箱"
            rules={[{ required: true, type: "email", message: "请填写正确的邮箱" }, { max: 254 }]}
          >
            <Input data-testid={`${testId}-invite-email`} />
          </Form.Item>
        </Form>
      </Modal>
    </>
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
  const qc = useQueryClient();
  const invites = useTeamInvitations(work.id, editable).data ?? [];
  const invitedAuthors = invites.filter((i) => i.role === "author");
  const invitedTeachers = invites.filter((i) => i.role === "teacher");
  const invite = async (role: PeopleRole, email: string, name: string) => {
    const r = await run(workApi.invite(work.id, { role, email, name, version: work.version }), { reload });
    if (r.error === 0) reload();
    void qc.invalidateQueries({ queryKey: workKeys.invitations(work.id) });
    return r.error === 0;
  };
  const withdraw = async (i: TeamInviteView) => {
    await run(workApi.withdrawInvite(work.id, i.id));
    void qc.invalidateQueries({ queryKey: workKeys.invitations(work.id) });
    reload();
  };
  const pendingList = (rows: TeamInviteView[], testId: string) =>
    rows.length ? (
      <List
        size="small"
        style={{ marginTop: 8 }}
        header={<Typography.Text type="secondary">等待对方通过邮件链接注册</Typography.Text>}
        bordered
        dataSource={rows}
        data-testid={testId}
        renderItem={(i) => (
          <List.Item
            actions={[
              <Popconfirm
                key="w"
                title={`撤回对 ${i.name} 的邀请？`}
                description="撤回后邮件中的链接失效。"
                okText="撤回"
                okButtonProps={{ danger: true }}
                onConfirm={() => withdraw(i)}
              >
                <Button size="small" type="text" danger>
                  撤回
                </Button>
              </Popconfirm>,
            ]}
          >
            <Space wrap>
              <Typography.Text>
                {i.name}（{i.email}）
              </Typography.Text>
              <Tag color="processing">待注册</Tag>
              <Typography.Text type="secondary">链接有效至 {fmtTime(i.expiresAt)}</Typography.Text>
            </Space>
          </List.Item>
        )}
      />
    ) : null;

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
        <Tooltip title="上移" key="up">
          <Button size="small" type="text" icon={<ArrowUpOutlined />} disabled={i <= 1} onClick={() => move(a, -1)} />
        </Tooltip>,
        <Tooltip title="下移" key="down">
          <Button
            size="small"
            type="text"
            icon={<ArrowDownOutlined />}
            disabled={i >= work.authors.length - 1}
            onClick={() => move(a, 1)}
          />
        </Tooltip>,
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
        {pendingList(invitedAuthors, "team-author-invites")}
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
        {pendingList(invitedTeachers, "team-teacher-invites")}
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
        <Popconfirm
          title="退出该作品？"
          description="退出后您不再是该作品的作者，需由第一作者重新添加。"
          okText="退出"
          okButtonProps={{ danger: true }}
          onConfirm={() => apply(workApi.decline(work.id, work.version).then((r) => ({ ...r, data: null })))}
        >
          <Button danger data-testid="team-leave">
            退出该作品
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
}
