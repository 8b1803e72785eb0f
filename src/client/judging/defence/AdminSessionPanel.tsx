/**
 * The contest admin's panel for the offline defence of one judge group (embedded in the
 * group's 线下答辩 tab of /ContestAdmin/Group): arrange the session (time, place, meeting
 * link, what to prepare, minutes per work, which of the group's works defend), draw the
 * order, follow the scoring, copy each work's authors' link (/contest/reply/:code), and
 * reopen a signed-off result with a reason.
 */
import { useEffect, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { Dayjs } from "dayjs";
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Modal,
  Result,
  Row,
  Skeleton,
  Space,
  Table,
  Tooltip,
  Typography,
} from "antd";
import { SaveOutlined, ThunderboltOutlined, UnlockOutlined } from "@ant-design/icons";
import {
  MINUTES_PER_WORK,
  type AdminGroupDefence,
  type AdminSlot,
  type SessionInput,
} from "../../../shared/judging/defence-schema";
import { fieldOf } from "../../request";
import { defenceApi, defenceKeys, useAdminDefence } from "./api";
import { SessionInfo } from "./SessionInfo";
import { slotColumns } from "./slot-columns";
import { bj, pickerIso } from "../../format";

interface Values {
  startsAt: Dayjs | null;
  place: string | null;
  meetingLink: string | null;
  prepareNote: string | null;
  minutesPerWork: number;
}

const DEFAULT_NOTE =
  "请至少两名作者参加答辩，提前 15 分钟到场签到并携带学生证。每件作品陈述与演示约 8 分钟，专家提问约 7 分钟。答辩材料请在答辩前一天通过本链接上传。";

function SessionForm({ data, onSaved }: { data: AdminGroupDefence; onSaved: () => Promise<void> }) {
  const s = data.session;
  const [form] = Form.useForm<Values>();
  const [selected, setSelected] = useState<number[]>(() =>
    s ? data.works.filter((w) => w.inSession).map((w) => w.id) : data.works.map((w) => w.id),
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { message } = App.useApp();
  const worksLocked = !!s && s.scores > 0;

  useEffect(() => {
    setSelected(s ? data.works.filter((w) => w.inSession).map((w) => w.id) : data.works.map((w) => w.id));
  }, [data, s]);

  const save = async (v: Values) => {
    if (!selected.length) return setError("请至少选择一件答辩作品");
    setBusy(true);
    setError(null);
    const body: SessionInput = {
      startsAt: v.startsAt ? pickerIso(v.startsAt) : null,
      place: v.place?.trim() || null,
      meetingLink: v.meetingLink?.trim() || null,
      prepareNote: v.prepareNote?.trim() || null,
      minutesPerWork: v.minutesPerWork,
      ...(worksLocked ? {} : { workIds: selected }),
    };
    const r = s ? await defenceApi.updateSession(s.id, body) : await defenceApi.createSession(data.group.id, body);
    setBusy(false);
    if (r.error !== 0) {
      const field = fieldOf(r);
      if (field && field !== "workIds") form.setFields([{ name: field as keyof Values, errors: [r.info] }]);
      else setError(r.info);
      return;
    }
    message.success(r.info);
    await onSaved();
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      onFinish={save}
      disabled={!!s?.signOff}
      initialValues={{
        startsAt: s?.startsAt ? bj(s.startsAt) : null,
        place: s?.place ?? null,
        meetingLink: s?.meetingLink ?? null,
        prepareNote: s ? s.prepareNote : DEFAULT_NOTE,
        minutesPerWork: s?.minutesPerWork ?? MINUTES_PER_WORK.default,
      }}
      data-testid="defence-session-form"
    >
      <Row gutter={16}>
        <Col xs={24} md={10}>
          <Form.Item name="startsAt" label="答辩开始时间" rules={[{ required: true, message: "请选择答辩开始时间" }]}>
            <DatePicker
              showTime={{ format: "HH:mm", minuteStep: 5 }}
              format="YYYY-MM-DD HH:mm"
              placeholder="选择日期和时间"
              style={{ width: "100%" }}
              data-testid="defence-starts"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={6}>
          <Form.Item name="minutesPerWork" label="每件作品（分钟）" rules={[{ required: true, message: "请填写每件作品的时长" }]}>
            <InputNumber min={MINUTES_PER_WORK.min} max={MINUTES_PER_WORK.max} style={{ width: "100%" }} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="place" label="答辩地点" extra="现场答辩填写地点，线上答辩填写会议链接">
            <Input maxLength={200} placeholder="例如：计算机大楼 201 会议室" data-testid="defence-place" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="meetingLink"
            label="会议链接"
            rules={[{ pattern: /^https?:\/\/\S+$/, message: "请填写以 http:// 或 https:// 开头的链接" }]}
          >
            <Input maxLength={500} placeholder="https://…" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="prepareNote" label="作者准备事项">
        <Input.TextArea rows={3} maxLength={2000} showCount />
      </Form.Item>
      <Form.Item
        label={`答辩作品（已选 ${selected.length} / ${data.works.length}）`}
        extra={
          worksLocked
            ? "已有评委评分，答辩作品不能再更改"
            : s?.draw
              ? "更改答辩作品会清除抽签结果，需要重新抽签"
              : "默认为本组全部作品，可只选择晋级答辩的作品"
        }
      >
        <Table
          size="small"
          rowKey="id"
          pagination={false}
          scroll={{ y: 260 }}
          dataSource={data.works}
          rowSelection={{
            selectedRowKeys: selected,
            onChange: (keys) => setSelected(keys as number[]),
            getCheckboxProps: (w) => ({ disabled: worksLocked || !!s?.signOff, "aria-label": `选择《${w.name}》` }),
          }}
          columns={[
            { title: "作品编号", dataIndex: "id", width: 120 },
            { title: "作品名称", dataIndex: "name" },
            { title: "学校", dataIndex: "school", width: 200 },
          ]}
        />
      </Form.Item>
      {error && <Alert style={{ marginBottom: 12 }} type="error" showIcon message={error} />}
      <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={busy} data-testid="defence-save">
        {s ? "保存答辩安排" : "创建答辩场次"}
      </Button>
    </Form>
  );
}

export function AdminSessionPanel({ contestId, groupId }: { contestId: number; groupId: number }) {
  const q = useAdminDefence(groupId);
  const qc = useQueryClient();
  const { message, modal } = App.useApp();
  const [reopening, setReopening] = useState(false);
  const [reason, setReason] = useState("");
  const refresh = () => qc.invalidateQueries({ queryKey: defenceKeys.admin(groupId) });

  if (q.isLoading) return <Skeleton active />;
  if (q.error || !q.data) return <Result status="404" title={q.error?.message ?? "评审组不存在"} />;
  const data = q.data;
  if (data.group.contestId !== contestId) return <Result status="404" title="评审组不属于该赛事" />;
  const s = data.session;
  if (!data.works.length) return <Alert type="info" showIcon message="本组还没有作品：请先把作品分入评审组，再安排现场答辩" />;

  const draw = () =>
    modal.confirm({
      title: s?.draw ? "重新抽签？" : "抽签确定答辩顺序？",
      content: s?.draw
        ? "重新抽签会替换当前的顺序和时间，请及时通知作者；已开始评分后不能重新抽签。"
        : "系统用密码学随机数生成种子并记录，任何人可按种子复核顺序。",
      okText: s?.draw ? "重新抽签" : "抽签",
      cancelText: "取消",
      onOk: async () => {
        const r = await defenceApi.draw(s!.id, !!s?.draw);
        if (r.error !== 0) return void message.error(r.info);
        message.success(r.info);
        await refresh();
      },
    });

  const reopen = async () => {
    const r = await defenceApi.reopen(s!.id, reason.trim());
    if (r.error !== 0) return void message.error(r.info);
    message.success(r.info);
    setReopening(false);
    setReason("");
    await refresh();
  };

  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="defence-admin">
      {!data.group.leader && (
        <Alert type="warning" showIcon message="本组尚未指定专家组长：组长负责汇总并签署答辩结果，请在评审组设置中指定" />
      )}
      {s && (
        <Card
          size="small"
          title="答辩场次"
          extra={
            <Space>
              {!s.signOff && (
                <Tooltip title={s.draw && s.scores > 0 ? "已有评委评分，不能重新抽签" : undefined}>
                  <Button
                    icon={<ThunderboltOutlined />}
                    onClick={draw}
                    disabled={!!s.draw && s.scores > 0}
                    data-testid="admin-draw"
                  >
                    {s.draw ? "重新抽签" : "抽签"}
                  </Button>
                </Tooltip>
              )}
              {s.signOff && (
                <Button danger icon={<UnlockOutlined />} onClick={() => setReopening(true)} data-testid="admin-reopen">
                  重新开放
                </Button>
              )}
            </Space>
          }
        >
          <Space direction="vertical" size={12} style={{ width: "100%" }}>
            <SessionInfo s={s} />
            <Table<AdminSlot>
              size="small"
              rowKey={(x) => x.work.id}
              pagination={false}
              dataSource={s.slots}
              data-testid="admin-slots"
              columns={slotColumns}
            />
            <Typography.Text type="secondary">请把每件作品的答辩链接发给该作品的作者；链接不可猜测，请勿公开。</Typography.Text>
          </Space>
        </Card>
      )}
      <Card size="small" title={s ? "修改答辩安排" : "安排现场答辩"}>
        {s?.signOff && (
          <Alert
            style={{ marginBottom: 12 }}
            type="info"
            showIcon
            message="专家组长已签署本组结果，答辩安排不能再修改；如需修改请先重新开放"
          />
        )}
        <SessionForm data={data} onSaved={refresh} />
      </Card>
      <Modal
        open={reopening}
        title="重新开放已签署的答辩结果"
        okText="重新开放"
        cancelText="取消"
        onOk={reopen}
        okButtonProps={{ disabled: !reason.trim(), danger: true }}
        onCancel={() => setReopening(false)}
        destroyOnHidden
      >
        <Typography.Paragraph>重新开放后评委可以修改评分，专家组长须重新签署。请写明原因（记入日志）。</Typography.Paragraph>
        <Input.TextArea
          rows={3}
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          placeholder="例如：陈评审需补评第 4 件作品"
          data-testid="reopen-reason"
        />
      </Modal>
    </Space>
  );
}

export default AdminSessionPanel;
