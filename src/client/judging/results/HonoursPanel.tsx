/**
 * 优秀指导教师 / 优秀组织奖 on the results page: one tab per award level of kind teacher or
 * organisation, with its cap and rule, the holders, 按规则生成 (rows added by hand kept),
 * 手动添加 (a teacher among the contest's advising teachers, with the work; a school among
 * the contest's schools) and 移除 — each behind a Chinese confirmation. After publication
 * every change makes a result version of the level (the optional reason is recorded) and
 * issues or revokes the certificates, which the confirmations say.
 */
import { useState } from "react";
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Empty,
  Form,
  Input,
  Modal,
  Select,
  Space,
  Spin,
  Table,
  Tabs,
  Tag,
  Typography,
  type ButtonProps,
} from "antd";
import { DeleteOutlined, PlusOutlined, ThunderboltOutlined } from "@ant-design/icons";
import type { HonourLevel, HonourRow, HonourView } from "../../../shared/certificate/print-schema";
import { honoursApi, useHonours, useResultsRefresh } from "./api";

const VERSION_NOTE = "结果已发布：此修改将生成该奖项的新结果版本（记录原因），并同步签发或撤销相应证书。";

type Pending =
  | { kind: "propose"; level: HonourLevel }
  | { kind: "add"; level: HonourLevel }
  | { kind: "remove"; level: HonourLevel; row: HonourRow };

export function HonoursPanel({ contestId }: { contestId: number }) {
  const honours = useHonours(contestId);
  const [tab, setTab] = useState<string>();
  const [pending, setPending] = useState<Pending | null>(null);
  const v = honours.data;
  return (
    <Card size="small" title="优秀指导教师 / 优秀组织奖" data-testid="honours">
      {honours.isPending && <Spin />}
      {honours.isError && <Alert type="error" showIcon message={honours.error.message} />}
      {v && (
        <Space direction="vertical" size={12} style={{ width: "100%" }}>
          {v.published && (
            <Alert
              type="info"
              showIcon
              message="结果已发布：此处的每次修改都会生成该奖项的新结果版本（记录原因），并同步签发或撤销指导教师和学校的证书。"
              data-testid="honours-published"
            />
          )}
          {v.levels.length ? (
            <Tabs
              activeKey={tab ?? String(v.levels[0].id)}
              onChange={setTab}
              items={v.levels.map((l) => {
                const rows = v.rows.filter((r) => r.awardLevelId === l.id);
                return {
                  key: String(l.id),
                  label: `${l.name}（${rows.length}${l.cap !== null ? ` / ${l.cap}` : ""}）`,
                  children: <LevelTab view={v} level={l} rows={rows} onAction={setPending} />,
                };
              })}
            />
          ) : (
            <Empty description="本级别赛事没有设置优秀指导教师或优秀组织奖类奖项，可在「奖项管理」中添加" />
          )}
        </Space>
      )}
      {v && pending && <ConfirmModal contestId={contestId} view={v} pending={pending} onClose={() => setPending(null)} />}
    </Card>
  );
}

function LevelTab({
  view: v,
  level: l,
  rows,
  onAction,
}: {
  view: HonourView;
  level: HonourLevel;
  rows: HonourRow[];
  onAction: (p: Pending) => void;
}) {
  const teacher = l.kind === "teacher";
  const limits = [
    l.ratio !== null ? `获奖作品数的 ${Math.round(l.ratio * 10000) / 100}%` : null,
    l.maxCount !== null ? `最多 ${l.maxCount} ${teacher ? "人" : "所"}` : null,
  ]
    .filter(Boolean)
    .join("，");
  return (
    <Space direction="vertical" size={12} style={{ width: "100%" }} data-testid={`honour-level-${l.id}`}>
      <Descriptions size="small" column={2} bordered styles={{ label: { width: 72, whiteSpace: "nowrap" } }}>
        <Descriptions.Item label="名额">
          <span data-testid="honour-cap">{l.cap === null ? "不限" : `${l.cap} ${teacher ? "人" : "所"}`}</span>
          <Typography.Text type="secondary">
            （{limits || "未设比例和名额"}；本赛事获奖作品 {v.awardedWorks} 件）
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label="已有">
          {rows.length} {teacher ? "人" : "所"}（手动添加 {rows.filter((r) => r.manual).length}）
        </Descriptions.Item>
        <Descriptions.Item label="规则" span={2}>
          <Typography.Text data-testid="honour-rule">{l.rule}</Typography.Text>
        </Descriptions.Item>
      </Descriptions>
      <Space wrap>
        <Button
          type="primary"
          icon={<ThunderboltOutlined />}
          disabled={!v.awardedWorks}
          title={v.awardedWorks ? undefined : "还没有获奖作品，请先分配奖项"}
          onClick={() => onAction({ kind: "propose", level: l })}
          data-testid="honour-propose"
        >
          按规则生成
        </Button>
        <Button icon={<PlusOutlined />} onClick={() => onAction({ kind: "add", level: l })} data-testid="honour-add">
          手动添加
        </Button>
      </Space>
      <Table<HonourRow>
        rowKey="id"
        size="small"
        dataSource={rows}
        pagination={rows.length > 50 ? { pageSize: 50 } : false}
        locale={{ emptyText: "尚无获奖名单：点击「按规则生成」或「手动添加」" }}
        data-testid="honour-rows"
      >
        <Table.Column<HonourRow> title="序号" width={56} render={(_, __, i) => i + 1} />
        <Table.Column<HonourRow> title={teacher ? "指导教师" : "学校"} dataIndex="holderName" />
        {teacher && <Table.Column<HonourRow> title="学校" dataIndex="schoolName" />}
        {teacher && (
          <Table.Column<HonourRow> title="依据作品" render={(_, r) => (r.workTitle ? `${r.workTitle}（${r.workId}）` : "—")} />
        )}
        <Table.Column<HonourRow>
          title="来源"
          width={90}
          render={(_, r) => (r.manual ? <Tag color="blue">手动添加</Tag> : <Tag>按规则</Tag>)}
        />
        <Table.Column<HonourRow>
          title="操作"
          width={90}
          render={(_, r) => (
            <Button
              size="small"
              danger
              icon={<DeleteOutlined />}
              onClick={() => onAction({ kind: "remove", level: l, row: r })}
              data-testid={`honour-remove-${r.id}`}
            >
              移除
            </Button>
          )}
        />
      </Table>
    </Space>
  );
}

/** The title and OK button of the confirmation of one change. */
function confirmTexts(p: Pending) {
  const l = p.level;
  const title =
    p.kind === "propose"
      ? `按规则生成「${l.name}」名单？`
      : p.kind === "remove"
        ? `从「${l.name}」中移除「${p.row.holderName}」？`
        : `手动添加「${l.name}」`;
  const okText = p.kind === "propose" ? "生成" : p.kind === "remove" ? "移除" : "添加";
  return { title, okText };
}

/** Sends one change: generate by the rule, remove a row, or add a teacher (with a work) or a school. */
function sendHonour(
  contestId: number,
  p: Pending,
  chosen: { teacherId?: number; workId?: number; schoolId?: number },
  why: string | undefined,
) {
  const l = p.level;
  const { teacherId, workId, schoolId } = chosen;
  return p.kind === "propose"
    ? honoursApi.propose(contestId, l.id, why)
    : p.kind === "remove"
      ? honoursApi.remove(contestId, p.row.id, why)
      : honoursApi.add(
          contestId,
          l.kind === "teacher"
            ? { awardLevelId: l.id, teacherUserId: teacherId, workId, reason: why }
            : { awardLevelId: l.id, schoolId, reason: why },
        );
}

function ConfirmModal({
  contestId,
  view: v,
  pending: p,
  onClose,
}: {
  contestId: number;
  view: HonourView;
  pending: Pending;
  onClose: () => void;
}) {
  const refresh = useResultsRefresh(contestId);
  const [busy, setBusy] = useState(false);
  const [reason, setReason] = useState("");
  const [teacherId, setTeacherId] = useState<number>();
  const [workId, setWorkId] = useState<number>();
  const [schoolId, setSchoolId] = useState<number>();
  const l = p.level;
  const teacher = l.kind === "teacher";
  const why = reason.trim() || undefined;
  const taken = new Set(v.rows.filter((r) => r.awardLevelId === l.id).map((r) => (teacher ? r.teacherUserId : r.schoolId)));
  const chosenTeacher = v.teachers.find((t) => t.userId === teacherId);

  const submit = async () => {
    setBusy(true);
    const reply = await sendHonour(contestId, p, { teacherId, workId, schoolId }, why);
    setBusy(false);
    if (reply.error === 0) {
      refresh();
      onClose();
    }
  };
  const { title, okText } = confirmTexts(p);
  const ready = p.kind !== "add" || (teacher ? !!teacherId : !!schoolId);

  return (
    <Modal
      title={title}
      open
      okText={okText}
      cancelText="取消"
      confirmLoading={busy}
      onOk={submit}
      onCancel={onClose}
      okButtonProps={{ danger: p.kind === "remove", disabled: !ready, "data-testid": "honour-ok" } as ButtonProps}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: "100%" }}>
        {p.kind === "propose" && (
          <>
            <Typography.Paragraph style={{ margin: 0 }}>{l.rule}</Typography.Paragraph>
            <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
              按规则生成的记录会按当前获奖情况重新生成（不再符合规则的会被移除），手动添加的记录保留并占用名额。
            </Typography.Paragraph>
          </>
        )}
        {p.kind === "remove" && (
          <Typography.Paragraph style={{ margin: 0 }}>
            {p.row.manual
              ? "这是手动添加的记录，移除后不会再自动出现。"
              : "这是按规则生成的记录；以后再次「按规则生成」时，符合规则的仍会被选上。"}
          </Typography.Paragraph>
        )}
        {p.kind === "add" && (
          <Form layout="vertical">
            {teacher ? (
              <>
                <Form.Item label="指导教师（本赛事作品的指导教师）" required>
                  <Select<number>
                    showSearch
                    optionFilterProp="label"
                    placeholder="输入姓名或学校搜索"
                    value={teacherId}
                    onChange={(id) => {
                      setTeacherId(id);
                      setWorkId(undefined);
                    }}
                    options={v.teachers.map((t) => ({
                      value: t.userId,
                      label: `${t.name}（${t.schoolName}）`,
                      disabled: taken.has(t.userId),
                    }))}
                    notFoundContent="本赛事没有指导教师"
                    data-testid="honour-teacher"
                  />
                </Form.Item>
                {chosenTeacher && (
                  <Form.Item label="依据作品" extra="不选时取该教师指导的最好的一件作品">
                    <Select<number>
                      allowClear
                      placeholder="该教师指导的最好的一件作品"
                      value={workId}
                      onChange={setWorkId}
                      options={chosenTeacher.works.map((w) => ({
                        value: w.id,
                        label: `${w.title}（${w.awardName ?? "未获奖"}）`,
                      }))}
                    />
                  </Form.Item>
                )}
              </>
            ) : (
              <Form.Item label="学校（在本赛事有参评作品的学校）" required>
                <Select<number>
                  showSearch
                  optionFilterProp="label"
                  placeholder="输入学校名称搜索"
                  value={schoolId}
                  onChange={setSchoolId}
                  options={v.schools.map((s) => ({
                    value: s.schoolId,
                    label: `${s.name}（获奖 ${s.awarded} 件 / 参评 ${s.works} 件）`,
                    disabled: taken.has(s.schoolId),
                  }))}
                  notFoundContent="本赛事没有参评学校"
                  data-testid="honour-school"
                />
              </Form.Item>
            )}
            {l.cap !== null && (
              <Typography.Text type="secondary">
                名额 {l.cap}，已有 {taken.size}；超出名额时需先移除一项。
              </Typography.Text>
            )}
          </Form>
        )}
        {v.published ? (
          <>
            <Alert type="warning" showIcon message={VERSION_NOTE} />
            <Input.TextArea
              rows={2}
              maxLength={200}
              placeholder="原因（可选，记入结果版本）"
              aria-label="原因（可选，记入结果版本）"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              data-testid="honour-reason"
            />
          </>
        ) : (
          <Typography.Text type="secondary">结果尚未发布：发布时按此名单为指导教师和学校签发证书。</Typography.Text>
        )}
      </Space>
    </Modal>
  );
}
