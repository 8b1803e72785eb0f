/**
 * The invitation dialog of a contest admin: the selected pool persons and/or new people (name
 * and email), the categories, a message and the answer-by date. Before sending, the conflict
 * check (a dry run) shows per person how many works of each category they would have to avoid
 * and why, and whether the current judges plus the invitees can give every work N
 * conflict-free judges — warnings with numbers; sending stays possible.
 */
import { useEffect, useMemo, useState } from "react";
import type { Dayjs } from "dayjs";
import { Alert, Button, DatePicker, Descriptions, Form, Input, Modal, Space, Table, Tag, TreeSelect, Typography } from "antd";
import { MinusCircleOutlined, PlusOutlined, SafetyOutlined, SendOutlined } from "@ant-design/icons";
import {
  MAX_INVITEES,
  MESSAGE_MAX,
  type CheckBody,
  type CheckedPerson,
  type ConflictCheck,
  type InviteOutcome,
} from "../../shared/judge-invite/schema";
import { useQueries } from "@tanstack/react-query";
import type { JudgePersonView } from "../../shared/judge-pool/schema";
import { ContestSelect, useIsRoot, useMyContests } from "../notice/contest-select";
import { fetchData } from "../request";
import { inviteApi, useInviteContest } from "./api";
import { bj, bjDate } from "../format";

const MAX_NAMED = 30;

interface Values {
  people: { name: string; email: string }[];
  categoryIds: number[];
  message?: string;
  answerBy: Dayjs;
}

function CheckResult({ r }: { r: ConflictCheck }) {
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

/**
 * contestId: the contest to invite to; without one (from the pool table's selection) the
 * admin picks one of their contests in the dialog. personIds: pool persons (their names show
 * in the check's table).
 */
export function InviteDialog({
  contestId: given,
  personIds,
  open,
  onClose,
  onSent,
}: {
  contestId?: number;
  personIds: number[];
  open: boolean;
  onClose: () => void;
  onSent?: (o: InviteOutcome) => void;
}) {
  const [form] = Form.useForm<Values>();
  const isRoot = useIsRoot();
  const mine = useMyContests(!given && !isRoot);
  const [chosen, setChosen] = useState<number | undefined>(given);
  useEffect(() => {
    if (chosen === undefined && mine.data?.length) setChosen(mine.data.find((c) => c.level !== "school")?.id ?? mine.data[0].id);
  }, [chosen, mine.data]);
  const contestId = chosen ?? 0;
  const contest = useInviteContest(open && chosen ? chosen : undefined);
  const [picked, setPicked] = useState<number[]>(personIds);
  // The pool records' names for the tags (the first few; the check's table names everyone).
  const people = useQueries({
    queries: personIds.slice(0, MAX_NAMED).map((id) => ({
      queryKey: ["judge-pool", "person", id],
      queryFn: () => fetchData<JudgePersonView>(`/Backend/JudgePool/persons/${id}`),
    })),
  });
  const names = new Map(
    people.flatMap((q) => (q.data ? [[q.data.id, { name: q.data.name, schoolName: q.data.schoolName }] as const] : [])),
  );
  const [check, setCheck] = useState<{ key: string; r: ConflictCheck } | null>(null);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<"check" | "send" | null>(null);
  const [sent, setSent] = useState<{ info: string; o: InviteOutcome } | null>(null);

  const treeData = useMemo(
    () =>
      (contest.data?.categories ?? []).map((c) => ({
        value: c.id,
        title: c.name,
        children: c.children.map((s) => ({ value: s.id, title: s.name })),
      })),
    [contest.data],
  );
  const bodyOf = (v: Values): CheckBody => ({
    personIds: picked,
    people: (v.people ?? []).filter((x) => x?.email?.trim()).map((x) => ({ name: x.name.trim(), email: x.email.trim() })),
    categoryIds: v.categoryIds ?? [],
  });

  const runCheck = async () => {
    const v = await form.validateFields();
    const body = bodyOf(v);
    setError(undefined);
    if (!chosen) return setError("请选择赛事");
    setBusy("check");
    const r = await inviteApi.check(contestId, body);
    setBusy(null);
    if (r.error !== 0 || !r.data) return setError(r.info || "检查失败，请稍后重试");
    setCheck({ key: JSON.stringify(body), r: r.data });
  };
  const send = async () => {
    const v = await form.validateFields();
    const body = bodyOf(v);
    setError(undefined);
    setBusy("send");
    const r = await inviteApi.send(contestId, { ...body, message: v.message?.trim() || undefined, answerBy: bjDate(v.answerBy) });
    setBusy(null);
    if (r.error !== 0 || !r.data) return setError(r.info || "发送失败，请稍后重试");
    setSent({ info: r.info, o: r.data });
    onSent?.(r.data);
  };
  const checkedNow = () => {
    try {
      return !!check && check.key === JSON.stringify(bodyOf(form.getFieldsValue(true) as Values));
    } catch {
      return false;
    }
  };
  const [, force] = useState(0);

  const footer = sent
    ? [
        <Button key="close" type="primary" onClick={onClose}>
          完成
        </Button>,
      ]
    : [
        <Button key="cancel" onClick={onClose}>
          取消
        </Button>,
        <Button
          key="check"
          icon={<SafetyOutlined />}
          loading={busy === "check"}
          onClick={() => void runCheck()}
          data-testid="invite-run-check"
        >
          回避检查
        </Button>,
        <Button
          key="send"
          type="primary"
          icon={<SendOutlined />}
          loading={busy === "send"}
          disabled={!checkedNow()}
          onClick={() => void send()}
          data-testid="invite-send"
        >
          发送邀请
        </Button>,
      ];

  return (
    <Modal
      open={open}
      width={960}
      title={`邀请评委${contest.data ? ` · ${contest.data.name}` : ""}`}
      onCancel={onClose}
      footer={footer}
      destroyOnClose
      keyboard={false}
      maskClosable={false}
      modalRender={(node) => <div data-testid="invite-dialog">{node}</div>}
    >
      {sent ? (
        <Space direction="vertical" style={{ width: "100%" }} data-testid="invite-sent">
          <Alert type={sent.o.created.length ? "success" : "warning"} showIcon message={sent.info} />
          {sent.o.skipped.length > 0 && (
            <Table
              size="small"
              pagination={false}
              rowKey={(s) => `${s.name}|${s.email}`}
              dataSource={sent.o.skipped}
              columns={[
                { title: "未邀请", dataIndex: "name" },
                { title: "邮箱", dataIndex: "email" },
                { title: "原因", dataIndex: "reason" },
              ]}
            />
          )}
        </Space>
      ) : (
        <Form
          form={form}
          layout="vertical"
          initialValues={{
            people: picked.length ? [] : [{ name: "", email: "" }],
            categoryIds: [],
            answerBy: bj().add(14, "day"),
          }}
          onValuesChange={() => force((n) => n + 1)}
        >
          {!given && (
            <Form.Item label="赛事" required>
              <ContestSelect
                style={{ width: 420 }}
                value={chosen}
                onChange={(v) => {
                  setChosen(v);
                  setCheck(null);
                }}
                data-testid="invite-contest"
              />
            </Form.Item>
          )}
          {picked.length > 0 && (
            <Form.Item label={`评委库中选定的人员（${picked.length} 人）`}>
              <Space wrap data-testid="invite-picked">
                {picked.map((id) => {
                  const p = check?.r.persons.find((x) => x.personId === id) ?? names.get(id);
                  return (
                    <Tag key={id} closable onClose={() => setPicked((x) => x.filter((y) => y !== id))}>
                      {p ? `${p.name}${p.schoolName ? `（${p.schoolName}）` : ""}` : `编号 ${id}`}
                    </Tag>
                  );
                })}
              </Space>
            </Form.Item>
          )}
          <Form.Item label="新邀请人员（尚未在评委库中的，填写姓名和邮箱）">
            <Form.List name="people">
              {(fields, { add, remove }) => (
                <Space direction="vertical" style={{ width: "100%" }}>
                  {fields.map((f) => (
                    <Space key={f.key} align="baseline">
                      <Form.Item
                        name={[f.name, "name"]}
                        rules={[
                          { required: true, whitespace: true, message: "请填写姓名" },
                          { min: 2, max: 40, message: "姓名 2–40 个字" },
                        ]}
                        style={{ marginBottom: 0 }}
                      >
                        <Input placeholder="姓名" style={{ width: 160 }} data-testid="invite-new-name" />
                      </Form.Item>
                      <Form.Item
                        name={[f.name, "email"]}
                        rules={[
                          { required: true, message: "请填写邮箱" },
                          { type: "email", message: "邮箱格式不正确" },
                        ]}
                        style={{ marginBottom: 0 }}
                      >
                        <Input placeholder="邮箱" style={{ width: 280 }} data-testid="invite-new-email" />
                      </Form.Item>
                      <MinusCircleOutlined onClick={() => remove(f.name)} />
                    </Space>
                  ))}
                  <Button
                    type="dashed"
                    icon={<PlusOutlined />}
                    onClick={() => add({ name: "", email: "" })}
                    disabled={fields.length + picked.length >= MAX_INVITEES}
                    data-testid="invite-add-person"
                  >
                    添加一人
                  </Button>
                </Space>
              )}
            </Form.List>
          </Form.Item>
          <Form.Item
            name="categoryIds"
            label="评审类别"
            rules={[{ required: true, type: "array", min: 1, message: "请选择评审类别" }]}
          >
            <TreeSelect
              treeData={treeData}
              multiple
              treeCheckable
              showCheckedStrategy={TreeSelect.SHOW_PARENT}
              placeholder="选择大类或小类"
              loading={contest.isLoading}
              data-testid="invite-categories"
            />
          </Form.Item>
          <Space align="start" size={24} style={{ display: "flex" }}>
            <Form.Item name="answerBy" label="答复截止日期" rules={[{ required: true, message: "请选择答复截止日期" }]}>
              <DatePicker
                disabledDate={(d) => d.isBefore(bj().add(1, "day"), "day") || d.isAfter(bj().add(365, "day"))}
                allowClear={false}
                data-testid="invite-answer-by"
              />
            </Form.Item>
            <Typography.Text type="secondary" style={{ display: "block", marginTop: 34 }}>
              链接在该日 24 时（北京时间）失效；截止前 2 天未答复的会收到一次提醒。
            </Typography.Text>
          </Space>
          <Form.Item name="message" label="邀请说明" rules={[{ max: MESSAGE_MAX, message: `不超过 ${MESSAGE_MAX} 字` }]}>
            <Input.TextArea
              rows={3}
              placeholder="评审时间、方式、劳务等说明（随邀请邮件发送）"
              data-testid="invite-message-input"
            />
          </Form.Item>
          {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} data-testid="invite-error" />}
          {check &&
            (checkedNow() ? (
              <CheckResult r={check.r} />
            ) : (
              <Alert type="info" showIcon message="人员或类别已修改，请重新进行回避检查后发送" />
            ))}
          {!check && (
            <Typography.Text type="secondary">
              发送前请先进行回避检查：查看每位受邀者须回避的作品数，以及评委是否足够。
            </Typography.Text>
          )}
        </Form>
      )}
    </Modal>
  );
}
