/**
 * The judge groups of a contest: scope (大类 / 小类 / 普通-专业组), leader, judges, works
 * and assignments; create, edit, delete (refused while the group has assignments), and the
 * group's drawer with its judges, works and offline defence.
 */
import { useState } from "react";
import { Button, Popconfirm, Space, Table, Tag, Typography } from "antd";
import { PlusOutlined } from "@ant-design/icons";
import type { ContestJudge, JudgeGroupView } from "../../../shared/judging/schema";
import { judgingApi, useJudgingRefresh } from "./api";
import { GroupDrawer } from "./GroupDrawer";
import { GroupFormModal } from "./GroupFormModal";
import { useOpenAfterClose } from "../../components/open-after-close";

export function GroupsTab({
  contestId,
  groups,
  judges,
  loading,
}: {
  contestId: number;
  groups: JudgeGroupView[];
  judges: ContestJudge[];
  loading: boolean;
}) {
  const refresh = useJudgingRefresh(contestId);
  const [form, setForm] = useState<{ group: JudgeGroupView | null } | null>(null);
  const [openId, setOpenId] = useState<number | null>(null);
  // A new group opens in its drawer once the form has closed (focus: open-after-close.ts).
  const openCreated = useOpenAfterClose(setOpenId);
  const open = groups.find((g) => g.id === openId) ?? null;
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setForm({ group: null })} data-testid="group-create">
          新建评审组
        </Button>
        <Typography.Text type="secondary">
          每个评审组评审一个大类（可细分到小类和普通/专业组）的作品；作品按类别分入最具体的匹配组。
        </Typography.Text>
      </Space>
      <Table<JudgeGroupView>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={groups}
        pagination={false}
        locale={{ emptyText: "还没有评审组，请先新建" }}
        data-testid="groups-table"
      >
        <Table.Column<JudgeGroupView>
          title="评审组"
          dataIndex="name"
          render={(n: string, g) => (
            <a onClick={() => setOpenId(g.id)} data-testid="group-open">
              {n}
            </a>
          )}
        />
        <Table.Column<JudgeGroupView> title="范围" dataIndex="scope" />
        <Table.Column<JudgeGroupView>
          title="专家组长"
          render={(_, g) => g.leader?.name ?? <Typography.Text type="secondary">未指定</Typography.Text>}
        />
        <Table.Column<JudgeGroupView>
          title="评委"
          render={(_, g) => (
            <Space size={[4, 4]} wrap style={{ maxWidth: 360 }}>
              {g.judges.length ? g.judges.map((j) => <Tag key={j.id}>{j.name}</Tag>) : <Tag color="orange">无评委</Tag>}
            </Space>
          )}
        />
        <Table.Column<JudgeGroupView> title="作品" dataIndex="workCount" width={70} />
        <Table.Column<JudgeGroupView> title="分配" dataIndex="assignmentCount" width={70} />
        <Table.Column<JudgeGroupView>
          title="操作"
          render={(_, g) => (
            <Space size={0}>
              <Button type="link" size="small" onClick={() => setOpenId(g.id)}>
                管理评委与作品
              </Button>
              <Button type="link" size="small" onClick={() => setForm({ group: g })}>
                编辑
              </Button>
              <Popconfirm
                title={`删除评审组「${g.name}」？组内作品将回到未分组。`}
                okText="删除"
                okButtonProps={{ danger: true }}
                cancelText="取消"
                onConfirm={async () => (await judgingApi.deleteGroup(g.id)).error === 0 && refresh()}
              >
                <Button type="link" size="small" danger>
                  删除
                </Button>
              </Popconfirm>
            </Space>
          )}
        />
      </Table>
      <GroupFormModal
        contestId={contestId}
        open={!!form}
        group={form?.group ?? null}
        judges={judges}
        onClose={() => setForm(null)}
        onSaved={(g) => {
          refresh();
          if (!form?.group) openCreated.open(g.id);
        }}
        afterClose={openCreated.afterClose}
      />
      <GroupDrawer
        contestId={contestId}
        group={open}
        groups={groups}
        judges={judges}
        onClose={() => setOpenId(null)}
        onEdit={(g) => setForm({ group: g })}
      />
    </>
  );
}
