/**
 * Create or edit one contest in a drawer: every field of the contest schema. The level is
 * fixed (by the page or the parent); a contest admin (restricted) sees level, parent and
 * admins read-only — the server refuses changing them.
 */
import { AutoComplete, Button, Col, Divider, Drawer, Form, Input, InputNumber, Row, Select, Space, Tag, Typography } from "antd";
import { CONTEST_LEVEL_NAMES, PARENT_LEVEL } from "../../shared/contest/stages";
import { ROLE } from "../../shared/roles";
import { useCategoryOptions } from "../work-type/use-tree";
import type { ContestFormValues } from "./form-values";
import { PROVINCES } from "../../shared/provinces";
import { ContestSelect, SchoolSelect, UserSelect } from "./selects";
import { StagesField } from "./stages-field";
import type { ContestDrawerState } from "./use-contest-drawer";

const NAME_EXAMPLE = {
  national: "如：2026年（第19届）中国大学生计算机设计大赛",
  provincial: "如：2026年中国大学生计算机设计大赛浙江省级赛",
  school: "如：2026年浙江工业大学计算机设计大赛校级赛",
} as const;

const members = (list: { id: number; name: string }[] | undefined) =>
  list?.length ? list.map((m) => <Tag key={m.id}>{m.name}</Tag>) : <Typography.Text type="secondary">未指定</Typography.Text>;

export function ContestDrawer({ state }: { state: ContestDrawerState }) {
  const { drawer, record, level, restricted, initialValues } = state;
  const { options: categoryOptions, loading } = useCategoryOptions();
  const form = drawer.form;
  const year = Form.useWatch("year", form) as number | undefined;
  const open = (Form.useWatch("categories", form) as number[] | undefined) ?? [];
  const editing = !!record;
  const title = editing
    ? `编辑${CONTEST_LEVEL_NAMES[record.level]}：${record.name}`
    : `新建${level ? CONTEST_LEVEL_NAMES[level] : "赛事"}`;

  return (
    <Drawer
      {...drawer.drawerProps}
      width={760}
      title={title}
      destroyOnHidden={false}
      extra={
        <Space>
          <Button onClick={drawer.close}>取消</Button>
          <Button type="primary" {...drawer.saveButtonProps} data-testid="contest-save">
            保存
          </Button>
        </Space>
      }
    >
      <Form
        form={form}
        name={state.formName}
        layout="vertical"
        initialValues={initialValues}
        onFinish={(v) => state.submit(v as unknown as ContestFormValues)}
        data-testid="contest-form"
      >
        <ContestBasics state={state} year={year} />
        <Form.Item name="description" label="简介">
          <Input.TextArea rows={3} maxLength={5000} showCount />
        </Form.Item>

        <Divider orientation="left">参赛类别与推荐名额</Divider>
        <Form.Item name="categories" label="开放的作品大类">
          <Select
            mode="multiple"
            allowClear
            loading={loading}
            options={categoryOptions}
            placeholder="选择本赛事开放的大类"
            optionFilterProp="label"
            data-testid="contest-categories"
          />
        </Form.Item>
        {level !== "national" && (
          <>
            <Form.Item name="recommendQuota" label="向上级推荐的作品总名额" extra="留空表示不限">
              <InputNumber min={0} max={100000} precision={0} style={{ width: 200 }} />
            </Form.Item>
            {open.length > 0 && (
              <Form.Item label="分大类推荐名额" extra="留空表示该大类不单独限额">
                <Row gutter={[24, 0]}>
                  {open.map((id) => (
                    <Col span={12} key={id}>
                      <div style={{ display: "flex", alignItems: "center", gap: 8, marginBottom: 8 }}>
                        <span style={{ flex: 1 }}>{categoryOptions.find((o) => o.value === id)?.label ?? `大类 ${id}`}</span>
                        <Form.Item name={["quotas", String(id)]} noStyle>
                          <InputNumber min={0} max={100000} precision={0} placeholder="不限" style={{ width: 110 }} />
                        </Form.Item>
                      </div>
                    </Col>
                  ))}
                </Row>
              </Form.Item>
            )}
          </>
        )}

        <Divider orientation="left">阶段时间</Divider>
        <StagesField />

        <Divider orientation="left">赛事人员</Divider>
        {restricted ? (
          <Form.Item label="赛事管理员" extra="赛事管理员由超级管理员指定">
            {members(record?.admins)}
          </Form.Item>
        ) : (
          <Form.Item name="adminIds" label="赛事管理员">
            <UserSelect
              role={ROLE.contestAdmin}
              known={record?.admins}
              placeholder="搜索赛事管理员账号"
              data-testid="contest-admins"
            />
          </Form.Item>
        )}
        <Form.Item name="reviewerIds" label="赛事审核员">
          <UserSelect
            role={ROLE.contestReviewer}
            known={record?.reviewers}
            placeholder="搜索赛事审核员账号"
            data-testid="contest-reviewers"
          />
        </Form.Item>
      </Form>
    </Drawer>
  );
}

/** Name, level, code, year, and by level the province, the parent contest and the school. */
function ContestBasics({ state, year }: { state: ContestDrawerState; year: number | undefined }) {
  const { record, level, hint, restricted } = state;
  const editing = !!record;
  const parentLevel = level ? PARENT_LEVEL[level] : null;
  const province = record?.province ?? hint?.parent?.province ?? null;
  return (
    <Row gutter={16}>
      <Col span={16}>
        <Form.Item
          name="name"
          label="赛事名称"
          rules={[{ required: true, min: 2, max: 100, message: "请输入 2–100 个字的赛事名称" }]}
        >
          <Input placeholder={level ? NAME_EXAMPLE[level] : undefined} />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item label="级别">
          <Tag color="blue">{level ? CONTEST_LEVEL_NAMES[level] : "—"}</Tag>
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item
          name="code"
          label="赛事代码"
          extra={editing ? undefined : "留空时自动生成"}
          rules={[{ pattern: /^[0-9A-Za-z_-]{2,30}$/, message: "2–30 位字母、数字、- 或 _" }]}
        >
          <Input placeholder={level === "national" ? "如 2026-CN" : level === "school" ? "如 2026-ZJ-10337" : "如 2026-ZJ"} />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item name="year" label="年份" rules={[{ required: true, message: "请输入年份" }]}>
          <InputNumber min={2000} max={2100} precision={0} style={{ width: "100%" }} />
        </Form.Item>
      </Col>
      {level === "provincial" && (
        <Col span={8}>
          <Form.Item name="province" label="省份（赛区）" rules={[{ required: true, message: "请填写省份或赛区" }]}>
            <AutoComplete
              options={PROVINCES.map((p) => ({ value: p }))}
              filterOption={(i, o) => String(o?.value).includes(i)}
              placeholder="选择或输入"
            />
          </Form.Item>
        </Col>
      )}
      {parentLevel && (
        <Col span={16}>
          {restricted ? (
            <Form.Item label="上级赛事" extra="上级赛事由超级管理员设置">
              <Typography.Text>{record?.parentName ?? "—"}</Typography.Text>
            </Form.Item>
          ) : (
            <Form.Item
              name="parentId"
              label={`上级赛事（${CONTEST_LEVEL_NAMES[parentLevel]}）`}
              rules={[{ required: true, message: `请选择上级${CONTEST_LEVEL_NAMES[parentLevel]}` }]}
            >
              <ContestSelect
                level={parentLevel}
                year={year}
                known={record?.parentId ? { id: record.parentId, name: record.parentName ?? "" } : hint?.parent}
                placeholder={`选择 ${year ?? ""} 年的${CONTEST_LEVEL_NAMES[parentLevel]}`}
                data-testid="contest-parent"
              />
            </Form.Item>
          )}
        </Col>
      )}
      {level === "school" && (
        <Col span={8}>
          <Form.Item
            name="schoolId"
            label="学校"
            rules={[{ required: true, message: "请选择学校" }]}
            extra={province ? `${province}的学校` : undefined}
          >
            <SchoolSelect
              province={province}
              known={record?.schoolId ? { id: record.schoolId, name: record.schoolName ?? "" } : null}
            />
          </Form.Item>
        </Col>
      )}
    </Row>
  );
}
