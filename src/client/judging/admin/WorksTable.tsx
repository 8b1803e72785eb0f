/**
 * The works the contest judges (provincial and national: those that passed format review)
 * with their judge group and judges: filters (group, not grouped, 大类, keyword, fewer
 * judges than N), selected works put in a group by hand, one more judge for a work, a
 * judge removed from a work, a work taken out of its group. Used on the works tab of
 * /ContestAdmin/Group and, for one group, in the group's drawer.
 */
import { useState } from "react";
import { Button, Checkbox, Form, Input, Popconfirm, Select, Space, Table, Tag, Typography } from "antd";
import type { ContestJudge, JudgeGroupView, PoolFilters, PoolWork } from "../../../shared/judging/schema";
import { GROUP_NAMES } from "../../../shared/work/fields";
import { useCategoryOptions } from "../../work-type/use-tree";
import { judgingApi, useJudgingRefresh, usePool } from "./api";
import { AssignJudgeModal, JudgeTags } from "./AssignParts";
import { rowCheckbox } from "../../components/row-checkbox";

const UNGROUPED = -1;

export function WorksTable({
  contestId,
  groups,
  judges,
  groupId,
}: {
  contestId: number;
  groups: JudgeGroupView[];
  judges: ContestJudge[];
  groupId?: number;
}) {
  const [f, setF] = useState<PoolFilters & { current: number; pageSize: number }>({
    current: 1,
    pageSize: 20,
    ...(groupId ? { groupId } : {}),
  });
  const pool = usePool(contestId, f);
  const refresh = useJudgingRefresh(contestId);
  const [selected, setSelected] = useState<number[]>([]);
  const [target, setTarget] = useState<number>();
  const [assigning, setAssigning] = useState<PoolWork | null>(null);
  const [busy, setBusy] = useState(false);

  const moveSelected = async () => {
    if (!target || !selected.length) return;
    setBusy(true);
    const reply = await judgingApi.addWorks(target, selected);
    setBusy(false);
    if (reply.error === 0) {
      setSelected([]);
      refresh();
    }
  };
  const groupOf = (w: PoolWork) => groups.find((g) => g.id === w.judgeGroup?.id);

  return (
    <>
      <PoolFilterForm groupId={groupId} groups={groups} pageSize={f.pageSize} setF={setF} />
      {!groupId && (
        <Space style={{ marginBottom: 12 }} wrap>
          <Select
            placeholder="选择评审组"
            aria-label="选择评审组"
            style={{ width: 220 }}
            value={target}
            onChange={setTarget}
            options={groups.map((g) => ({ value: g.id, label: `${g.name}（${g.scope}）` }))}
            data-testid="move-target"
          />
          <Button disabled={!selected.length || !target} loading={busy} onClick={moveSelected} data-testid="move-selected">
            把选中的 {selected.length || ""} 件作品分入该组
          </Button>
          <Typography.Text type="secondary">已分配评委的作品不能换组，请先移除分配。</Typography.Text>
        </Space>
      )}
      <Table<PoolWork>
        rowKey="id"
        size="small"
        loading={pool.isFetching}
        dataSource={pool.data?.list ?? []}
        scroll={{ x: "max-content" }}
        data-testid={groupId ? "group-works-table" : "pool-table"}
        locale={{ emptyText: pool.error?.message ?? "没有作品（省级及以上赛事的作品须先通过形式审查）" }}
        rowSelection={
          groupId
            ? undefined
            : {
                selectedRowKeys: selected,
                preserveSelectedRowKeys: true,
                getCheckboxProps: (w) => rowCheckbox(`选择《${w.name}》`),
                onChange: (keys) => setSelected(keys as number[]),
              }
        }
        pagination={{
          current: f.current,
          pageSize: f.pageSize,
          total: pool.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (n) => `共 ${n} 件作品`,
          onChange: (current, pageSize) => setF({ ...f, current, pageSize }),
        }}
      >
        <Table.Column<PoolWork> title="作品编号" dataIndex="id" width={110} />
        <Table.Column<PoolWork> title="作品名称" dataIndex="name" />
        <Table.Column<PoolWork>
          title="类别"
          render={(_, w) => [w.category.name, w.subcategory?.name, GROUP_NAMES[w.group]].filter(Boolean).join(" / ")}
        />
        <Table.Column<PoolWork> title="学校" render={(_, w) => w.school.name} />
        {!groupId && (
          <Table.Column<PoolWork>
            title="评审组"
            render={(_, w) => (w.judgeGroup ? w.judgeGroup.name : <Tag color="orange">未分组</Tag>)}
          />
        )}
        <Table.Column<PoolWork>
          title="评委"
          render={(_, w) => (
            <Space size={4} wrap>
              <Tag color={w.judges.length >= w.needed ? "green" : "red"} data-testid="judge-count">
                {w.judges.length}/{w.needed}
              </Tag>
              <JudgeTags judges={w.judges} onRemoved={refresh} />
            </Space>
          )}
        />
        <Table.Column<PoolWork>
          title="操作"
          fixed="right"
          render={(_, w) => (
            <Space size={0}>
              <Button type="link" size="small" disabled={!w.judgeGroup} onClick={() => setAssigning(w)}>
                添加评委
              </Button>
              {w.judgeGroup && (
                <Popconfirm
                  title={`把作品移出「${w.judgeGroup.name}」？`}
                  okText="移出"
                  cancelText="取消"
                  onConfirm={async () => (await judgingApi.removeWork(w.judgeGroup!.id, w.id)).error === 0 && refresh()}
                >
                  <Button type="link" size="small" disabled={w.judges.length > 0}>
                    移出评审组
                  </Button>
                </Popconfirm>
              )}
            </Space>
          )}
        />
      </Table>
      <AssignJudgeModal
        contestId={contestId}
        work={assigning}
        judges={judges}
        groupJudgeIds={assigning ? (groupOf(assigning)?.judges.map((j) => j.id) ?? []) : null}
        onClose={() => setAssigning(null)}
        onDone={refresh}
      />
    </>
  );
}

/** The filters of the works: group (or 未分组), 大类, keyword, 只看评委不足; 查询 goes to page 1. */
function PoolFilterForm({
  groupId,
  groups,
  pageSize,
  setF,
}: {
  groupId?: number;
  groups: JudgeGroupView[];
  pageSize: number;
  setF: (f: PoolFilters & { current: number; pageSize: number }) => void;
}) {
  const cats = useCategoryOptions();
  return (
    <Form
      layout="inline"
      style={{ marginBottom: 12, rowGap: 8 }}
      onFinish={(v: { group?: number; categoryId?: number; keyword?: string; short?: boolean }) =>
        setF({
          current: 1,
          pageSize,
          ...(groupId ? { groupId } : v.group === UNGROUPED ? { ungrouped: true } : v.group ? { groupId: v.group } : {}),
          ...(v.categoryId ? { categoryId: v.categoryId } : {}),
          ...(v.keyword?.trim() ? { keyword: v.keyword.trim() } : {}),
          ...(v.short ? { short: true } : {}),
        })
      }
    >
      {!groupId && (
        <Form.Item name="group" label="评审组">
          <Select
            allowClear
            placeholder="全部"
            style={{ width: 200 }}
            options={[{ value: UNGROUPED, label: "未分组" }, ...groups.map((g) => ({ value: g.id, label: g.name }))]}
            data-testid="pool-filter-group"
          />
        </Form.Item>
      )}
      {!groupId && (
        <Form.Item name="categoryId" label="大类">
          <Select allowClear placeholder="全部大类" style={{ width: 200 }} options={cats.options} />
        </Form.Item>
      )}
      <Form.Item name="keyword">
        <Input allowClear placeholder="作品编号或名称" style={{ width: 180 }} />
      </Form.Item>
      <Form.Item name="short" valuePropName="checked">
        <Checkbox>只看评委不足</Checkbox>
      </Form.Item>
      <Form.Item>
        <Button htmlType="submit">查询</Button>
      </Form.Item>
    </Form>
  );
}
